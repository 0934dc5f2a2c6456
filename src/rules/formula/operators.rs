//! The formula language's operators and functions, each declared once: the Pratt parser, the
//! size checks, the printer and the evaluator all read these tables.
use crate::rules::grammar::Rule;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

/// What an operator does: a binary operation or one of the two signs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Bin(BinOp),
    Neg,
    Not,
}

/// How an operator takes its operands: infix grouping to the left (`a - b - c` is
/// `(a - b) - c`) or to the right (`2 ^ 3 ^ 2` is `2 ^ (3 ^ 2)`), or a prefix sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Assoc {
    Left,
    Right,
    Prefix,
}

/// One operator: its grammar rule, meaning, canonical spelling and binding strength (higher
/// binds tighter).
#[derive(Debug)]
pub(crate) struct Operator {
    pub rule: Rule,
    pub op: Op,
    pub symbol: &'static str,
    pub precedence: u8,
    pub assoc: Assoc,
}

const fn row(rule: Rule, op: Op, symbol: &'static str, precedence: u8, assoc: Assoc) -> Operator {
    Operator {
        rule,
        op,
        symbol,
        precedence,
        assoc,
    }
}

/// Every operator, loosest first.
pub(crate) const OPERATORS: &[Operator] = &[
    row(Rule::or, Op::Bin(BinOp::Or), "or", 1, Assoc::Left),
    row(Rule::and, Op::Bin(BinOp::And), "and", 2, Assoc::Left),
    row(Rule::lt, Op::Bin(BinOp::Lt), "<", 3, Assoc::Left),
    row(Rule::le, Op::Bin(BinOp::Le), "<=", 3, Assoc::Left),
    row(Rule::gt, Op::Bin(BinOp::Gt), ">", 3, Assoc::Left),
    row(Rule::ge, Op::Bin(BinOp::Ge), ">=", 3, Assoc::Left),
    row(Rule::eq, Op::Bin(BinOp::Eq), "==", 3, Assoc::Left),
    row(Rule::ne, Op::Bin(BinOp::Ne), "!=", 3, Assoc::Left),
    row(Rule::add, Op::Bin(BinOp::Add), "+", 4, Assoc::Left),
    row(Rule::sub, Op::Bin(BinOp::Sub), "-", 4, Assoc::Left),
    row(Rule::mul, Op::Bin(BinOp::Mul), "*", 5, Assoc::Left),
    row(Rule::div, Op::Bin(BinOp::Div), "/", 5, Assoc::Left),
    // Signs bind looser than `^`: "-2 ^ 2" is -(2 ^ 2).
    row(Rule::neg, Op::Neg, "-", 6, Assoc::Prefix),
    row(Rule::not, Op::Not, "not", 6, Assoc::Prefix),
    row(Rule::pow, Op::Bin(BinOp::Pow), "^", 7, Assoc::Right),
];

/// The binding strength of the signs (`-`, `not`): all prefix operators share one.
pub(crate) const PREFIX_PRECEDENCE: u8 = prefix_precedence();

const fn prefix_precedence() -> u8 {
    let mut i = 0;
    while i < OPERATORS.len() {
        if matches!(OPERATORS[i].assoc, Assoc::Prefix) {
            return OPERATORS[i].precedence;
        }
        i += 1;
    }
    panic!("the operator table has no prefix operator")
}

/// The operator a grammar rule stands for, if it is one.
pub(crate) fn of_rule(rule: Rule) -> Option<&'static Operator> {
    OPERATORS.iter().find(|o| o.rule == rule)
}

fn of_op(op: Op) -> &'static Operator {
    OPERATORS
        .iter()
        .find(|o| o.op == op)
        .expect("every operator is in the table")
}

impl BinOp {
    pub(crate) fn symbol(self) -> &'static str {
        of_op(Op::Bin(self)).symbol
    }

    pub(crate) fn precedence(self) -> u8 {
        of_op(Op::Bin(self)).precedence
    }

    pub(crate) fn assoc(self) -> Assoc {
        of_op(Op::Bin(self)).assoc
    }
}

/// A function a formula may call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Function {
    Min,
    Max,
    Clamp,
    Round,
    Floor,
    Ceil,
    Abs,
}

/// One function: its name, how many arguments it takes (at least, at most) and what it does.
#[derive(Debug)]
pub struct FunctionInfo {
    pub(crate) function: Function,
    pub name: &'static str,
    pub min_args: usize,
    pub max_args: usize,
    /// How a call is written, its arguments named (`clamp(x, lo, hi)`).
    pub signature: &'static str,
    pub help: &'static str,
}

const fn function(
    function: Function,
    name: &'static str,
    min_args: usize,
    max_args: usize,
    signature: &'static str,
    help: &'static str,
) -> FunctionInfo {
    FunctionInfo {
        function,
        name,
        min_args,
        max_args,
        signature,
        help,
    }
}

/// The functions a formula may call.
pub const FUNCTIONS: &[FunctionInfo] = &[
    function(
        Function::Min,
        "min",
        1,
        usize::MAX,
        "min(a, b, ...)",
        "smallest of the arguments",
    ),
    function(
        Function::Max,
        "max",
        1,
        usize::MAX,
        "max(a, b, ...)",
        "largest of the arguments",
    ),
    function(
        Function::Clamp,
        "clamp",
        3,
        3,
        "clamp(x, lo, hi)",
        "x kept inside [lo, hi]",
    ),
    function(
        Function::Round,
        "round",
        1,
        2,
        "round(x) or round(x, d)",
        "round(x) to an integer, halves away from zero; round(x, d) to d decimals",
    ),
    function(
        Function::Floor,
        "floor",
        1,
        1,
        "floor(x)",
        "largest integer not above x",
    ),
    function(
        Function::Ceil,
        "ceil",
        1,
        1,
        "ceil(x)",
        "smallest integer not below x",
    ),
    function(Function::Abs, "abs", 1, 1, "abs(x)", "absolute value"),
];

impl FunctionInfo {
    /// The function called `name` (names are exact: `max`, not `MAX`).
    pub(crate) fn named(name: &str) -> Option<&'static FunctionInfo> {
        FUNCTIONS.iter().find(|f| f.name == name)
    }

    /// Whether it accepts `n` arguments.
    pub(crate) fn takes(&self, n: usize) -> bool {
        (self.min_args..=self.max_args).contains(&n)
    }

    /// "3 arguments", "at least 1 argument", "1 to 2 arguments".
    pub(crate) fn arity_text(&self) -> String {
        let (lo, hi) = (self.min_args, self.max_args);
        let s = if lo == 1 { "" } else { "s" };
        if lo == hi {
            format!("{lo} argument{s}")
        } else if hi == usize::MAX {
            format!("at least {lo} argument{s}")
        } else {
            format!("{lo} to {hi} arguments")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_and_meaning_appears_once_and_signs_share_a_strength() {
        for (i, a) in OPERATORS.iter().enumerate() {
            for b in &OPERATORS[i + 1..] {
                assert!(a.rule != b.rule && a.op != b.op, "{a:?} and {b:?}");
            }
            assert_eq!(
                a.assoc == Assoc::Prefix,
                a.precedence == PREFIX_PRECEDENCE,
                "{a:?}"
            );
        }
        assert!(OPERATORS
            .windows(2)
            .all(|w| w[0].precedence <= w[1].precedence));
        assert_eq!(BinOp::Pow.assoc(), Assoc::Right);
        assert_eq!((BinOp::Ne.symbol(), BinOp::Ne.precedence()), ("!=", 3));
    }

    #[test]
    fn functions_say_how_many_arguments_they_take() {
        let text = |n: &str| FunctionInfo::named(n).unwrap().arity_text();
        assert_eq!(text("clamp"), "3 arguments");
        assert_eq!(text("abs"), "1 argument");
        assert_eq!(text("max"), "at least 1 argument");
        assert_eq!(text("round"), "1 to 2 arguments");
        assert!(FunctionInfo::named("MAX").is_none());
        assert!(FunctionInfo::named("round").unwrap().takes(2));
    }
}
