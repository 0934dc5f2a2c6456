//! Formulas compiled for evaluation: variables resolved to slots and calls to `Function`s
//! once, so evaluating looks nothing up by name.
use super::operators::{BinOp, Function, FunctionInfo};
use super::Node;
use std::marker::PhantomData;

/// One step of a compiled formula: a postfix program over a stack of values. A variable is
/// the index of its value (its slot); a name that has no slot, dice, and a call to an unknown
/// function (none passes `Formula::parse`) are NaN.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Step {
    Const(f64),
    Slot(usize),
    Neg,
    Not,
    /// Any operator but `and`/`or`, on the top two values.
    Bin(BinOp),
    /// `and` with its left side on top: false gives 0 and jumps past the right side.
    AndElse(usize),
    /// `or` with its left side on top: true gives 1 and jumps past the right side.
    OrElse(usize),
    /// The top as 0 or 1 (what `and`/`or` give after reading their right side).
    Truth,
    /// `if`: take the condition; false jumps to the `else` branch.
    Unless(usize),
    Jump(usize),
    /// The smaller (larger) of the top two: `min` (`max`) folds its arguments with these.
    Min,
    Max,
    /// A function of the top `n` values (its arity was checked when compiled).
    Call(Function, usize),
}

/// Emits the steps of a tree, keeping track of how deep the stack gets.
struct Emitter<'s> {
    steps: Vec<Step>,
    depth: usize,
    slot: &'s dyn Fn(&str) -> Option<usize>,
}

impl Emitter<'_> {
    /// Emit `node`, which finds `height` values on the stack and leaves one more.
    fn node(&mut self, node: &Node, height: usize) {
        self.depth = self.depth.max(height + 1);
        match node {
            Node::Num { value, .. } => self.steps.push(Step::Const(*value)),
            Node::Bool(b) => self.steps.push(Step::Const(flag(*b))),
            Node::Var { name, .. } => self.steps.push(match (self.slot)(name) {
                Some(i) => Step::Slot(i),
                None => Step::Const(f64::NAN),
            }),
            Node::Dice { .. } => self.steps.push(Step::Const(f64::NAN)),
            Node::Neg(a) => {
                self.node(a, height);
                self.steps.push(Step::Neg);
            }
            Node::Not(a) => {
                self.node(a, height);
                self.steps.push(Step::Not);
            }
            Node::Bin(op @ (BinOp::And | BinOp::Or), a, b) => {
                self.node(a, height);
                let at = self.steps.len();
                self.steps.push(Step::Jump(0));
                self.node(b, height);
                self.steps.push(Step::Truth);
                let end = self.steps.len();
                self.steps[at] = match op {
                    BinOp::And => Step::AndElse(end),
                    _ => Step::OrElse(end),
                };
            }
            Node::Bin(op, a, b) => {
                self.node(a, height);
                self.node(b, height + 1);
                self.steps.push(Step::Bin(*op));
            }
            Node::If(c, t, e) => {
                self.node(c, height);
                let unless = self.steps.len();
                self.steps.push(Step::Unless(0));
                self.node(t, height);
                let jump = self.steps.len();
                self.steps.push(Step::Jump(0));
                self.steps[unless] = Step::Unless(self.steps.len());
                self.node(e, height);
                self.steps[jump] = Step::Jump(self.steps.len());
            }
            Node::Call { name, args, .. } => match FunctionInfo::named(name) {
                Some(f) if f.takes(args.len()) => match f.function {
                    // Folded from the empty case, as `min(NaN)` is infinity: f64::min skips NaN.
                    Function::Min | Function::Max => {
                        let (start, fold) = match f.function {
                            Function::Min => (f64::INFINITY, Step::Min),
                            _ => (f64::NEG_INFINITY, Step::Max),
                        };
                        self.steps.push(Step::Const(start));
                        for a in args {
                            self.node(a, height + 1);
                            self.steps.push(fold);
                        }
                    }
                    function => {
                        for (i, a) in args.iter().enumerate() {
                            self.node(a, height + i);
                        }
                        self.steps.push(Step::Call(function, args.len()));
                    }
                },
                _ => self.steps.push(Step::Const(f64::NAN)),
            },
        }
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
pub(crate) fn round_to(x: f64, digits: i32) -> f64 {
    if digits == 0 {
        return x.round();
    }
    let scale = 10f64.powi(digits);
    // Nudge by a relative epsilon so 0.125 (stored as 0.12499999...) rounds as written.
    let scaled = x * scale;
    let nudged = scaled + scaled.signum() * scaled.abs() * 1e-12;
    nudged.round() / scale
}

/// Values the stack holds without a heap allocation (real formulas need a handful).
const SMALL_STACK: usize = 16;

impl Program {
    fn new(node: &Node, slot: &dyn Fn(&str) -> Option<usize>) -> Program {
        let mut emit = Emitter {
            steps: Vec::new(),
            depth: 0,
            slot,
        };
        emit.node(node, 0);
        Program {
            steps: emit.steps.into_boxed_slice(),
            depth: emit.depth,
        }
    }

    /// The value, with `var` giving the value of a slot. Generic, so each caller's variable
    /// access is compiled into the loop.
    fn eval<V: Fn(usize) -> f64>(&self, var: &V) -> f64 {
        if self.depth <= SMALL_STACK {
            self.run(var, &mut [0.0; SMALL_STACK])
        } else {
            self.run(var, &mut vec![0.0; self.depth])
        }
    }

    fn run<V: Fn(usize) -> f64>(&self, var: &V, stack: &mut [f64]) -> f64 {
        let (mut top, mut pc) = (0usize, 0usize);
        while let Some(step) = self.steps.get(pc) {
            pc += 1;
            match *step {
                Step::Const(x) => {
                    stack[top] = x;
                    top += 1;
                }
                Step::Slot(i) => {
                    stack[top] = var(i);
                    top += 1;
                }
                Step::Neg => stack[top - 1] = -stack[top - 1],
                Step::Not => stack[top - 1] = flag(!truth(stack[top - 1])),
                Step::Truth => stack[top - 1] = flag(truth(stack[top - 1])),
                Step::AndElse(end) => {
                    if truth(stack[top - 1]) {
                        top -= 1;
                    } else {
                        stack[top - 1] = 0.0;
                        pc = end;
                    }
                }
                Step::OrElse(end) => {
                    if truth(stack[top - 1]) {
                        stack[top - 1] = 1.0;
                        pc = end;
                    } else {
                        top -= 1;
                    }
                }
                Step::Unless(other) => {
                    top -= 1;
                    if !truth(stack[top]) {
                        pc = other;
                    }
                }
                Step::Jump(to) => pc = to,
                Step::Bin(op) => {
                    top -= 1;
                    let (x, y) = (stack[top - 1], stack[top]);
                    stack[top - 1] = binary(op, x, y);
                }
                Step::Min => {
                    top -= 1;
                    stack[top - 1] = stack[top - 1].min(stack[top]);
                }
                Step::Max => {
                    top -= 1;
                    stack[top - 1] = stack[top - 1].max(stack[top]);
                }
                Step::Call(f, n) => {
                    top -= n;
                    let args = &stack[top..top + n];
                    stack[top] = call(f, args);
                    top += 1;
                }
            }
        }
        stack[0]
    }
}

fn binary(op: BinOp, x: f64, y: f64) -> f64 {
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
        BinOp::And => flag(truth(x) && truth(y)),
        BinOp::Or => flag(truth(x) || truth(y)),
    }
}

/// A function of its arguments, as many as its arity allows.
fn call(f: Function, args: &[f64]) -> f64 {
    match f {
        Function::Min => args.iter().copied().fold(f64::INFINITY, f64::min),
        Function::Max => args.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        Function::Clamp => args[0].max(args[1]).min(args[2]),
        Function::Round => round_to(args[0], args.get(1).map_or(0, |d| *d as i32)),
        Function::Floor => args[0].floor(),
        Function::Ceil => args[0].ceil(),
        Function::Abs => args[0].abs(),
    }
}

/// A compiled formula: its steps and the most values its stack holds.
#[derive(Debug, Clone, PartialEq)]
struct Program {
    steps: Box<[Step]>,
    depth: usize,
}

/// A formula with its variables bound to positions in a slice of values (`Formula::compile`).
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    program: Program,
}

impl Compiled {
    /// Compile a tree; `slot` gives the position of a variable's value.
    pub(super) fn new(node: &Node, slot: &dyn Fn(&str) -> Option<usize>) -> Compiled {
        Compiled {
            program: Program::new(node, slot),
        }
    }

    /// The value with `values[i]` for the variable in slot `i` (NaN for a slot past the end).
    pub fn eval(&self, values: &[f64]) -> f64 {
        self.program
            .eval(&|i: usize| values.get(i).copied().unwrap_or(f64::NAN))
    }

    /// The value with `var(i)` giving the variable in slot `i`, read only when needed.
    pub(crate) fn eval_by(&self, var: impl Fn(usize) -> f64) -> f64 {
        self.program.eval(&var)
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

    /// The tree walk the postfix program replaced: the reference it must agree with.
    fn walk(node: &Node, var: &dyn Fn(&str) -> f64) -> f64 {
        let w = |n: &Node| walk(n, var);
        match node {
            Node::Num { value, .. } => *value,
            Node::Bool(b) => flag(*b),
            Node::Var { name, .. } => var(name),
            Node::Dice { .. } => f64::NAN,
            Node::Neg(a) => -w(a),
            Node::Not(a) => flag(!truth(w(a))),
            Node::If(c, t, e) => {
                if truth(w(c)) {
                    w(t)
                } else {
                    w(e)
                }
            }
            Node::Bin(BinOp::And, a, b) => flag(truth(w(a)) && truth(w(b))),
            Node::Bin(BinOp::Or, a, b) => flag(truth(w(a)) || truth(w(b))),
            Node::Bin(op, a, b) => binary(*op, w(a), w(b)),
            Node::Call { name, args, .. } => {
                let v: Vec<f64> = args.iter().map(w).collect();
                call(FunctionInfo::named(name).unwrap().function, &v)
            }
        }
    }

    #[test]
    fn the_program_agrees_with_a_walk_of_the_tree() {
        let formulas = [
            "x * y + z",
            "x - y - z / 2 ^ y ^ 0.5",
            "-x ^ 2 + not y - --z",
            "if x > y and (z or not x) then max(x, y, z) else min(x, -y, 3)",
            "x and y or z and not (x or y)",
            "if x then if y then 1 else 2 else if z then 3 else 4",
            "clamp(round(x / (y + 0.5), 2), min(y, z), max(y, z, 10))",
            "min(x) + max(y) + min(x / 0 - x / 0, 4) + max(0 / 0)",
            "round(x * 1.005, z) + floor(-x) * ceil(y) - abs(z - 7)",
            "(x == y) + (x != z) * 2 + (x <= y) * 4 + (x >= z) * 8 + (x < y) * 16",
            "max(if x then y else z, x and y, 1 + (y or 0), clamp(x, y, z) ^ 2)",
            "unknown + 1",
            "3D6 + x",
        ];
        let values = [-2.5, -1.0, 0.0, 0.5, 1.0, 3.0, f64::NAN, f64::INFINITY];
        let names = ["x", "y", "z"];
        for text in formulas {
            let f = Formula::parse(text).unwrap();
            let compiled = f.compile(&names);
            for x in values {
                for y in values {
                    for z in values {
                        let v = [x, y, z];
                        let var = |n: &str| {
                            names
                                .iter()
                                .position(|m| *m == n)
                                .map_or(f64::NAN, |i| v[i])
                        };
                        let (got, want) = (compiled.eval(&v), walk(f.node(), &var));
                        assert!(
                            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                            "{text} at {v:?}: {got} but the tree gives {want}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn deep_formulas_use_a_stack_on_the_heap() {
        let deep = format!("{}x{}", "(1 + ".repeat(90), ")".repeat(90));
        let f = Formula::parse(&deep).unwrap();
        assert_eq!(f.compile(&["x"]).eval(&[1.0]), 91.0);
        let wide = format!("max({})", vec!["x"; 5000].join(", "));
        assert_eq!(
            Formula::parse(&wide).unwrap().compile(&["x"]).eval(&[2.0]),
            2.0
        );
    }
}
