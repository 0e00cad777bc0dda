//! What a record says of a game beyond its moves and rules: the event, the site, when it
//! started, who played and on what clock.
//!
//! The rules know none of this: they have no accounts, no clock and no I/O. A front end that
//! knows it (the game server: the request's host, the stored creation time, the seats and the
//! time control) passes an [`Occasion`], and each format writes it under its own headers:
//! [`crate::pgn::Tags::for_record`], [`crate::kif::header`], [`crate::csa::header`]. Everything
//! here is a pure function of what it is given.

use chaturanga_rules::clock::TimeControl;
use std::time::Duration;

/// What a front end knows of a game besides its rules (see the module documentation); the
/// default knows nothing, and the formats then write their "unknown" values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Occasion {
    /// The event (`Casual Xiangqi game`): PGN's `Event`, KIF's `棋戦`, CSA's `$EVENT`.
    pub event: Option<String>,
    /// Where it was played, best the game's address (`https://example.org/games/ID`): PGN's
    /// `Site`, KIF's `場所`, CSA's `$SITE`.
    pub site: Option<String>,
    /// When it started: PGN's `Date` (with `UTCDate` and `UTCTime`), KIF's `開始日時`, CSA's
    /// `$START_TIME`.
    pub started: Option<UtcTime>,
    /// The players' names by seat, in the ruleset's player order (none where unknown); each
    /// format puts a seat's name under its own tag for the seat.
    pub players: Vec<String>,
    /// The clock: PGN's `TimeControl`, KIF's `持ち時間`, CSA's `$TIME_LIMIT`.
    pub clock: TimeLimit,
    /// More tags, as name and value, written last and replacing what they name (a match
    /// runner's `Round`, the `Termination` it judged).
    pub tags: Vec<(String, String)>,
}

/// What a record knows of a game's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeLimit {
    /// Nothing: the record says nothing of a clock.
    #[default]
    Unknown,
    /// The game had no clock (PGN's `TimeControl "-"`).
    Unlimited,
    /// The game was played under this time control.
    Limited(TimeControl),
}

/// A moment in UTC, to the second, in the proleptic Gregorian calendar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UtcTime {
    /// The year, 0 to 9999 (what the formats' four digits can write).
    pub year: u16,
    /// The month, 1 to 12.
    pub month: u8,
    /// The day of the month, 1 to 31.
    pub day: u8,
    /// The hour, 0 to 23.
    pub hour: u8,
    /// The minute, 0 to 59.
    pub minute: u8,
    /// The second, 0 to 59.
    pub second: u8,
}

/// Days from 0000-03-01 to 1970-01-01: counting from a March lets the leap day fall last in
/// the year, so that a year's days before a month do not depend on whether it is a leap year.
const EPOCH_FROM_MARCH_0000: i64 = 719_468;
/// Days in 400 Gregorian years, the period of the calendar.
const DAYS_PER_ERA: i64 = 146_097;

impl UtcTime {
    /// The moment `millis` milliseconds after the Unix epoch (negative: before it), to the
    /// second below; `None` outside the years 0 to 9999.
    pub fn from_unix_millis(millis: i64) -> Option<UtcTime> {
        let seconds = millis.div_euclid(1000);
        let (days, second_of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
        let from_march = days.checked_add(EPOCH_FROM_MARCH_0000)?;
        let era = from_march.div_euclid(DAYS_PER_ERA);
        let day_of_era = from_march.rem_euclid(DAYS_PER_ERA);
        // Years of 365 days, less the leap days: one each 4 years, none each 100, one each 400.
        let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524
            - day_of_era / (DAYS_PER_ERA - 1))
            / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        // Months from March have 31, 30, 31, 30, 31 days, twice, then 31 and January: the
        // lengths of five months add to 153 days.
        let month_from_march = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
        let month = if month_from_march < 10 {
            month_from_march + 3
        } else {
            month_from_march - 9
        };
        let year = era * 400 + year_of_era + i64::from(month <= 2);
        Some(UtcTime {
            year: u16::try_from(year).ok().filter(|&y| y <= 9999)?,
            month: month as u8,
            day: day as u8,
            hour: (second_of_day / 3600) as u8,
            minute: (second_of_day / 60 % 60) as u8,
            second: (second_of_day % 60) as u8,
        })
    }

    /// The date as PGN writes it: `2026.12.07`.
    pub fn pgn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// The time of day: `17:03:00`.
    pub fn time_of_day(&self) -> String {
        format!("{:02}:{:02}:{:02}", self.hour, self.minute, self.second)
    }

    /// Date and time as KIF's `開始日時` and CSA's `$START_TIME` write them:
    /// `2026/12/07 17:03:00`.
    pub fn slashed(&self) -> String {
        format!(
            "{:04}/{:02}/{:02} {}",
            self.year,
            self.month,
            self.day,
            self.time_of_day()
        )
    }
}

/// A number of seconds as the formats write it: whole, or with up to three decimals (`0.1`).
pub(crate) fn seconds_text(d: Duration) -> String {
    let millis = d.as_millis();
    if millis.is_multiple_of(1000) {
        return (millis / 1000).to_string();
    }
    let text = format!("{}.{:03}", millis / 1000, millis % 1000);
    text.trim_end_matches('0').to_string()
}

/// Whether a control's times are whole seconds (what the shogi formats' items can hold).
pub(crate) fn whole_seconds(control: &TimeControl) -> bool {
    let whole = |d: Duration| d.subsec_nanos() == 0;
    whole(control.base)
        && whole(control.increment)
        && control.byo_yomi.is_none_or(|b| whole(b.period))
}

/// The occasion the shogi record tests write: a casual game against the engine on
/// 2026-12-07 at 17:03 UTC, 10 minutes then one 30-second period.
#[cfg(test)]
pub(crate) fn shogi_sample() -> Occasion {
    use std::time::Duration;
    Occasion {
        event: Some("Casual Shogi game".into()),
        site: Some("https://example.org/games/abc".into()),
        started: UtcTime::from_unix_millis(1_796_662_980_000),
        players: vec!["Anonymous".into(), "Chaturanga level 3".into()],
        clock: TimeLimit::Limited(TimeControl::byo_yomi(
            Duration::from_secs(600),
            Duration::from_secs(30),
            1,
        )),
        tags: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_millis_to_calendar() {
        let at = |ms: i64| UtcTime::from_unix_millis(ms).map(|t| t.slashed());
        assert_eq!(at(0).as_deref(), Some("1970/01/01 00:00:00"));
        assert_eq!(at(999).as_deref(), Some("1970/01/01 00:00:00"));
        assert_eq!(at(-1).as_deref(), Some("1969/12/31 23:59:59"));
        // Leap days: 2000 is a leap year (divisible by 400), 2100 is not (by 100).
        assert_eq!(at(951_782_400_000).as_deref(), Some("2000/02/29 00:00:00"));
        assert_eq!(
            at(4_107_542_400_000).as_deref(),
            Some("2100/03/01 00:00:00")
        );
        assert_eq!(
            at(1_709_164_800_000).as_deref(),
            Some("2024/02/29 00:00:00")
        );
        assert_eq!(
            at(1_796_662_980_000).as_deref(),
            Some("2026/12/07 17:03:00")
        );
        assert_eq!(
            at(253_402_300_799_999).as_deref(),
            Some("9999/12/31 23:59:59")
        );
        assert_eq!(at(253_402_300_800_000), None);
        assert_eq!(
            at(-62_167_219_200_000).as_deref(),
            Some("0000/01/01 00:00:00")
        );
        assert_eq!(at(-62_167_219_200_001), None);
        assert_eq!(at(i64::MIN), None);
        assert_eq!(at(i64::MAX), None);
        let t = UtcTime::from_unix_millis(1_796_662_980_000).unwrap();
        assert_eq!(t.pgn_date(), "2026.12.07");
        assert_eq!(t.time_of_day(), "17:03:00");
        // Every day of four centuries follows the one before.
        let day = 86_400_000i64;
        let mut previous = UtcTime::from_unix_millis(-day).unwrap();
        for n in 0..(400 * 366) {
            let t = UtcTime::from_unix_millis(n * day).unwrap();
            let next_day = t.day == previous.day + 1 && t.month == previous.month;
            let next_month = t.day == 1
                && (t.month == previous.month + 1 || (t.month == 1 && previous.month == 12));
            assert!(next_day || next_month, "{previous:?} then {t:?}");
            assert!(t > previous);
            previous = t;
        }
    }

    #[test]
    fn seconds() {
        assert_eq!(seconds_text(Duration::from_secs(300)), "300");
        assert_eq!(seconds_text(Duration::from_millis(100)), "0.1");
        assert_eq!(seconds_text(Duration::from_millis(2_050)), "2.05");
        assert_eq!(seconds_text(Duration::ZERO), "0");
    }
}
