//! The formula sublanguage: parsing (pest + Pratt), a canonical printer, checking variables
//! against what an engine provides, and compiling for evaluation with variables bound to slots.
//! The operators and functions are declared once, in `operators`.
mod compiled;
pub mod operators;

pub(crate) use compiled::formula_variables;
pub(crate) use compiled::{round_to, CompiledFor};
pub use compiled::{Compiled, Variables};
use operators::{BinOp, FUNCTIONS};

use super::grammar::{Rule, RulesParser};
use operators::{Assoc, FunctionInfo, Op, OPERATORS, PREFIX_PRECEDENCE};
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc as PrattAssoc, Op as PrattOp, PrattParser};
use pest::Parser;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::OnceLock;

/// A parsed formula. `offset` fields are character offsets into the formula text.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Num {
        value: f64,
        text: String,
    },
    Bool(bool),
    Var {
        name: String,
        offset: usize,
    },
    Dice {
        text: String,
        offset: usize,
    },
    Neg(Box<Node>),
    Not(Box<Node>),
    Bin(BinOp, Box<Node>, Box<Node>),
    Call {
        name: String,
        offset: usize,
        args: Vec<Node>,
    },
    If(Box<Node>, Box<Node>, Box<Node>),
}

/// Binds tighter than any operator: a number, a name, a call, a bracket.
const PRIMARY_PRECEDENCE: u8 = u8::MAX;

/// The Pratt parser of the operator table: one level per precedence, loosest first.
fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        let mut levels: Vec<u8> = OPERATORS.iter().map(|o| o.precedence).collect();
        levels.sort_unstable();
        levels.dedup();
        levels
            .into_iter()
            .fold(PrattParser::new(), |parser, level| {
                let op = OPERATORS
                    .iter()
                    .filter(|o| o.precedence == level)
                    .map(|o| match o.assoc {
                        Assoc::Left => PrattOp::infix(o.rule, PrattAssoc::Left),
                        Assoc::Right => PrattOp::infix(o.rule, PrattAssoc::Right),
                        Assoc::Prefix => PrattOp::prefix(o.rule),
                    })
                    .reduce(|a, b| a | b)
                    .expect("a level has an operator");
                parser.op(op)
            })
    })
}

/// A problem inside a formula, at a character offset of its text.
#[derive(Debug, Clone, PartialEq)]
pub struct FormulaError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for FormulaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset + 1)
    }
}

/// Most signs (`-`, `not`) in a row, and most powers (`^`) in one chain: the parser recurses
/// once for each (a chain of 20,000 would overflow its stack), as brackets make it.
pub(crate) const MAX_IN_A_ROW: usize = super::nesting::MAX_NESTING;
/// Most operators in one formula (real ones have a few dozen). This bounds the depth of the
/// tree, which printing, checking, evaluating and dropping it walk recursively.
pub(crate) const MAX_OPERATORS: usize = 1000;

/// A problem found while building a tree, at a byte position of the text pest parsed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BuildError {
    pub pos: usize,
    pub message: String,
}

/// Build the tree of an `expr` pair. `text` is the pair's text and `base` the byte offset it
/// starts at in what pest parsed. Refuses formulas past `MAX_IN_A_ROW` or `MAX_OPERATORS`
/// before building anything.
pub(crate) fn build(pair: Pair<Rule>, text: &str, base: usize) -> Result<Node, BuildError> {
    check_size(&pair)?;
    let chars = super::lines::LineIndex::chars_only(text);
    Ok(build_checked(
        pair,
        &Offsets {
            text,
            base,
            chars: &chars,
        },
    ))
}

/// Count signs, powers and operators in one pass over the pairs, in text order.
fn check_size(pair: &Pair<Rule>) -> Result<(), BuildError> {
    let (mut signs, mut powers, mut operators) = (0usize, 0usize, 0usize);
    let mut after_paren = false;
    for p in pair.clone().into_inner().flatten() {
        let rule = p.as_rule();
        // A bracket does not end a row: the canonical text drops it ("-(-x)" prints "- -x").
        let bracketed = std::mem::replace(&mut after_paren, rule == Rule::paren);
        match (rule, operators::of_rule(rule).map(|o| o.assoc)) {
            (Rule::expr, _) if bracketed => continue,
            (Rule::expr, _) => (signs, powers) = (0, 0),
            // A literal too large for a 64-bit float would become infinity, and then `null`.
            (Rule::number, _) if !p.as_str().parse::<f64>().is_ok_and(f64::is_finite) => {
                return Err(BuildError {
                    pos: p.as_span().start(),
                    message: format!("number too large: {}", shorten(p.as_str())),
                })
            }
            (_, Some(Assoc::Prefix)) => signs += 1,
            // A right-grouping operator (`^`) nests to the right: a chain of them recurses.
            (_, Some(Assoc::Right)) => (signs, powers) = (0, powers + 1),
            (_, Some(Assoc::Left)) => (signs, powers) = (0, 0),
            _ => continue,
        }
        if rule != Rule::expr {
            operators += 1;
        }
        let message = if signs > MAX_IN_A_ROW {
            format!("more than {MAX_IN_A_ROW} signs (`-`, `not`) in a row")
        } else if powers > MAX_IN_A_ROW {
            format!("more than {MAX_IN_A_ROW} powers (`^`) in a row")
        } else if operators > MAX_OPERATORS {
            format!("more than {MAX_OPERATORS} operators in one formula")
        } else {
            continue;
        };
        return Err(BuildError {
            pos: p.as_span().start(),
            message,
        });
    }
    Ok(())
}

/// Turns byte positions of pairs into character offsets of the formula text.
struct Offsets<'t> {
    text: &'t str,
    base: usize,
    chars: &'t super::lines::LineIndex,
}

impl Offsets<'_> {
    fn of(&self, p: &Pair<Rule>) -> usize {
        self.chars
            .char_offset(self.text, p.as_span().start().saturating_sub(self.base))
    }
}

fn build_checked(pair: Pair<Rule>, at: &Offsets) -> Node {
    pratt()
        .map_primary(|p| primary(p, at))
        .map_prefix(|op, rhs| match operator(op.as_rule()) {
            Op::Neg => match rhs {
                // A negative literal stays a literal, so "-5" is the number -5.
                Node::Num { value, text } if !text.starts_with('-') => Node::Num {
                    value: -value,
                    text: format!("-{text}"),
                },
                other => Node::Neg(Box::new(other)),
            },
            _ => Node::Not(Box::new(rhs)),
        })
        .map_infix(|lhs, op, rhs| match operator(op.as_rule()) {
            Op::Bin(op) => Node::Bin(op, Box::new(lhs), Box::new(rhs)),
            other => unreachable!("not an infix operator: {other:?}"),
        })
        .parse(pair.into_inner())
}

/// What the operator rule the Pratt parser hands back means.
fn operator(rule: Rule) -> Op {
    operators::of_rule(rule)
        .map(|o| o.op)
        .unwrap_or_else(|| unreachable!("not an operator: {rule:?}"))
}

fn primary(p: Pair<Rule>, at: &Offsets) -> Node {
    let offset = at.of(&p);
    match p.as_rule() {
        Rule::number => Node::Num {
            value: p.as_str().parse().unwrap_or(f64::NAN),
            text: p.as_str().to_string(),
        },
        Rule::boolean => Node::Bool(p.as_str() == "true"),
        Rule::dice => Node::Dice {
            text: p.as_str().to_uppercase(),
            offset,
        },
        Rule::paren => build_checked(p.into_inner().next().expect("paren holds an expr"), at),
        Rule::conditional => {
            let mut parts = p
                .into_inner()
                .filter(|e| e.as_rule() == Rule::expr)
                .map(|e| build_checked(e, at));
            let c = parts.next().expect("if");
            let t = parts.next().expect("then");
            let e = parts.next().expect("else");
            Node::If(Box::new(c), Box::new(t), Box::new(e))
        }
        Rule::reference => {
            let mut inner = p.into_inner();
            let name = inner
                .next()
                .expect("a reference has a name")
                .as_str()
                .to_string();
            match inner.next() {
                Some(args) => Node::Call {
                    name,
                    offset,
                    args: args.into_inner().map(|e| build_checked(e, at)).collect(),
                },
                None => Node::Var { name, offset },
            }
        }
        other => unreachable!("not a primary: {other:?}"),
    }
}

/// At most the first 40 characters of `text`, for messages that quote what was written.
pub(crate) fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// Parse a formula on its own.
pub fn parse(text: &str) -> Result<Node, FormulaError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let char_offset = |pos: usize| text[..pos.min(text.len())].chars().count();
    if let Some((pos, message)) = super::nesting::precheck(text) {
        return Err(FormulaError {
            offset: char_offset(pos),
            message,
        });
    }
    let mut pairs = RulesParser::parse(Rule::formula, text).map_err(|e| {
        let offset = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((p, _)) => p,
        };
        let message = match &e.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
                format!(
                    "expected {}",
                    super::grammar::join_or(
                        positives.iter().map(super::grammar::rule_name).collect()
                    )
                )
            }
            _ => "syntax error".to_string(),
        };
        FormulaError {
            offset: char_offset(offset),
            message,
        }
    })?;
    let expr = pairs.next().expect("formula holds an expr");
    let node = build(expr, text, 0).map_err(|e| FormulaError {
        offset: char_offset(e.pos),
        message: e.message,
    })?;
    check_calls(&node)?;
    Ok(node)
}

fn check_calls(node: &Node) -> Result<(), FormulaError> {
    let mut result = Ok(());
    visit(node, &mut |n| {
        if let Node::Call { name, offset, args } = n {
            match FunctionInfo::named(name) {
                None if result.is_ok() => {
                    result = Err(FormulaError {
                        offset: *offset,
                        message: format!(
                            "unknown function `{name}`{}",
                            crate::names::suggestion(name, FUNCTIONS.iter().map(|f| f.name))
                        ),
                    })
                }
                Some(f) if !f.takes(args.len()) && result.is_ok() => {
                    result = Err(FormulaError {
                        offset: *offset,
                        message: format!("`{name}` takes {}", f.arity_text()),
                    })
                }
                _ => {}
            }
        }
    });
    result
}

/// Call `f` on every node, parents first.
pub(crate) fn visit<'a>(node: &'a Node, f: &mut dyn FnMut(&'a Node)) {
    f(node);
    match node {
        Node::Neg(a) | Node::Not(a) => visit(a, f),
        Node::Bin(_, a, b) => {
            visit(a, f);
            visit(b, f);
        }
        Node::Call { args, .. } => args.iter().for_each(|a| visit(a, f)),
        Node::If(a, b, c) => {
            visit(a, f);
            visit(b, f);
            visit(c, f);
        }
        _ => {}
    }
}

/// The canonical text of a formula: single spaces around operators, only needed parentheses.
pub fn canonical(node: &Node) -> String {
    let mut out = String::new();
    write_node(node, &mut out);
    out
}

fn node_precedence(node: &Node) -> u8 {
    match node {
        Node::Bin(op, ..) => op.precedence(),
        Node::Neg(_) | Node::Not(_) => PREFIX_PRECEDENCE,
        Node::Num { text, .. } if text.starts_with('-') => PREFIX_PRECEDENCE,
        Node::If(..) => 0,
        _ => PRIMARY_PRECEDENCE,
    }
}

fn write_child(node: &Node, min: u8, out: &mut String) {
    if node_precedence(node) < min {
        out.push('(');
        write_node(node, out);
        out.push(')');
    } else {
        write_node(node, out);
    }
}

/// Whether a subtree is dice notation (dice and whole numbers joined by + - /), which
/// prints compactly ("3D6/3D3", "2D6+1") as dice are written.
fn is_dice_notation(node: &Node) -> bool {
    fn part(n: &Node) -> bool {
        match n {
            Node::Dice { .. } => true,
            Node::Num { text, .. } => text.chars().all(|c| c.is_ascii_digit()),
            Node::Bin(BinOp::Add | BinOp::Sub, a, b) => part(a) && part(b),
            _ => false,
        }
    }
    let mut has_dice = false;
    visit(node, &mut |n| has_dice |= matches!(n, Node::Dice { .. }));
    has_dice
        && match node {
            Node::Bin(BinOp::Div, a, b) => part(a) && part(b),
            other => part(other),
        }
}

fn write_compact(node: &Node, out: &mut String) {
    match node {
        Node::Bin(op, a, b) => {
            write_compact(a, out);
            out.push_str(op.symbol());
            write_compact(b, out);
        }
        other => write_node(other, out),
    }
}

fn write_node(node: &Node, out: &mut String) {
    if matches!(node, Node::Bin(..)) && is_dice_notation(node) {
        return write_compact(node, out);
    }
    match node {
        Node::Num { text, .. } => out.push_str(text),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Var { name, .. } => out.push_str(name),
        Node::Dice { text, .. } => out.push_str(text),
        Node::Neg(a) => {
            out.push('-');
            if node_precedence(a) == PREFIX_PRECEDENCE {
                // "- -x" rather than "-(-x)": stacked signs need no parentheses.
                out.push(' ');
                write_node(a, out);
            } else {
                write_child(a, PREFIX_PRECEDENCE + 1, out);
            }
        }
        Node::Not(a) => {
            out.push_str("not ");
            write_child(a, PREFIX_PRECEDENCE, out);
        }
        Node::Bin(op, a, b) => {
            let p = op.precedence();
            // Grouping left: the right child needs parentheses at equal strength; `^` the reverse.
            let right = op.assoc() == Assoc::Right;
            let (lmin, rmin) = if right { (p + 1, p) } else { (p, p + 1) };
            write_child(a, lmin, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            if right && node_precedence(b) == PREFIX_PRECEDENCE {
                // "2 ^ -x" reads back as written: a sign after `^` takes what follows.
                // Brackets here would make the text deeper than what was parsed.
                write_node(b, out);
            } else {
                write_child(b, rmin, out);
            }
        }
        Node::Call { name, args, .. } => {
            out.push_str(name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_node(a, out);
            }
            out.push(')');
        }
        Node::If(c, t, e) => {
            out.push_str("if ");
            write_node(c, out);
            out.push_str(" then ");
            write_node(t, out);
            out.push_str(" else ");
            write_node(e, out);
        }
    }
}

/// A formula as written in a ruleset: kept with its text so it prints back as written.
#[derive(Debug, Clone)]
pub struct Formula {
    text: String,
    node: Node,
    /// Compiled against its own variables (`names`), for `eval_with`.
    own: Compiled,
    names: Vec<String>,
}

impl PartialEq for Formula {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Formula {
    pub fn parse(text: &str) -> Result<Formula, FormulaError> {
        let node = parse(text)?;
        let mut names: Vec<String> = Vec::new();
        visit(&node, &mut |n| {
            if let Node::Var { name, .. } = n {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        });
        let own = Compiled::new(&node, &|name| names.iter().position(|n| n == name));
        Ok(Formula {
            text: text.to_string(),
            node,
            own,
            names,
        })
    }

    pub fn node(&self) -> &Node {
        &self.node
    }

    /// Every variable the formula reads, with its character offset, in order of appearance.
    pub fn variables(&self) -> Vec<(&str, usize)> {
        let mut vars = Vec::new();
        visit(&self.node, &mut |n| {
            if let Node::Var { name, offset } = n {
                vars.push((name.as_str(), *offset));
            }
        });
        vars
    }

    /// Check that the formula reads only `allowed` variables and rolls no dice.
    pub fn check(&self, allowed: &[&str]) -> Result<(), FormulaError> {
        let mut result = Ok(());
        visit(&self.node, &mut |n| {
            if result.is_err() {
                return;
            }
            match n {
                Node::Var { name, offset } if !allowed.contains(&name.as_str()) => {
                    result = Err(FormulaError {
                        offset: *offset,
                        message: format!(
                            "unknown variable `{name}`{}; this formula can use: {}",
                            crate::names::suggestion(name, allowed.iter().copied()),
                            allowed.join(", ")
                        ),
                    })
                }
                Node::Dice { text, offset } => {
                    result = Err(FormulaError {
                        offset: *offset,
                        message: format!("dice ({text}) cannot appear in this formula"),
                    })
                }
                _ => {}
            }
        });
        result
    }

    /// Bind variable names to slots: `values[i]` is the value of `names[i]` at evaluation.
    /// Call `check` first: an unknown name evaluates as NaN.
    pub fn compile(&self, names: &[&str]) -> Compiled {
        Compiled::new(&self.node, &|name| names.iter().position(|n| *n == name))
    }

    /// Check that the formula reads only the variables of `V` (see `formula_variables!`).
    pub(crate) fn check_for<V: Variables>(&self) -> Result<(), FormulaError> {
        self.check(V::NAMES)
    }

    /// Compile for the variables of `V`: `eval` takes the struct.
    pub fn compile_for<V: Variables>(&self) -> CompiledFor<V> {
        CompiledFor::new(self.compile(V::NAMES))
    }

    /// Evaluate with a lookup function, called only for the variables the evaluation reads
    /// (slower than `compile`, handy for one-off use). A name it does not know is NaN.
    pub fn eval_with(&self, lookup: &dyn Fn(&str) -> Option<f64>) -> f64 {
        self.own
            .eval_by(|i| lookup(&self.names[i]).unwrap_or(f64::NAN))
    }
}

impl Serialize for Formula {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Formula {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Formula, D::Error> {
        let text = crate::rules::dice::text_or_number(d)?;
        Formula::parse(&text)
            .map_err(|e| serde::de::Error::custom(format!("bad formula `{}`: {e}", shorten(&text))))
    }
}

/// A number, or a formula that computes it (a ship's generator output, say).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NumberOrFormula {
    Number(f64),
    Formula(Formula),
}

impl NumberOrFormula {
    /// Its value, with `lookup` giving the formula's variables.
    pub(crate) fn value(&self, lookup: &dyn Fn(&str) -> Option<f64>) -> f64 {
        match self {
            NumberOrFormula::Number(n) => *n,
            NumberOrFormula::Formula(f) => f.eval_with(lookup),
        }
    }
}

impl Serialize for NumberOrFormula {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            NumberOrFormula::Number(n) if n.fract() == 0.0 && n.abs() < 9e15 => {
                s.serialize_i64(*n as i64)
            }
            NumberOrFormula::Number(n) => s.serialize_f64(*n),
            NumberOrFormula::Formula(f) => f.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for NumberOrFormula {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NumberOrFormula, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(f64),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(NumberOrFormula::Number(n)),
            Raw::S(text) => Formula::parse(&text)
                .map(NumberOrFormula::Formula)
                .map_err(|e| {
                    serde::de::Error::custom(format!("bad formula `{}`: {e}", shorten(&text)))
                }),
        }
    }
}

/// A formula is written as text ("2 * shields + 1"); a number is a formula too.
impl schemars::JsonSchema for Formula {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Formula".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let functions: Vec<&str> = FUNCTIONS.iter().map(|f| f.name).collect();
        let description = format!(
            "A formula: numbers, the variables its place allows, arithmetic, comparisons and \
             the functions {}.",
            functions.join(", ")
        );
        schemars::json_schema!({
            "type": ["string", "number"],
            "description": description,
        })
    }
}

impl schemars::JsonSchema for NumberOrFormula {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NumberOrFormula".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["number", "string"],
            "description": "A number, or a formula (text) that computes it.",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str, vars: &[(&str, f64)]) -> f64 {
        let f = Formula::parse(text).unwrap();
        f.eval_with(&|name| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| *v))
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(eval("2 + 3 * 4", &[]), 14.0);
        assert_eq!(eval("(2 + 3) * 4", &[]), 20.0);
        assert_eq!(eval("10 - 4 - 3", &[]), 3.0);
        assert_eq!(eval("2 ^ 3 ^ 2", &[]), 512.0);
        assert_eq!(eval("-2 ^ 2", &[]), -4.0);
        assert_eq!(eval("24 / 4 / 2", &[]), 3.0);
        assert_eq!(eval("1 + 2 < 4 and not 0", &[]), 1.0);
        assert_eq!(eval("3 × 4 ÷ 2 − 1", &[]), 5.0);
    }

    #[test]
    fn functions_and_conditionals() {
        assert_eq!(eval("clamp(x, -5, 5)", &[("x", 7.0)]), 5.0);
        assert_eq!(eval("clamp(x, -5, 5)", &[("x", -9.0)]), -5.0);
        assert_eq!(eval("max(1, x, 3)", &[("x", 2.0)]), 3.0);
        assert_eq!(eval("min(4)", &[]), 4.0);
        assert_eq!(eval("round(2.5)", &[]), 3.0);
        assert_eq!(eval("round(-2.5)", &[]), -3.0);
        assert_eq!(eval("round(0.125, 2)", &[]), 0.13);
        assert_eq!(eval("floor(-1.5) + ceil(1.2)", &[]), 0.0);
        assert_eq!(eval("if x >= 10 then 1 else 2", &[("x", 10.0)]), 1.0);
        assert_eq!(eval("if x >= 10 then 1 else 2", &[("x", 9.0)]), 2.0);
    }

    #[test]
    fn the_cep_formula_reproduces_the_source() {
        // Teniente: Res 0.75 · 81/126, v = 75/241.5, G = 0.85, Vp = 241.5 → 31.
        let f = Formula::parse("result * violence * grade * game_value").unwrap();
        f.check(&["result", "violence", "grade", "game_value"])
            .unwrap();
        let c = f.compile(&["result", "violence", "grade", "game_value"]);
        let points = c.eval(&[0.75 * 81.0 / 126.0, 75.0 / 241.5, 0.85, 241.5]);
        assert_eq!(points.round(), 31.0);
    }

    #[test]
    fn unknown_variables_and_functions_are_found_at_their_offset() {
        let f = Formula::parse("a + bb * c").unwrap();
        let e = f.check(&["a", "c"]).unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("`bb`"));
        let e = Formula::parse("1 + sqr(2)").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.contains("unknown function `sqr`"));
        let e = Formula::parse("clamp(1, 2)").unwrap_err();
        assert!(e.message.contains("3 arguments"), "{}", e.message);
        let e = Formula::parse("1 + * 2").unwrap_err();
        assert_eq!(e.offset, 4);
        let e = Formula::parse("3D6 + x")
            .unwrap()
            .check(&["x"])
            .unwrap_err();
        assert!(e.message.contains("dice"));
    }

    #[test]
    fn long_rows_of_signs_and_powers_are_refused_where_they_pass_the_limit() {
        let e = Formula::parse(&format!("{}1", "-".repeat(20_000))).unwrap_err();
        assert_eq!(
            e,
            FormulaError {
                offset: 100,
                message: "more than 100 signs (`-`, `not`) in a row".into()
            }
        );
        let e = Formula::parse(&format!("{}x", "not ".repeat(20_000))).unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (400, "more than 100 signs (`-`, `not`) in a row")
        );
        let e = Formula::parse(&format!("{}2", "2^".repeat(20_000))).unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (201, "more than 100 powers (`^`) in a row")
        );
        // A bracket does not start a new row: the canonical text would drop it.
        let e = Formula::parse(&format!("{}1{}", "--(".repeat(60), ")".repeat(60))).unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (150, "more than 100 signs (`-`, `not`) in a row")
        );
        // An operator ends a row; 100 in a row is fine.
        assert!(Formula::parse(&vec![format!("{}1", "-".repeat(100)); 5].join(" + ")).is_ok());
        assert!(Formula::parse(&format!("{}2", "2^".repeat(100))).is_ok());
    }

    #[test]
    fn formulas_have_at_most_a_thousand_operators() {
        let e = Formula::parse(&format!("{}1", "1+".repeat(100_000))).unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (2001, "more than 1000 operators in one formula")
        );
        assert_eq!(eval(&format!("{}1", "1+".repeat(1000)), &[]), 1001.0);
        // Arguments are no operators: many are fine, and their places are counted in characters.
        let f = Formula::parse(&format!("max({}, ñ)", vec!["1"; 50_000].join(","))).unwrap();
        assert_eq!(f.variables(), vec![("ñ", 100_005)]);
    }

    #[test]
    fn the_deepest_formula_allowed_evaluates_prints_and_drops() {
        // Ten levels of `1 + ` and 99 signs before a bracket: 1000 operators, a tree 1000 deep.
        let deep = format!(
            "{}x{}",
            format!("1 + {}(", "-".repeat(99)).repeat(10),
            ")".repeat(10)
        );
        let f = Formula::parse(&deep).unwrap();
        f.check(&["x"]).unwrap();
        // 99 signs negate: each level is 1 - (the level inside), so the levels alternate 0, 1, ...
        assert_eq!(f.compile(&["x"]).eval(&[1.0]), 1.0);
        let text = canonical(f.node());
        assert_eq!(canonical(&parse(&text).unwrap()), text);
        let copy = f.node().clone();
        assert_eq!(&copy, f.node());
        drop(copy);
        let e = Formula::parse(&format!("1 + {deep}")).unwrap_err();
        assert_eq!(e.message, "more than 1000 operators in one formula");
    }

    #[test]
    fn numbers_too_large_for_a_float_are_refused_at_their_place() {
        let e = Formula::parse("2 * 1e309").unwrap_err();
        assert_eq!(
            e,
            FormulaError {
                offset: 4,
                message: "number too large: 1e309".into()
            }
        );
        let e = Formula::parse("-1e999").unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (1, "number too large: 1e999")
        );
        assert_eq!(eval("1e308", &[]), 1e308);
    }

    #[test]
    fn the_deepest_brackets_and_ifs_allowed_parse_and_evaluate() {
        // 100 levels: 50 of `(if` (one level each) and 50 brackets after `^ -`.
        let deep = format!(
            "{}x{}",
            "-(if x then 0.5 ^ -(".repeat(50),
            ") else 0)".repeat(50)
        );
        let f = Formula::parse(&deep).unwrap();
        let expected = (0..50).fold(1.0f64, |v, _| -(0.5f64.powf(-v)));
        assert_eq!(f.compile(&["x"]).eval(&[1.0]), expected);
        assert!(Formula::parse(&format!("({deep})"))
            .unwrap_err()
            .message
            .contains("nested more than 100"));
        let text = canonical(f.node());
        assert_eq!(canonical(&parse(&text).unwrap()), text);
    }

    #[test]
    fn nested_ifs_past_the_limit_are_refused() {
        let e = Formula::parse(&format!("{}1", "if 1 then 1 else ".repeat(20_000))).unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (1700, "nested more than 100 deep (`if`s and brackets)")
        );
    }

    #[test]
    fn a_byte_order_mark_is_ignored_and_long_texts_are_shortened_in_messages() {
        assert_eq!(eval("\u{feff}1 + 2", &[]), 3.0);
        assert_eq!(shorten("short"), "short");
        assert_eq!(shorten(&"é".repeat(100)), format!("{}…", "é".repeat(40)));
    }

    #[test]
    fn canonical_text_round_trips() {
        for (input, canon) in [
            ("2*x+y", "2 * x + y"),
            ("(2*x)+(y)", "2 * x + y"),
            ("(a+b)*c", "(a + b) * c"),
            ("a-(b-c)", "a - (b - c)"),
            ("(a-b)-c", "a - b - c"),
            ("(2^3)^2", "(2 ^ 3) ^ 2"),
            ("-(a+b)", "-(a + b)"),
            (
                "if a>1 then max(a,2) else -1",
                "if a > 1 then max(a, 2) else -1",
            ),
            ("3d6 / 3d3", "3D6/3D3"),
            ("2D6 + 1", "2D6+1"),
            ("not (a and b)", "not (a and b)"),
            ("--x", "- -x"),
            ("- - 5", "- -5"),
            ("-not x", "- not x"),
            ("-x^2", "-x ^ 2"),
            ("(-x)^2", "(-x) ^ 2"),
            ("2^(-x)", "2 ^ -x"),
            ("2^-x^2*3", "2 ^ -x ^ 2 * 3"),
            ("(2^-x)^2", "(2 ^ -x) ^ 2"),
            ("2^(not x)", "2 ^ not x"),
            ("2^(-3)", "2 ^ -3"),
        ] {
            let node = parse(input).unwrap();
            let text = canonical(&node);
            assert_eq!(text, canon, "canonical form of {input}");
            assert_eq!(
                canonical(&parse(&text).unwrap()),
                text,
                "canonical form is stable for {input}"
            );
        }
    }
}
