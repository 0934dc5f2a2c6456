//! Calendars (iCalendar, RFC 5545) for what clubs schedule: a league's matches, a Swiss
//! tournament's rounds. Dates are whole days (all-day events); an event's UID comes from what
//! it is (the competition and the match or round), so importing a feed again updates its
//! events instead of adding copies. Pure: the CLI writes the text through `crate::io`.
mod date;
mod ics;

pub(crate) use date::{Date, Every};
pub(crate) use ics::{Calendar, Event};

/// A short stable tag for a competition: its name in lowercase letters and digits, and a hash
/// of what identifies it (so two leagues of the same name do not share UIDs).
pub(crate) fn tag(name: &str, identity: &[&str]) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= 40 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    // FNV-1a, 64 bits: stable across versions and machines (std's hasher is not promised to be).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in std::iter::once(name).chain(identity.iter().copied()) {
        for b in part.bytes().chain([0xff]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    if slug.is_empty() {
        format!("{:016x}", h)
    } else {
        format!("{slug}-{:016x}", h)
    }
}

#[cfg(test)]
mod tests {
    use super::tag;

    #[test]
    fn tags_are_stable_and_tell_competitions_apart() {
        let a = tag("Old World Cup 2026", &["Orcs", "Elves"]);
        assert!(a.starts_with("old-world-cup-2026-"), "{a}");
        assert_eq!(a, tag("Old World Cup 2026", &["Orcs", "Elves"]));
        assert_ne!(a, tag("Old World Cup 2026", &["Orcs", "Dwarfs"]));
        // The parts are separated, so moving text between them changes the tag.
        assert_ne!(tag("x", &["ab", "c"]), tag("x", &["a", "bc"]));
        assert_eq!(tag("¡¿", &[]).len(), 16);
    }
}
