//! A schedule as a calendar: one all-day event per match, round k on `start + (k-1) × every`,
//! optionally only one team's matches. A match's UID is the league's tag, its round and its
//! two teams, so a calendar exported again (another start date, a team's feed) updates the
//! same events.
use super::schedule::Schedule;
use super::teams::{Team, Teams};
use crate::calendar::{tag, Calendar, Date, Event, Every};
use crate::error::{Error, Result};

/// Most events one calendar holds; a bigger league exports one team's feed at a time.
pub(crate) const MAX_EVENTS: usize = 100_000;

pub(crate) struct CalendarOptions<'a> {
    /// The league's name (the calendar's title, part of every UID).
    pub name: &'a str,
    pub start: Date,
    pub every: Every,
    /// Only this team's matches (as typed: a number, or a name ignoring case and accents).
    pub team: Option<&'a str>,
}

pub(crate) fn calendar(
    schedule: &Schedule,
    teams: &Teams,
    o: &CalendarOptions,
) -> Result<Calendar> {
    let all = teams.all();
    let number = |t: &Team| all.iter().position(|u| u == t).map_or(0, |i| i + 1);
    let only = match o.team {
        None => None,
        Some(typed) => Some(all.iter().find(|t| t.answers_to(typed)).ok_or_else(|| {
            Error::options(
                &["team"],
                format!("`team`: no team `{typed}` in this league"),
            )
        })?),
    };
    let names: Vec<String> = all.iter().map(|t| t.to_string()).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let league = tag(o.name, &refs);
    let wanted = |home: &Team, away: &Team| only.is_none_or(|t| t == home || t == away);
    let count: usize = schedule
        .rounds
        .iter()
        .map(|r| {
            r.matches
                .iter()
                .filter(|m| wanted(&m.home, &m.away))
                .count()
        })
        .sum();
    if count > MAX_EVENTS {
        return Err(Error::options(
            &["team"],
            format!(
                "{count} matches is more than one calendar holds ({MAX_EVENTS}); \
                 export one team's feed with `team`"
            ),
        ));
    }
    let mut events = Vec::with_capacity(count);
    for r in &schedule.rounds {
        let date = o.every.round(o.start, r.round as usize)?;
        for m in r.matches.iter().filter(|m| wanted(&m.home, &m.away)) {
            let (h, a) = (number(&m.home), number(&m.away));
            let mut description = format!("{}, round {}", o.name, r.round);
            if schedule.legs > 1 {
                description.push_str(&format!(" (leg {})", r.leg));
            }
            description.push_str(&format!(": {} at home to {}", m.home, m.away));
            events.push(Event {
                uid: format!("{league}-r{}-{h}v{a}@arbiter", r.round),
                date,
                summary: format!("{} – {}", m.home, m.away),
                description: Some(description),
                sequence: 0,
            });
        }
    }
    let name = match only {
        Some(t) => format!("{} – {t}", o.name),
        None => o.name.to_string(),
    };
    Ok(Calendar {
        name,
        stamp: o.start,
        events,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::schedule::{schedule, ScheduleOptions};

    fn four() -> (Schedule, Teams) {
        let teams = Teams::Names(
            ["Orcs", "Elves", "Dwarfs", "Skaven"]
                .map(String::from)
                .to_vec(),
        );
        let options = ScheduleOptions::from_rules(None).unwrap();
        (schedule(&options, &teams).unwrap(), teams)
    }

    fn options<'a>(team: Option<&'a str>) -> CalendarOptions<'a> {
        CalendarOptions {
            name: "Badlands Cup",
            start: Date::parse("2026-09-07").unwrap(),
            every: Every::parse("1w").unwrap(),
            team,
        }
    }

    #[test]
    fn one_event_a_match_a_week_apart_and_a_team_feed_shares_its_uids() {
        let (s, teams) = four();
        let all = calendar(&s, &teams, &options(None)).unwrap();
        // Rotation for 4: Elves-Dwarfs, Orcs-Skaven / Dwarfs-Orcs, Elves-Skaven /
        // Orcs-Elves, Dwarfs-Skaven.
        let got: Vec<(String, String)> = all
            .events
            .iter()
            .map(|e| (e.date.to_string(), e.summary.clone()))
            .collect();
        let want = [
            ("2026-09-07", "Elves – Dwarfs"),
            ("2026-09-07", "Orcs – Skaven"),
            ("2026-09-14", "Dwarfs – Orcs"),
            ("2026-09-14", "Elves – Skaven"),
            ("2026-09-21", "Orcs – Elves"),
            ("2026-09-21", "Dwarfs – Skaven"),
        ];
        assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
        let tag = tag("Badlands Cup", &["Orcs", "Elves", "Dwarfs", "Skaven"]);
        assert_eq!(all.events[0].uid, format!("{tag}-r1-2v3@arbiter"));
        let mut uids: Vec<&str> = all.events.iter().map(|e| e.uid.as_str()).collect();
        uids.sort_unstable();
        uids.dedup();
        assert_eq!(uids.len(), 6);

        let orcs = calendar(&s, &teams, &options(Some("orcs"))).unwrap();
        assert_eq!(orcs.events.len(), 3);
        assert_eq!(orcs.name, "Badlands Cup – Orcs");
        for e in &orcs.events {
            assert!(all.events.contains(e), "{e:?}");
        }
        assert!(calendar(&s, &teams, &options(Some("Goblins"))).is_err());
    }
}
