//! Dates of games as day numbers, so idle days are a subtraction. The parsing and the calendar
//! are `crate::calendar::Date`'s (one date for the whole crate: years 1 to 9999).
use crate::calendar::Date;

/// Days since 1970-01-01 of a `YYYY-MM-DD` date; None if it is not a real date.
pub(crate) fn day_number(text: &str) -> Option<i64> {
    Date::parse(text).ok().map(Date::days)
}

/// The `YYYY-MM-DD` text of a day number.
pub(crate) fn date_text(day: i64) -> String {
    Date::from_days(day).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_days() {
        assert_eq!(day_number("1970-01-01"), Some(0));
        assert_eq!(day_number("2000-03-01"), Some(11_017));
        assert_eq!(
            day_number("2024-03-17").unwrap() - day_number("2024-02-28").unwrap(),
            18
        );
        assert_eq!(date_text(day_number("2024-02-29").unwrap()), "2024-02-29");
    }

    #[test]
    fn games_and_calendars_refuse_the_same_dates() {
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "24-01-01",
            "2024-1-01",
            "soon",
            "2024-01-00",
            "0000-02-29",
        ] {
            assert_eq!(day_number(bad), None, "{bad}");
            assert!(Date::parse(bad).is_err(), "{bad}");
        }
    }
}
