mod cli;

// Live bytes are counted so a script's memory limit can be enforced (see `arbiter::stop`).
#[global_allocator]
static ALLOCATOR: arbiter::stop::CountingAlloc = arbiter::stop::CountingAlloc;

fn main() {
    std::process::exit(cli::main());
}
