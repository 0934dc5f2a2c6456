//! Formulas compiled for evaluation: variables resolved to slots and calls to `Function`s
//! once, so evaluating looks nothing up by name.
use super::operators::{BinOp, Function, FunctionInfo};
use super::Node;
use std::marker::PhantomData;

/// A compiled formula tree. A variable is the index of its value (its slot); a name that has
/// no slot, dice, and a call to an unknown function (none passes `Formula::parse`) are NaN.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Const(f64),
    Slot(usize),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Arguments counted against the function's arity when compiled.
    Call(Function, Box<[Expr]>),
}

fn compile_node(node: &Node, slot: &dyn Fn(&str) -> Option<usize>) -> Expr {
    let boxed = |n: &Node| Box::new(compile_node(n, slot));
    match node {
        Node::Num { value, .. } => Expr::Const(*value),
        Node::Bool(b) => Expr::Const(flag(*b)),
        Node::Var { name, .. } => slot(name).map_or(Expr::Const(f64::NAN), Expr::Slot),
        Node::Dice { .. } => Expr::Const(f64::NAN),
        Node::Neg(a) => Expr::Neg(boxed(a)),
        Node::Not(a) => Expr::Not(boxed(a)),
        Node::Bin(op, a, b) => Expr::Bin(*op, boxed(a), boxed(b)),
        Node::If(c, t, e) => Expr::If(boxed(c), boxed(t), boxed(e)),
        Node::Call { name, args, .. } => match FunctionInfo::named(name) {
            Some(f) if f.takes(args.len()) => Expr::Call(
                f.function,
                args.iter().map(|a| compile_node(a, slot)).collect(),
            ),
            _ => Expr::Const(f64::NAN),
        },
    }
}

fn truth(x: f64) -> bool {
    x != 0.0 && !x.is_nan()
}

fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

/// Round half away from zero to `digits` decimals.
pub fn round_to(x: f64, digits: i32) -> f64 {
    if digits == 0 {
        return x.round();
    }
    let scale = 10f64.powi(digits);
    // Nudge by a relative epsilon so 0.125 (stored as 0.12499999...) rounds as written.
    let scaled = x * scale;
    let nudged = scaled + scaled.signum() * scaled.abs() * 1e-12;
    nudged.round() / scale
}

impl Expr {
    /// The value, with `var` giving the value of a slot. Generic, so each caller's variable
    /// access is compiled into the walk.
    fn eval<V: Fn(usize) -> f64>(&self, var: &V) -> f64 {
        match self {
            Expr::Const(x) => *x,
            Expr::Slot(i) => var(*i),
            Expr::Neg(a) => -a.eval(var),
            Expr::Not(a) => flag(!truth(a.eval(var))),
            Expr::If(c, t, e) => {
                if truth(c.eval(var)) {
                    t.eval(var)
                } else {
                    e.eval(var)
                }
            }
            Expr::Bin(BinOp::And, a, b) => flag(truth(a.eval(var)) && truth(b.eval(var))),
            Expr::Bin(BinOp::Or, a, b) => flag(truth(a.eval(var)) || truth(b.eval(var))),
            Expr::Bin(op, a, b) => {
                let (x, y) = (a.eval(var), b.eval(var));
                match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x / y,
                    BinOp::Pow => x.powf(y),
                    BinOp::Lt => flag(x < y),
                    BinOp::Le => flag(x <= y),
                    BinOp::Gt => flag(x > y),
                    BinOp::Ge => flag(x >= y),
                    BinOp::Eq => flag(x == y),
                    BinOp::Ne => flag(x != y),
                    BinOp::And | BinOp::Or => unreachable!("evaluated lazily above"),
                }
            }
            Expr::Call(f, args) => {
                let arg = |i: usize| args[i].eval(var);
                match f {
                    Function::Min => args.iter().fold(f64::INFINITY, |m, a| m.min(a.eval(var))),
                    Function::Max => args
                        .iter()
                        .fold(f64::NEG_INFINITY, |m, a| m.max(a.eval(var))),
                    Function::Clamp => {
                        let (x, lo, hi) = (arg(0), arg(1), arg(2));
                        x.max(lo).min(hi)
                    }
                    Function::Round => {
                        let x = arg(0);
                        let digits = if args.len() > 1 { arg(1) as i32 } else { 0 };
                        round_to(x, digits)
                    }
                    Function::Floor => arg(0).floor(),
                    Function::Ceil => arg(0).ceil(),
                    Function::Abs => arg(0).abs(),
                }
            }
        }
    }
}

/// A formula with its variables bound to positions in a slice of values (`Formula::compile`).
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    expr: Expr,
}

impl Compiled {
    /// Compile a tree; `slot` gives the position of a variable's value.
    pub(super) fn new(node: &Node, slot: &dyn Fn(&str) -> Option<usize>) -> Compiled {
        Compiled {
            expr: compile_node(node, slot),
        }
    }

    /// The value with `values[i]` for the variable in slot `i` (NaN for a slot past the end).
    pub fn eval(&self, values: &[f64]) -> f64 {
        self.expr
            .eval(&|i: usize| values.get(i).copied().unwrap_or(f64::NAN))
    }

    /// The value with `var(i)` giving the variable in slot `i`, read only when needed.
    pub fn eval_by(&self, var: impl Fn(usize) -> f64) -> f64 {
        self.expr.eval(&var)
    }
}

/// The variables an engine gives a formula, as the fields of a struct: their names (what a
/// ruleset's formula may read) and their slots come from the one declaration, made with
/// `formula_variables!`.
pub trait Variables {
    /// The variables' names, in slot order (the fields' order).
    const NAMES: &'static [&'static str];
    /// The value of the variable in a slot.
    fn slot(&self, slot: usize) -> f64;
}

/// A formula compiled for the variables of `V` (`Formula::compile_for`).
#[derive(Debug, Clone, PartialEq)]
pub struct CompiledFor<V> {
    compiled: Compiled,
    variables: PhantomData<fn(&V)>,
}

impl<V: Variables> CompiledFor<V> {
    pub(super) fn new(compiled: Compiled) -> CompiledFor<V> {
        CompiledFor {
            compiled,
            variables: PhantomData,
        }
    }

    pub fn eval(&self, values: &V) -> f64 {
        self.compiled.eval_by(|i| values.slot(i))
    }
}

/// Declare a struct of formula variables (every field an `f64`) and its `Variables` impl:
/// the fields' names are the variables' names and their order is the slot order.
///
/// ```ignore
/// formula_variables! {
///     /// What a points formula reads.
///     pub struct PointsVariables {
///         /// Points scored.
///         score,
///         turns,
///     }
/// }
/// ```
macro_rules! formula_variables {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident { $( $(#[$field_meta:meta])* $field:ident ),* $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default, PartialEq)]
        $vis struct $name {
            $( $(#[$field_meta])* pub $field: f64, )*
        }

        impl $crate::rules::formula::Variables for $name {
            const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];

            fn slot(&self, slot: usize) -> f64 {
                let mut i = 0;
                $(
                    if slot == i {
                        return self.$field;
                    }
                    i += 1;
                )*
                let _ = i;
                f64::NAN
            }
        }
    };
}
pub(crate) use formula_variables;

#[cfg(test)]
mod tests {
    use super::super::Formula;
    use super::*;

    formula_variables! {
        struct Sample {
            a,
            /// A documented one.
            b,
            c,
        }
    }

    #[test]
    fn a_variables_struct_names_its_fields_in_slot_order() {
        assert_eq!(Sample::NAMES, &["a", "b", "c"]);
        let s = Sample {
            a: 1.0,
            b: 2.0,
            c: 3.0,
        };
        assert_eq!((s.slot(0), s.slot(2), s.slot(3).is_nan()), (1.0, 3.0, true));
        let f = Formula::parse("c * 100 + b * 10 + a").unwrap();
        f.check(Sample::NAMES).unwrap();
        assert_eq!(f.compile_for::<Sample>().eval(&s), 321.0);
    }

    #[test]
    fn slots_follow_the_names_given_and_missing_ones_are_nan() {
        let f = Formula::parse("x - y").unwrap();
        assert_eq!(f.compile(&["y", "x"]).eval(&[1.0, 10.0]), 9.0);
        assert!(f.compile(&["x"]).eval(&[1.0]).is_nan());
        assert!(f.compile(&["x", "y"]).eval(&[1.0]).is_nan());
    }

    #[test]
    fn and_or_and_if_read_only_what_they_need() {
        let f = Formula::parse("if a then b else (c or d and e)").unwrap();
        let reads = std::cell::RefCell::new(Vec::new());
        let compiled = f.compile(&["a", "b", "c", "d", "e"]);
        let v = compiled.eval_by(|i| {
            reads.borrow_mut().push(i);
            [0.0, 5.0, 1.0, 0.0, 0.0][i]
        });
        assert_eq!((v, reads.into_inner()), (1.0, vec![0, 2]));
    }
}
