//! Calendar dates (proleptic Gregorian, years 1 to 9999) and the step between rounds.
use crate::error::{Error, Result};

/// A day: year, month (1-12), day of the month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

/// Most days between two rounds (ten years): anything longer is a typing slip.
pub(super) const MAX_STEP_DAYS: u32 = 3660;

fn leap(y: i32) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if leap(y) => 29,
        _ => 28,
    }
}

impl Date {
    /// `YYYY-MM-DD`, a real day of a year from 1 to 9999.
    pub(crate) fn parse(text: &str) -> Result<Date> {
        let bad = || {
            Error::msg(format!(
                "`{text}` is not a date: write YYYY-MM-DD (for example 2026-09-07)"
            ))
        };
        let t = text.trim();
        let parts: Vec<&str> = t.split('-').collect();
        let digits = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit());
        if parts.len() != 3 || !digits(parts[0], 4) || !digits(parts[1], 2) || !digits(parts[2], 2)
        {
            return Err(bad());
        }
        let year: i32 = parts[0].parse().map_err(|_| bad())?;
        let month: u32 = parts[1].parse().map_err(|_| bad())?;
        let day: u32 = parts[2].parse().map_err(|_| bad())?;
        if year < 1 || !(1..=12).contains(&month) {
            return Err(bad());
        }
        if day < 1 || day > days_in_month(year, month) {
            return Err(Error::msg(format!(
                "`{text}`: {year}-{month:02} has no day {day}"
            )));
        }
        Ok(Date { year, month, day })
    }

    /// Days since 1970-01-01 (negative before), after Howard Hinnant's `days_from_civil`, so
    /// the days between two dates are a subtraction.
    pub(crate) fn days(self) -> i64 {
        let y = self.year as i64 - (self.month <= 2) as i64;
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = self.month as i64;
        let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + self.day as i64 - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// The day `z` days after 1970-01-01 (the inverse of `days`).
    pub(crate) fn from_days(z: i64) -> Date {
        let z = z + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = (yoe + era * 400 + (month <= 2) as i64) as i32;
        Date { year, month, day }
    }

    /// The day `n` days later, or an error past year 9999.
    pub(crate) fn plus_days(self, n: u64) -> Result<Date> {
        let d = i64::try_from(n)
            .ok()
            .and_then(|n| self.days().checked_add(n))
            .map(Date::from_days)
            .filter(|d| d.year <= 9999);
        d.ok_or_else(|| Error::msg("the calendar runs past the year 9999".to_string()))
    }

    /// `YYYYMMDD`, the iCalendar DATE form.
    pub(crate) fn compact(self) -> String {
        format!("{:04}{:02}{:02}", self.year, self.month, self.day)
    }
}

impl std::fmt::Display for Date {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The time between two rounds, in whole days: `7d`, `2w`, `1d`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Every {
    pub days: u32,
}

impl Every {
    pub(crate) fn parse(text: &str) -> Result<Every> {
        let t = text.trim();
        let bad = || {
            Error::msg(format!(
                "`{text}` is not a step between rounds: write days or weeks, as 7d or 2w"
            ))
        };
        let (number, unit) = t.split_at(t.len().saturating_sub(1));
        let per = match unit {
            "d" | "D" => 1,
            "w" | "W" => 7,
            _ => return Err(bad()),
        };
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n: u64 = number.parse().unwrap_or(u64::MAX);
        let days = n.saturating_mul(per);
        if days == 0 {
            return Err(Error::msg(format!(
                "`{text}`: rounds must be at least a day apart"
            )));
        }
        if days > MAX_STEP_DAYS as u64 {
            return Err(Error::msg(format!(
                "`{text}`: at most {MAX_STEP_DAYS} days between rounds"
            )));
        }
        Ok(Every { days: days as u32 })
    }

    /// The date of round `round` (from 1) when round 1 is on `start`.
    pub(crate) fn round(self, start: Date, round: usize) -> Result<Date> {
        let steps = (round.max(1) - 1) as u64;
        start.plus_days(steps.saturating_mul(self.days as u64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(t: &str) -> Date {
        Date::parse(t).unwrap()
    }

    #[test]
    fn days_add_across_months_leap_years_and_centuries() {
        assert_eq!(d("2026-09-07").plus_days(7).unwrap(), d("2026-09-14"));
        assert_eq!(d("2026-12-28").plus_days(7).unwrap(), d("2027-01-04"));
        assert_eq!(d("2028-02-26").plus_days(3).unwrap(), d("2028-02-29"));
        assert_eq!(d("2100-02-28").plus_days(1).unwrap(), d("2100-03-01"));
        assert_eq!(d("2000-02-28").plus_days(1).unwrap(), d("2000-02-29"));
        assert_eq!(d("1970-01-01").days(), 0);
        assert_eq!(d("2026-09-07").days(), 20_703);
        assert_eq!(d("0001-01-01").plus_days(365).unwrap(), d("0002-01-01"));
        assert!(d("9999-12-25").plus_days(7).is_err());
        assert!(d("2026-01-01").plus_days(u64::MAX).is_err());
    }

    #[test]
    fn bad_dates_are_refused() {
        for t in [
            "2026-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-04-31",
            "0000-01-01",
            "26-09-07",
            "2026/09/07",
            "2026-9-7",
            "",
            "tomorrow",
            "+2026-09-07",
        ] {
            assert!(Date::parse(t).is_err(), "{t}");
        }
        assert_eq!(d("2024-02-29").to_string(), "2024-02-29");
    }

    #[test]
    fn steps_are_days_or_weeks_and_never_zero() {
        assert_eq!(Every::parse("7d").unwrap().days, 7);
        assert_eq!(Every::parse("2w").unwrap().days, 14);
        for t in [
            "0d",
            "0w",
            "d",
            "7",
            "7h",
            "-7d",
            "1.5w",
            "99999999999999999999999d",
            "3661d",
        ] {
            assert!(Every::parse(t).is_err(), "{t}");
        }
        let e = Every::parse("1w").unwrap();
        assert_eq!(e.round(d("2026-09-07"), 3).unwrap(), d("2026-09-21"));
    }
}
