//! A battle that is not narrated allocates nothing: every table it reads is built before it
//! starts or on first use, and its state lives in fixed arrays.
use arbiter::combat::events::Silent;
use arbiter::combat::roller::battle_seed;
use arbiter::combat::{
    context::Context,
    roller::Pcg,
    tactics::ClassicTactic,
    turn::{Battle, Setup},
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the allocations of the current thread only (other test threads do not count).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(|n| n.get())
}

#[test]
fn silent_battles_allocate_nothing() {
    let rules = arbiter::rules::load::load("startrek").unwrap();
    let ctx = Context::new(&rules).unwrap();
    let tactic = ClassicTactic::default();
    for (a, b) in [
        ("UFP heavy cruiser", "Klingon battle cruiser"),
        ("Romulan bird of prey", "UFP destroyer"),
    ] {
        let classes = [ctx.class(&rules, a).unwrap(), ctx.class(&rules, b).unwrap()];
        let fight = |i: u64| {
            let mut battle = Battle::new(
                &ctx,
                [&classes[0], &classes[1]],
                [&tactic, &tactic],
                Setup::standard(&ctx),
                Pcg::new(battle_seed(5, i)),
                Silent,
            );
            battle.play()
        };
        // The first battle builds the tables used on first use (reach, hex relations).
        fight(0);
        let before = allocations();
        let turns: u32 = (1..=300).map(|i| fight(i).turns).sum();
        assert_eq!(allocations() - before, 0, "{a} vs {b}");
        assert!(turns > 300, "the battles were fought ({turns} turns)");
    }
}
