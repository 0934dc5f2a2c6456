//! Colour allocation (C.04.3 E): who gets white in a pair once the pair is made.
use super::seat::Seat;
use super::weights::preferences_compatible;
use crate::swiss::model::Colour;

/// `a` ranks below `b`: lower score, or the same score and a larger pairing number.
pub(super) fn ranks_below(a: &Seat, b: &Seat) -> bool {
    (a.score, b.rank) < (b.score, a.rank)
}

/// The colours of the two players in the latest round where they had different colours
/// (each player's played games counted back from the last).
fn latest_difference(a: &Seat, b: &Seat) -> Option<(Colour, Colour)> {
    a.colours
        .iter()
        .rev()
        .zip(b.colours.iter().rev())
        .find(|(x, y)| x != y)
        .map(|(x, y)| (*x, *y))
}

/// E.1-E.4: the colour for `p` facing `o` from their preferences and histories alone.
fn by_preferences(p: &Seat, o: &Seat) -> Option<Colour> {
    if preferences_compatible(p.preference, o.preference) {
        return p.preference.or(o.preference.map(Colour::other));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return o.preference.map(Colour::other);
    }
    if p.strong && !o.strong {
        return p.preference;
    }
    if o.strong && !p.strong {
        return o.preference.map(Colour::other);
    }
    latest_difference(p, o).map(|(_, theirs)| theirs)
}

/// The colour `p` plays against `o`. `initial`: the colour of pairing number 1 in round 1.
pub(crate) fn colour_for(p: &Seat, o: &Seat, initial: Colour) -> Colour {
    if let Some(c) = by_preferences(p, o) {
        return c;
    }
    // E.5: the higher-ranked player's preference, else the pairing number's parity.
    let p_lower = ranks_below(p, o);
    match p.preference {
        None if p_lower => {
            if o.rank % 2 == 1 {
                initial
            } else {
                initial.other()
            }
        }
        None => {
            if p.rank % 2 == 1 {
                initial.other()
            } else {
                initial
            }
        }
        Some(mine) if p_lower => o.preference.map_or(mine, Colour::other),
        Some(mine) => mine,
    }
}
