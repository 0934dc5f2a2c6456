//! The pest parser for the rules language and its formulas, and friendly names for its rules.
use crate::error::{Error, Span};
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/formula.pest"]
#[grammar = "../grammar/rules.pest"]
pub(crate) struct RulesParser;

/// What a person calls each grammar rule, for "expected ..." messages.
pub(crate) fn rule_name(rule: &Rule) -> String {
    match rule {
        Rule::EOI => "end of input",
        Rule::ident => "a name",
        Rule::keyword => "a keyword",
        Rule::number => "a number",
        Rule::dice => "dice (like 3D6)",
        Rule::boolean => "true or false",
        Rule::add | Rule::sub | Rule::mul | Rule::div | Rule::pow => "an operator (+ - * / ^)",
        Rule::le | Rule::ge | Rule::lt | Rule::gt | Rule::eq | Rule::ne => "a comparison",
        Rule::and | Rule::or => "`and` or `or`",
        Rule::neg | Rule::not => "`-` or `not`",
        Rule::reference => "a name",
        Rule::call_args => "arguments ( ... )",
        Rule::conditional => "if ... then ... else ...",
        Rule::if_kw => "`if`",
        Rule::then_kw => "`then`",
        Rule::else_kw => "`else`",
        Rule::paren => "a parenthesised formula",
        Rule::expr => "a formula",
        Rule::dice_sign => "`+` or `-`",
        Rule::dice_sum => "dice (like 3D6+1)",
        Rule::string | Rule::string_body => "a quoted string",
        Rule::key => "a key",
        Rule::null_value => "null",
        Rule::list => "a list [ ... ]",
        Rule::block => "a block { ... }",
        Rule::value => "a value",
        Rule::assignment => "`key = value`",
        Rule::section => "a section `name { ... }`",
        Rule::extends_decl | Rule::extends_kw | Rule::extends_name => "`extends NAME`",
        Rule::extends_pin | Rule::sha256_kw | Rule::version_kw => {
            "`sha256 \"HEX\"` or `version \"REQ\"`"
        }
        Rule::new_kw => "`new`",
        Rule::ruleset_file => "a ruleset",
        _ => "something else",
    }
    .to_string()
}

/// Turn a pest error into one of ours, at the right line and column of `source`.
pub(crate) fn pest_error(
    e: pest::error::Error<Rule>,
    source: &std::sync::Arc<crate::error::Source>,
    line_offset: usize,
    col_offset: usize,
) -> Error {
    let (line, col) = match e.line_col {
        pest::error::LineColLocation::Pos((l, c)) => (l, c),
        pest::error::LineColLocation::Span((l, c), _) => (l, c),
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let mut m = String::new();
            if !positives.is_empty() {
                m.push_str("expected ");
                m.push_str(&join_or(positives.iter().map(rule_name).collect()));
            }
            if !negatives.is_empty() {
                if !m.is_empty() {
                    m.push_str("; ");
                }
                m.push_str("unexpected ");
                m.push_str(&join_or(negatives.iter().map(rule_name).collect()));
            }
            if m.is_empty() {
                "syntax error".to_string()
            } else {
                m
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let (line, col) = if line == 1 {
        (line_offset + line, col_offset + col)
    } else {
        (line_offset + line, col)
    };
    Span::new(source, line, col).at(message)
}

pub(crate) fn join_or(mut items: Vec<String>) -> String {
    items.dedup();
    let mut unique: Vec<String> = Vec::new();
    for i in items {
        if !unique.contains(&i) {
            unique.push(i);
        }
    }
    match unique.len() {
        0 => String::new(),
        1 => unique.remove(0),
        _ => {
            let last = unique.pop().unwrap();
            format!("{} or {}", unique.join(", "), last)
        }
    }
}
