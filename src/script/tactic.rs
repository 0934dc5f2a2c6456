//! Rhai tactics: a script's `fn tactic(me, enemy, ctx)` steering a side in combat.
//!
//! The function is called once per turn for its side, at the side's first move-fire question,
//! with plain maps (below). It answers with orders for the turn, which the classic tactic
//! (`combat::tactics::ClassicTactic`, whose knobs the orders are) carries out (it moves, aims, manages shields, repairs and boards as usual):
//!
//! * `range` — the distance to fight at; `fire_at` / `torpedo_at` — the least hit chance
//!   worth a phaser volley / a torpedo (above 1: hold fire); `warp_margin` — hull points
//!   from breaking at which to leave by warp; `flee: true` — leave now (run, then warp).
//!   Keys left out keep the classic tactic's choice; `()` keeps them all.
//!
//! What the function sees: `me` and `enemy` are `#{name, shields: [6 faces], shield_toward,
//! shield_rating, hull, hull_left, torpedoes, energy, battery, cloaked, max_speed}` (`hull`
//! is "light", "damaged" or "badly_damaged"; `shield_toward` the face turned to the other
//! ship); `ctx` is `#{turn, distance, phaser_chance, torpedo_chance, enemy_visible,
//! sensor_range}` from `me`'s point of view.
//!
//! The script is compiled once and shared by every battle and thread; each call runs in the
//! sandbox with its own limits. A call sees nothing of other calls, so a battle's course
//! depends only on its seed and the results do not depend on the thread count. The first
//! failure is kept (and reported by the caller); the side then plays the classic tactic.
use super::engine::ScriptFunctions;
use super::errors;
use crate::combat::context::Loc;
use crate::combat::ship::{Condition, ShipClass, ShipState};
use crate::combat::tactics::{Action, ClassicTactic, Tactic};
use crate::combat::tactics::{
    Activation, BoardingOrder, Deactivation, Memory, RepairJob, ShieldOp,
};
use crate::combat::view::View;
use crate::error::{Error, Result, Source};
use rhai::{Array, Dynamic, Engine, FnPtr, Map, AST, FLOAT, INT};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use {
    super::sandbox::{self},
    crate::rules::limits::Limits,
};

/// The name a tactic file's function must have.
pub(crate) const TACTIC_FUNCTION: &str = "tactic";

/// The order keys a tactic may return.
pub(crate) const ORDER_KEYS: &[&str] = &["range", "fire_at", "torpedo_at", "warp_margin", "flee"];

/// A side's tactic written in rhai.
pub struct ScriptTactic {
    name: String,
    engine: Engine,
    ast: Arc<AST>,
    function: FnPtr,
    sources: HashMap<String, Arc<Source>>,
    /// What the orders adjust.
    base: ClassicTactic,
    failed: AtomicBool,
    failure: Mutex<Option<Error>>,
    /// Operations all calls may use in one battle, and in all battles together.
    per_battle: u64,
    in_all: u64,
    used_in_all: AtomicU64,
}

/// A tactic's budgets, in calls' worth of operations (`max_operations` bounds one call): a
/// battle has a few dozen turns, and a simulation should not outlast the script's time limit.
const BATTLE_CALLS: u64 = 10;
const ALL_CALLS: u64 = 1_000;

impl ScriptTactic {
    /// A function of the running script (`Fn("tactic")`, or a closure).
    pub(crate) fn from_script(
        function: FnPtr,
        functions: &ScriptFunctions,
        limits: &Limits,
    ) -> Result<ScriptTactic> {
        let name = function.fn_name().to_string();
        if !function.is_anonymous() && !functions.ast.iter_functions().any(|f| f.name == name) {
            return Err(Error::msg(format!(
                "a tactic: the script defines no function `{name}` (write `fn {name}(me, enemy, \
                 ctx) {{ ... }}`)"
            )));
        }
        Ok(ScriptTactic::build(
            name,
            function,
            functions.ast.clone(),
            functions.sources.clone(),
            limits,
        ))
    }

    /// A tactic file defining `fn tactic(me, enemy, ctx)`.
    pub(crate) fn from_file(path: &str, limits: &Limits) -> Result<ScriptTactic> {
        let text = crate::io::read_text(path)?;
        ScriptTactic::compile(path, &text, limits)
    }

    /// Tactic source text (`file` names it in errors) defining `fn tactic(me, enemy, ctx)`.
    pub fn compile(path: &str, text: &str, limits: &Limits) -> Result<ScriptTactic> {
        let text = text.to_string();
        let source = Arc::new(Source {
            name: path.to_string(),
            text: text.clone(),
        });
        let engine = super::engine::pure_engine(limits);
        let mut ast = engine
            .compile(&text)
            .map_err(|e| errors::parse_error(&source, &e))?;
        ast.set_source(path);
        if !ast
            .iter_functions()
            .any(|f| f.name == TACTIC_FUNCTION && f.params.len() == 3)
        {
            return Err(Error::msg(format!(
                "{path}: a tactic file must define `fn {TACTIC_FUNCTION}(me, enemy, ctx)`"
            )));
        }
        let sources: HashMap<String, Arc<Source>> = ast
            .iter_functions()
            .map(|f| (f.name.to_string(), source.clone()))
            .collect();
        let function = FnPtr::new(TACTIC_FUNCTION).map_err(|e| Error::msg(e.to_string()))?;
        let label = std::path::Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.to_string());
        Ok(ScriptTactic::build(
            label,
            function,
            Arc::new(ast.clone_functions_only()),
            sources,
            limits,
        ))
    }

    fn build(
        name: String,
        function: FnPtr,
        ast: Arc<AST>,
        sources: HashMap<String, Arc<Source>>,
        limits: &Limits,
    ) -> ScriptTactic {
        ScriptTactic {
            name,
            engine: super::engine::pure_engine(limits),
            ast,
            function,
            sources,
            base: ClassicTactic::default(),
            failed: AtomicBool::new(false),
            failure: Mutex::new(None),
            per_battle: limits.max_operations.saturating_mul(BATTLE_CALLS),
            in_all: limits.max_operations.saturating_mul(ALL_CALLS),
            used_in_all: AtomicU64::new(0),
        }
    }

    /// Count a call's operations against the battle's budget and the simulation's.
    fn charge(&self, used_in_battle: &mut i64, spent: u64) -> Result<()> {
        *used_in_battle = used_in_battle.saturating_add(i64::try_from(spent).unwrap_or(i64::MAX));
        let in_all = self
            .used_in_all
            .fetch_add(spent, Ordering::Relaxed)
            .saturating_add(spent);
        if u64::try_from(*used_in_battle).unwrap_or(0) > self.per_battle {
            return Err(Error::msg(format!(
                "tactic `{}` used more than {} operations in one battle",
                self.name, self.per_battle
            )));
        }
        if in_all > self.in_all {
            return Err(Error::msg(format!(
                "tactic `{}` used more than {} operations in all battles together",
                self.name, self.in_all
            )));
        }
        Ok(())
    }

    /// The first failure of any call, if there was one (taken: asked once, after the battles).
    pub fn take_failure(&self) -> Option<Error> {
        self.failure
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    /// This turn's orders, as the classic tactic's knobs; its own ones if the script fails.
    /// `used_in_battle` counts the operations of this side's calls in this battle.
    pub(crate) fn orders(&self, v: &View, used_in_battle: &mut i64) -> ClassicTactic {
        if self.failed.load(Ordering::Relaxed) {
            return self.base.clone();
        }
        let (me, enemy, ctx) = (
            side(v.me, v.my_class, v.my_face_toward_enemy()),
            side(v.enemy, v.enemy_class, v.enemy_face_from(v.me.pos)),
            situation(v),
        );
        sandbox::reset_operations();
        let answer = sandbox::with_own_clock(|| {
            self.function
                .call::<Dynamic>(&self.engine, &self.ast, (me, enemy, ctx))
        });
        let spent = sandbox::operations_used();
        let knobs = match (self.charge(used_in_battle, spent), answer) {
            (Err(over_budget), _) => Err(over_budget),
            (Ok(()), Ok(value)) => read_orders(&value, &self.base)
                .map_err(|m| Error::msg(format!("tactic `{}` returned {m}", self.name))),
            (Ok(()), Err(e)) => {
                let source = self
                    .sources
                    .get(self.function.fn_name())
                    .cloned()
                    .unwrap_or_else(|| {
                        Arc::new(Source {
                            name: self.name.clone(),
                            text: String::new(),
                        })
                    });
                Err(errors::eval_error(&source, &e).context(&format!("in tactic `{}`", self.name)))
            }
        };
        knobs.unwrap_or_else(|e| {
            if !self.failed.swap(true, Ordering::Relaxed) {
                *self.failure.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
            }
            self.base.clone()
        })
    }
}

// The turn's orders live in the side's battle memory: words[0] marks the turn they are for.
const STAMP: usize = 0;
const RANGE: usize = 1;
const FIRE_AT: usize = 2;
const TORPEDO_AT: usize = 3;
const WARP_MARGIN: usize = 4;
/// Operations the script's calls have used in this battle.
const OPERATIONS: usize = 5;
/// Chances kept in memory words as millionths.
const CHANCE_SCALE: f64 = 1_000_000.0;

fn remember(memory: &mut Memory, turn: u32, t: &ClassicTactic) {
    memory.words[STAMP] = turn as i64 + 1;
    memory.words[RANGE] = t.preferred_range as i64;
    memory.words[FIRE_AT] = (t.min_phaser_chance * CHANCE_SCALE).round() as i64;
    memory.words[TORPEDO_AT] = (t.min_torpedo_chance * CHANCE_SCALE).round() as i64;
    memory.words[WARP_MARGIN] = t.warp_margin as i64;
}

fn recall(memory: &Memory, base: &ClassicTactic) -> ClassicTactic {
    ClassicTactic {
        preferred_range: memory.words[RANGE] as u32,
        min_phaser_chance: memory.words[FIRE_AT] as f64 / CHANCE_SCALE,
        min_torpedo_chance: memory.words[TORPEDO_AT] as f64 / CHANCE_SCALE,
        warp_margin: memory.words[WARP_MARGIN] as u32,
        ..base.clone()
    }
}

impl Tactic for ScriptTactic {
    fn name(&self) -> &str {
        &self.name
    }
    fn activation(&self, v: &View) -> Activation {
        self.base.activation(v)
    }
    fn next_action(&self, v: &View, memory: &mut Memory) -> Action {
        if memory.words[STAMP] != v.turn as i64 + 1 {
            let mut used = memory.words[OPERATIONS];
            let orders = self.orders(v, &mut used);
            memory.words[OPERATIONS] = used;
            remember(memory, v.turn, &orders);
        }
        recall(memory, &self.base).next_action(v, memory)
    }
    fn choose_location(&self, v: &View) -> Loc {
        self.base.choose_location(v)
    }
    fn next_shield_op(&self, v: &View) -> Option<ShieldOp> {
        self.base.next_shield_op(v)
    }
    fn repair(&self, v: &View, team: u32) -> Option<RepairJob> {
        self.base.repair(v, team)
    }
    fn boarding(&self, v: &View) -> BoardingOrder {
        self.base.boarding(v)
    }
    fn absorb(&self, v: &View, damage: u32) -> bool {
        self.base.absorb(v, damage)
    }
    fn deactivation(&self, v: &View) -> Deactivation {
        self.base.deactivation(v)
    }
    fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }
}

/// A ship as a tactic sees it.
fn side(s: &ShipState, class: &ShipClass, toward: u8) -> Map {
    let hull = s.damage[Loc::Hull as usize];
    let condition = match s.level(class, Loc::Hull) {
        Condition::Light => "light",
        Condition::Damaged => "damaged",
        Condition::BadlyDamaged => "badly_damaged",
    };
    let shields: Array = (0..6u8)
        .map(|f| Dynamic::from(s.shield_value(f) as INT))
        .collect();
    let mut m = Map::new();
    m.insert("name".into(), class.name.clone().into());
    m.insert("shields".into(), shields.into());
    m.insert(
        "shield_toward".into(),
        (s.shield_value(toward) as INT).into(),
    );
    m.insert("shield_rating".into(), (class.shields as INT).into());
    m.insert("hull".into(), condition.into());
    m.insert(
        "hull_left".into(),
        (class.track.excess.saturating_sub(hull) as INT).into(),
    );
    m.insert("torpedoes".into(), (s.torpedoes as INT).into());
    m.insert("energy".into(), (s.energy as INT).into());
    m.insert("battery".into(), (s.battery as INT).into());
    m.insert("cloaked".into(), s.cloaked.into());
    m.insert("max_speed".into(), (class.max_speed as INT).into());
    m
}

/// The situation from this side's point of view.
fn situation(v: &View) -> Map {
    let mut m = Map::new();
    m.insert("turn".into(), (v.turn as INT).into());
    m.insert("distance".into(), (v.distance() as INT).into());
    m.insert(
        "phaser_chance".into(),
        (v.phaser_chance_from(v.me.pos) as FLOAT).into(),
    );
    let torpedo = if v.me.torpedoes > 0 {
        v.torpedo_chance_from(v.me.pos)
    } else {
        0.0
    };
    m.insert("torpedo_chance".into(), (torpedo as FLOAT).into());
    m.insert("enemy_visible".into(), v.enemy_visible().into());
    m.insert("sensor_range".into(), (v.ctx.sensor_range as INT).into());
    m
}

/// Orders as the classic tactic's knobs, starting from `base`.
fn read_orders(
    value: &Dynamic,
    base: &ClassicTactic,
) -> std::result::Result<ClassicTactic, String> {
    let mut t = base.clone();
    if value.is_unit() {
        return Ok(t);
    }
    let Some(map) = value.read_lock::<Map>() else {
        return Err(format!(
            "a `{}`; it returns a map of orders ({}) or ()",
            value.type_name(),
            ORDER_KEYS.join(", ")
        ));
    };
    for (key, v) in map.iter() {
        let number = || -> std::result::Result<f64, String> {
            v.as_int()
                .map(|i| i as f64)
                .or_else(|_| v.as_float())
                .map_err(|_| format!("`{key}: {v}`; it must be a number"))
        };
        let whole = || -> std::result::Result<u32, String> {
            let x = number()?;
            if x >= 0.0 && x.fract() == 0.0 && x <= u32::MAX as f64 {
                Ok(x as u32)
            } else {
                Err(format!(
                    "`{key}: {v}`; it must be a whole number of 0 or more"
                ))
            }
        };
        match key.as_str() {
            "range" => t.preferred_range = whole()?,
            "fire_at" => t.min_phaser_chance = number()?,
            "torpedo_at" => t.min_torpedo_chance = number()?,
            "warp_margin" => t.warp_margin = whole()?,
            "flee" => {
                if v.as_bool()
                    .map_err(|_| format!("`flee: {v}`; it must be true or false"))?
                {
                    t.warp_margin = u32::MAX / 2;
                }
            }
            other => {
                return Err(format!(
                    "an unknown order `{other}`{}; orders are {}",
                    crate::names::suggestion(other, ORDER_KEYS.iter().copied()),
                    ORDER_KEYS.join(", ")
                ))
            }
        }
    }
    if !(t.min_phaser_chance.is_finite() && t.min_torpedo_chance.is_finite()) {
        return Err("a chance that is not a number".to_string());
    }
    Ok(t)
}
