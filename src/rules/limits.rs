//! The sandbox limits as ruleset data: every limit a script, hook or tactic runs under, with
//! its safe default, and what a ruleset may set (only ever tighter). Putting them on a script
//! engine is the scripting layer's work (`script::sandbox`, `Limits::apply`).
use serde::{Deserialize, Serialize};

/// Every sandbox limit, declared once: its name (as a ruleset's `script.limits` spells it),
/// type, safe default and what it bounds. Calls `$then!` with the whole list: `Limits` and
/// `SAFE` and a ruleset's `LimitSettings` below are made from it, so a new limit is one line
/// here (and its effect in the scripting layer's `Limits::apply`).
macro_rules! sandbox_limits {
    ($then:ident) => {
        $then! {
            /// Operations (rhai's unit of work: a statement, an expression step, a call).
            max_operations: u64 = 1_000_000,
            /// Nested function calls (recursion depth).
            max_call_levels: usize = 48,
            /// Nesting of expressions and statements at the top level of a script.
            max_expr_depth: usize = 64,
            /// Nesting of expressions and statements inside functions.
            max_function_expr_depth: usize = 32,
            /// Bytes in one string (strings inside an array or map count together).
            max_string_size: usize = 100_000,
            /// Elements in one array (nested arrays count together).
            max_array_size: usize = 20_000,
            /// Entries in one object map (nested maps count together).
            max_map_size: usize = 10_000,
            /// Variables alive at once.
            max_variables: usize = 256,
            /// Functions a script may define.
            max_functions: usize = 256,
            /// Seconds of wall-clock time, engine calls (a simulation, a schedule search) included.
            max_seconds: f64 = 2.0,
            /// Megabytes the program may hold while the script runs (engine results included).
            max_memory_mb: u64 = 512,
        }
    };
}

macro_rules! declare_limits {
    ($( $(#[$doc:meta])* $name:ident: $type:ty = $safe:expr, )*) => {
        /// Limits on one evaluation (a script, a REPL entry, one call of a hook or tactic).
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Limits {
            $( $(#[$doc])* pub $name: $type, )*
        }

        /// The safe defaults: generous for real uses (a season, a pricing study, a tactic),
        /// small enough that a hostile script stops in well under a second and a few hundred
        /// MB at most.
        pub const SAFE: Limits = Limits { $( $name: $safe, )* };

        impl Limits {
            /// The value of a limit by name (as a number, for messages and checks).
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    $( stringify!($name) => Some(self.$name as f64), )*
                    _ => None,
                }
            }

            /// The tighter of the two, limit by limit: tightening never loosens anything.
            pub fn tightened(&self, other: &Limits) -> Limits {
                Limits { $( $name: self.$name.min(other.$name), )* }
            }
        }
    };
}
sandbox_limits!(declare_limits);

impl Default for Limits {
    fn default() -> Limits {
        SAFE
    }
}

macro_rules! declare_limit_settings {
    ($( $(#[$doc:meta])* $name:ident: $type:ty = $safe:expr, )*) => {
        /// Limits a ruleset sets; each may only be at most the safe default.
        #[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
        #[serde(deny_unknown_fields)]
        pub struct LimitSettings {
            $(
                $(#[$doc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $name: Option<$type>,
            )*
        }

        impl LimitSettings {
            /// The safe defaults with these settings applied (never looser than the defaults).
            pub fn limits(&self) -> Limits {
                let mine = Limits { $( $name: self.$name.unwrap_or(SAFE.$name), )* };
                SAFE.tightened(&mine)
            }
        }
    };
}
sandbox_limits!(declare_limit_settings);
