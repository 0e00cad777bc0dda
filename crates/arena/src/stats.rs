//! Match statistics: score, Elo difference with a 95 % interval, and the sequential
//! probability ratio test.

/// Wins, draws and losses of the first player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

/// 97.5th percentile of the normal distribution (two-sided 95 %).
const Z_95: f64 = 1.959_964;

/// Elo difference for an expected score (logistic model).
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `value` with `decimals` decimals, never `-0.0`: a value that rounds to zero is zero.
pub fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
        _ => text,
    }
}

/// `value` with its sign (`+12.3`, `-4.0`) and `decimals` decimals; a value that rounds to
/// zero is `+0.0`, never `-0.0`. Infinities are `+inf` and `-inf`.
pub fn signed(value: f64, decimals: usize) -> String {
    let text = fixed(value, decimals);
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (0 to 1).
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// Elo difference and its 95 % interval, low and high (`None` before two games; a bound
    /// is infinite where the score's interval reaches 0 or 1).
    pub fn elo_interval(&self) -> Option<(f64, f64, f64)> {
        let n = self.games();
        if n < 2 {
            return None;
        }
        let s = self.score();
        let error = Z_95 * (self.variance() / f64::from(n)).sqrt();
        let bound = |p: f64| {
            if p <= 0.0 {
                f64::NEG_INFINITY
            } else if p >= 1.0 {
                f64::INFINITY
            } else {
                elo_of_score(p)
            }
        };
        Some((elo_of_score(s), bound(s - error), bound(s + error)))
    }

    /// Elo difference and the half-width of its 95 % interval (`None` before two games).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let n = self.games();
        if n < 2 {
            return None;
        }
        let s = self.score();
        let error = Z_95 * (self.variance() / f64::from(n)).sqrt();
        let low = elo_of_score(s - error);
        let high = elo_of_score(s + error);
        Some((elo_of_score(s), (high - low) / 2.0))
    }

    /// Log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`), by the normal
    /// approximation of the game score (the usual "GSPRT" of engine testing).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = f64::from(self.games());
        let variance = self.variance();
        if n == 0.0 || variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        let s = self.score();
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)
    }
}

/// Games an SPRT plays before it may decide. The log-likelihood ratio estimates the
/// variance of a game's score from the games played; over a handful of one-sided games that
/// estimate is near zero and the ratio explodes (7-1-0 gives 3.56 for [0, 20], "accepted").
pub const MIN_SPRT_GAMES: u32 = 30;

/// The SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// Why an SPRT setting (`elo0,elo1[,alpha,beta]`) was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// A value is not a number.
    Number(std::num::ParseFloatError),
    /// Not two or four values.
    Count,
    /// The Elo bounds are not finite with `elo0 < elo1` (less than 1000 apart).
    Bounds,
    /// A rate is not between 0 and 0.5.
    Rate,
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SprtError::Number(e) => write!(f, "bad number: {e}"),
            SprtError::Count => write!(f, "--sprt needs elo0,elo1[,alpha,beta]"),
            SprtError::Bounds => write!(f, "--sprt needs elo0 < elo1"),
            SprtError::Rate => write!(f, "alpha and beta must be between 0 and 0.5"),
        }
    }
}

impl std::error::Error for SprtError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SprtError::Number(e) => Some(e),
            _ => None,
        }
    }
}

impl std::str::FromStr for Sprt {
    type Err = SprtError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Sprt::parse(text)
    }
}

/// What the SPRT concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted.
    H1,
    /// H0 accepted.
    H0,
    /// Keep playing.
    Continue,
}

impl Sprt {
    /// Reads `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let values: Vec<f64> = text
            .split(',')
            .map(|v| v.trim().parse::<f64>().map_err(SprtError::Number))
            .collect::<Result<_, _>>()?;
        let (elo0, elo1, alpha, beta) = match values[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => return Err(SprtError::Count),
        };
        let rate = |r: f64| r > 0.0 && r < 0.5;
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && elo1 - elo0 < 1000.0) {
            return Err(SprtError::Bounds);
        }
        if !rate(alpha) || !rate(beta) {
            return Err(SprtError::Rate);
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: below the first H0, above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for a tally: none before [`MIN_SPRT_GAMES`] games.
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        if tally.games() < MIN_SPRT_GAMES {
            return Verdict::Continue;
        }
        let llr = tally.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_never_show_a_negative_zero() {
        assert_eq!(signed(-0.0, 1), "+0.0");
        assert_eq!(signed(-0.04, 1), "+0.0");
        assert_eq!(signed(-0.4, 0), "+0");
        assert_eq!(signed(-0.06, 1), "-0.1");
        assert_eq!(signed(12.34, 1), "+12.3");
        assert_eq!(signed(f64::NEG_INFINITY, 0), "-inf");
        assert_eq!(fixed(-0.001, 2), "0.00");
        assert_eq!(fixed(-1.5, 2), "-1.50");
        // An even match: its Elo difference is exactly -0.0 in floating point.
        let even = Tally {
            wins: 3,
            draws: 4,
            losses: 3,
        };
        let (elo, _) = even.elo().unwrap();
        assert_eq!(signed(elo, 1), "+0.0");
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_of_score(0.5).abs() < 1e-9);
        // 75 % is about +190.8 Elo; 10:1 odds are +400.
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
        assert!((elo_of_score(10.0 / 11.0) - 400.0).abs() < 1e-6);
        assert!((score_of_elo(elo_of_score(0.3)) - 0.3).abs() < 1e-12);
    }

    #[test]
    fn interval_narrows_with_games() {
        let small = Tally {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let large = Tally {
            wins: 600,
            draws: 200,
            losses: 200,
        };
        let (e_small, w_small) = small.elo().unwrap();
        let (e_large, w_large) = large.elo().unwrap();
        assert!((e_small - e_large).abs() < 1e-9);
        assert!(w_large < w_small / 5.0, "{w_large} vs {w_small}");
        assert_eq!(Tally::default().elo(), None);
        // 38.5 of 40: the interval's top reaches a score of 1, an infinite Elo.
        let lopsided = Tally {
            wins: 37,
            draws: 3,
            losses: 0,
        };
        let (elo, low, high) = lopsided.elo_interval().unwrap();
        assert!(
            low > 300.0 && low < elo && high.is_infinite(),
            "{low} {elo} {high}"
        );
    }

    #[test]
    fn sprt_accepts_the_right_hypothesis() {
        let sprt = Sprt::parse("0,10").unwrap();
        let strong = Tally {
            wins: 300,
            draws: 100,
            losses: 100,
        };
        assert_eq!(sprt.verdict(&strong), Verdict::H1);
        let weak = Tally {
            wins: 100,
            draws: 100,
            losses: 300,
        };
        assert_eq!(sprt.verdict(&weak), Verdict::H0);
        let early = Tally {
            wins: 2,
            draws: 1,
            losses: 1,
        };
        assert_eq!(sprt.verdict(&early), Verdict::Continue);
        // Lopsided but short: the variance estimate is not yet to be trusted.
        let short = Tally {
            wins: 7,
            draws: 1,
            losses: 0,
        };
        assert!(short.llr(0.0, 20.0) > sprt.bounds().1);
        assert_eq!(sprt.verdict(&short), Verdict::Continue);
        let longer = Tally {
            wins: 25,
            draws: 5,
            losses: 0,
        };
        assert_eq!(sprt.verdict(&longer), Verdict::H1);
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0,10,0.7,0.05").is_err());
        assert!(Sprt::parse("a,b").is_err());
    }
}
