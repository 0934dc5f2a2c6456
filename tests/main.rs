//! The integration tests, one crate (one build, one link, one binary) with a module per
//! feature. They drive the real binary through `common` (the fluent `Test` builder and its
//! short forms) or call the library directly, and assert real values: the sources' worked
//! examples, hand-computed cases, reference data and invariants.
//!
//! `cargo test` runs them all; `cargo test --test integration league_` one feature's.
mod calendar;
mod common;

mod bad_inputs;
mod battle_allocations;
mod combat_duel;
mod combat_lab;
mod combat_properties;
mod combat_rulings;
mod combat_sim;
mod combat_tactics;
mod combat_volley;
mod conventions;
mod dice;
mod engine_words;
mod export_properties;
mod fuzz_regressions;
mod help;
mod help_topics;
mod hostile;
mod html_pages;
mod league_balanced;
mod league_berger;
mod league_properties;
mod league_rotation;
mod league_rules;
mod league_season;
mod league_tiebreak;
mod lsp;
mod policy_races;
mod rate_backtest;
mod rate_history;
mod rate_ladders;
mod rate_rulings;
mod rate_systems;
mod readme;
mod repl;
mod reproducible;
mod rules_comments_properties;
mod rules_errors;
mod rules_extends;
mod rules_fmt;
mod rules_grammar;
mod rules_named_in_files;
mod rules_names;
mod rules_properties;
mod rules_recover;
mod rules_resolve;
mod rules_roundtrip;
mod rules_schema;
mod rules_travel;
mod score_cep;
mod score_errors;
mod score_properties;
mod score_rules;
mod score_tables;
mod script_api;
mod script_api_combat;
mod script_api_league;
mod script_api_scoring;
mod script_api_swiss;
mod script_examples;
mod script_hooks;
mod script_policy_properties;
mod script_sandbox;
mod swiss_accelerated;
mod swiss_fide_exercise;
mod swiss_late_entry;
mod swiss_pair;
mod swiss_real;
mod swiss_tiebreaks;
mod swiss_tournament;
