//! The games a CSV history has begun so far, by their key, to catch a game whose rows are
//! split by other games'. A million games must cost little: each game's key hash (8 bytes)
//! in file order, and an open-addressing table of game numbers (4 bytes a slot, at most half
//! full), about 16 MB; a general hash map of (hash, game) took 35 MB, 52 while it grew.
//! No key is copied: on a hash match the caller compares the key with the game's first row.
use super::prepared::NameState;
use std::hash::{BuildHasher, Hasher};

#[derive(Default)]
pub(super) struct SeenGames {
    state: NameState,
    /// Each game's key hash, by game number.
    hashes: Vec<u64>,
    /// Game number plus one, or 0 for an empty slot; a power of two long.
    slots: Vec<u32>,
}

/// The table's first size.
const FIRST_SLOTS: usize = 1024;

impl SeenGames {
    /// Note game number `game` (the next one: games are noted in order) with `key`;
    /// `Err(first)` if game `first` had the same key (`same(first)` says whether it did).
    pub(super) fn insert(
        &mut self,
        key: &str,
        game: usize,
        same: impl Fn(usize) -> bool,
    ) -> std::result::Result<(), usize> {
        debug_assert_eq!(game, self.hashes.len(), "games are noted in order");
        let mut h = self.state.build_hasher();
        h.write(key.as_bytes());
        let hash = h.finish();
        // A game number past 4 bytes cannot happen (a history file is at most 4 GiB, a game
        // at least two rows of 6 bytes); were it to, the check is skipped, not the history.
        let Ok(stored) = u32::try_from(game + 1) else {
            return Ok(());
        };
        if (self.hashes.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            match self.slots[i] {
                0 => break,
                s => {
                    let g = s as usize - 1;
                    if self.hashes[g] == hash && same(g) {
                        return Err(g);
                    }
                }
            }
            i = (i + 1) & mask;
        }
        self.slots[i] = stored;
        self.hashes.push(hash);
        Ok(())
    }

    /// Twice the slots, every game placed again by its hash.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(FIRST_SLOTS);
        let mut slots = vec![0u32; size];
        let mask = size - 1;
        for (g, &hash) in self.hashes.iter().enumerate() {
            let mut i = hash as usize & mask;
            while slots[i] != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = g as u32 + 1;
        }
        self.slots = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_met_again_names_the_game_that_began_with_it() {
        let keys: Vec<String> = (0..5000).map(|g| format!("g{g}")).collect();
        let mut seen = SeenGames::default();
        for (g, key) in keys.iter().enumerate() {
            assert_eq!(seen.insert(key, g, |f| keys[f] == *key), Ok(()));
        }
        // Past several growths every game is still found, and only by its own key.
        assert_eq!(
            seen.insert("g4321", 5000, |f| keys[f] == "g4321"),
            Err(4321)
        );
        assert_eq!(seen.insert("g0", 5000, |f| keys[f] == "g0"), Err(0));
        assert_eq!(seen.insert("new", 5000, |f| keys[f] == "new"), Ok(()));
    }

    #[test]
    fn a_hash_match_with_another_key_is_not_a_repeat() {
        // The caller's comparison decides: a table that wrongly claims every hash matches
        // still reports only keys the caller confirms.
        let mut seen = SeenGames::default();
        assert_eq!(seen.insert("a", 0, |_| false), Ok(()));
        assert_eq!(seen.insert("a", 1, |_| false), Ok(()));
        assert_eq!(seen.insert("a", 2, |f| f == 1), Err(1));
    }
}
