//! Nothing here: this package holds arbiter's benchmarks (see Cargo.toml).
