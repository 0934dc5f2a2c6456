//! The `arbiter` binary: the command line lives in the library (`arbiter::cli`), so that the
//! compiler sees every use of every item and can flag the dead ones.

// Live bytes are counted so a script's memory limit can be enforced (see `arbiter::stop`).
#[global_allocator]
static ALLOCATOR: arbiter::stop::CountingAlloc = arbiter::stop::CountingAlloc;

fn main() {
    std::process::exit(arbiter::cli::main());
}
