//! The weights of the shared evaluation ([`crate::eval`] and the standard positions'
//! evaluation) as data: one text file per ruleset family, which `chaturanga tune` rewrites
//! from self-play games.
//!
//! A weights file holds one weight per line, `name value…` (an array's values separated by
//! spaces), with `#` starting a comment. A weight a file leaves out keeps its default, the
//! hand-set value the evaluation was written with ([`EvalWeights::default`]).

use crate::position::excerpt;
use std::fmt;

/// The weights of the shared evaluation. Units follow the code that reads them: centipawns,
/// or fractions of them where the name says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// The family whose file the weights come from (`crates/variants/weights/NAME.txt`);
    /// empty for the defaults of a ruleset that has none. Not written in the file.
    pub family: String,
    /// Centipawns per cell of average mobility, for pieces without a given value.
    pub value_per_mobility: i32,
    /// Opening bonus per cell of a square's mobility above the piece's average, in 1/16 cp.
    pub centrality_opening: i32,
    /// Endgame bonus per cell of a square's mobility above the piece's average, in 1/16 cp.
    pub centrality_endgame: i32,
    /// Opening penalty per cell of mobility a royal piece's square has above its least, in
    /// 1/16 cp: kings shelter in the opening.
    pub royal_exposure_opening: i32,
    /// Endgame bonus per cell of a royal piece's square mobility above its least, in 1/16 cp.
    pub royal_centrality_endgame: i32,
    /// Share of the promotion gain, in 1/1024, credited by the distance to the promotion zone
    /// (index 1: one move away) in the opening; the endgame credits twice as much.
    pub advance_share: [i32; 6],
    /// Value of a piece in hand relative to the board, in 1/16.
    pub hand_factor: i32,
    /// Centipawns per cell a piece reaches above its average, in the opening.
    pub mobility_opening: i32,
    /// Centipawns per cell a piece reaches above its average, in the endgame.
    pub mobility_endgame: i32,
    /// Opening bonus per own piece next to the royal piece.
    pub shelter: i32,
    /// Danger units per enemy piece on the board that reaches the royal piece's neighbourhood.
    pub board_attacker_units: i32,
    /// Danger units per enemy piece in hand other than pawns (a drop joins an attack at once).
    pub hand_attacker_units: i32,
    /// Opening penalty by the danger units against the royal piece.
    pub royal_danger: [i32; 16],
    /// Bonus for having the move (keeps odd and even search depths comparable).
    pub tempo: i32,
    /// Endgame bonus for a passed pawn by its distance in moves to the promotion zone
    /// (index 1: one move away); the opening credits 3/8 of it.
    pub passed: [i32; 7],
    /// Bonus per enemy piece (not royal) attacked by a piece worth less, in the opening.
    pub threat_opening: i32,
    /// The same in the endgame.
    pub threat_endgame: i32,
    /// Bonus for pieces of a kind confined to regions of the board standing in two regions
    /// or more (bishops on both colours), in the opening.
    pub pair_opening: i32,
    /// The same in the endgame.
    pub pair_endgame: i32,
    /// Piece values in centipawns by piece symbol, in place of the ruleset's own (`value
    /// SYMBOL N` lines; the tuner fits them). Royal pieces keep theirs.
    pub values: Vec<(String, i32)>,
}

impl Default for EvalWeights {
    fn default() -> Self {
        EvalWeights {
            family: String::new(),
            value_per_mobility: 80,
            centrality_opening: 48,
            centrality_endgame: 40,
            royal_exposure_opening: 80,
            royal_centrality_endgame: 64,
            advance_share: [0, 100, 50, 25, 12, 6],
            hand_factor: 18,
            mobility_opening: 3,
            mobility_endgame: 4,
            shelter: 8,
            board_attacker_units: 2,
            hand_attacker_units: 1,
            royal_danger: [
                0, 0, 0, 10, 20, 40, 60, 90, 120, 160, 200, 240, 280, 320, 360, 400,
            ],
            tempo: 10,
            // Terms fitted per family; without a fit they are left out.
            passed: [0; 7],
            threat_opening: 0,
            threat_endgame: 0,
            pair_opening: 0,
            pair_endgame: 0,
            values: Vec::new(),
        }
    }
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError {
    /// The line, from 1 (0: the whole text).
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weights line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for WeightsError {}

/// The weights the tuner fits, in the order of its features: each is a weight of the file but
/// for `royal_danger`, which the tuner scales as a whole (in percent: 100 leaves it) and
/// `advance_share`, of which it fits the entries for distances 1 to 5 (five features from
/// the one named here).
pub const TUNED: [&str; 25] = [
    "centrality_opening",
    "centrality_endgame",
    "royal_exposure_opening",
    "royal_centrality_endgame",
    "advance_share",
    "advance_share[2]",
    "advance_share[3]",
    "advance_share[4]",
    "advance_share[5]",
    "hand_factor",
    "mobility_opening",
    "mobility_endgame",
    "shelter",
    "royal_danger",
    "tempo",
    "passed",
    "passed[2]",
    "passed[3]",
    "passed[4]",
    "passed[5]",
    "passed[6]",
    "threat_opening",
    "threat_endgame",
    "pair_opening",
    "pair_endgame",
];

/// The longest weights text read: the file has a few dozen short lines.
const MAX_TEXT: usize = 64 * 1024;
/// The largest magnitude of one weight.
const MAX_WEIGHT: i32 = 100_000;

impl EvalWeights {
    /// Every weight's name with its values, in the file's order.
    fn entries(&self) -> Vec<(&'static str, Vec<i32>)> {
        vec![
            ("value_per_mobility", vec![self.value_per_mobility]),
            ("centrality_opening", vec![self.centrality_opening]),
            ("centrality_endgame", vec![self.centrality_endgame]),
            ("royal_exposure_opening", vec![self.royal_exposure_opening]),
            (
                "royal_centrality_endgame",
                vec![self.royal_centrality_endgame],
            ),
            ("advance_share", self.advance_share.to_vec()),
            ("hand_factor", vec![self.hand_factor]),
            ("mobility_opening", vec![self.mobility_opening]),
            ("mobility_endgame", vec![self.mobility_endgame]),
            ("shelter", vec![self.shelter]),
            ("board_attacker_units", vec![self.board_attacker_units]),
            ("hand_attacker_units", vec![self.hand_attacker_units]),
            ("royal_danger", self.royal_danger.to_vec()),
            ("tempo", vec![self.tempo]),
            ("passed", self.passed.to_vec()),
            ("threat_opening", vec![self.threat_opening]),
            ("threat_endgame", vec![self.threat_endgame]),
            ("pair_opening", vec![self.pair_opening]),
            ("pair_endgame", vec![self.pair_endgame]),
        ]
    }

    /// Sets weight `name` to `values`; `Err` names what is wrong.
    fn set(&mut self, name: &str, values: &[i32]) -> Result<(), String> {
        fn one(values: &[i32]) -> Result<i32, String> {
            match values {
                [v] => Ok(*v),
                _ => Err(format!("one value expected, {} given", values.len())),
            }
        }
        fn array<const N: usize>(values: &[i32]) -> Result<[i32; N], String> {
            values
                .try_into()
                .map_err(|_| format!("{N} values expected, {} given", values.len()))
        }
        match name {
            "value_per_mobility" => self.value_per_mobility = one(values)?,
            "centrality_opening" => self.centrality_opening = one(values)?,
            "centrality_endgame" => self.centrality_endgame = one(values)?,
            "royal_exposure_opening" => self.royal_exposure_opening = one(values)?,
            "royal_centrality_endgame" => self.royal_centrality_endgame = one(values)?,
            "advance_share" => self.advance_share = array(values)?,
            "hand_factor" => self.hand_factor = one(values)?,
            "mobility_opening" => self.mobility_opening = one(values)?,
            "mobility_endgame" => self.mobility_endgame = one(values)?,
            "shelter" => self.shelter = one(values)?,
            "board_attacker_units" => self.board_attacker_units = one(values)?,
            "hand_attacker_units" => self.hand_attacker_units = one(values)?,
            "royal_danger" => self.royal_danger = array(values)?,
            "tempo" => self.tempo = one(values)?,
            "passed" => self.passed = array(values)?,
            "threat_opening" => self.threat_opening = one(values)?,
            "threat_endgame" => self.threat_endgame = one(values)?,
            "pair_opening" => self.pair_opening = one(values)?,
            "pair_endgame" => self.pair_endgame = one(values)?,
            other => {
                return Err(format!("unknown weight {:?}", excerpt(other)));
            }
        }
        Ok(())
    }

    /// The weight a name of [`TUNED`] stands for (an array's entry by `[index]`, entry 1
    /// without one); `None` for `royal_danger`, which is tuned as a scale of its table.
    fn tuned_weight(&mut self, name: &str) -> Option<&mut i32> {
        let (base, index) = match name.split_once('[') {
            Some((base, rest)) => (base, rest.trim_end_matches(']').parse().unwrap_or(1)),
            None => (name, 1),
        };
        Some(match base {
            "centrality_opening" => &mut self.centrality_opening,
            "centrality_endgame" => &mut self.centrality_endgame,
            "royal_exposure_opening" => &mut self.royal_exposure_opening,
            "royal_centrality_endgame" => &mut self.royal_centrality_endgame,
            "advance_share" => &mut self.advance_share[index],
            "hand_factor" => &mut self.hand_factor,
            "mobility_opening" => &mut self.mobility_opening,
            "mobility_endgame" => &mut self.mobility_endgame,
            "shelter" => &mut self.shelter,
            "tempo" => &mut self.tempo,
            "passed" => &mut self.passed[index],
            "threat_opening" => &mut self.threat_opening,
            "threat_endgame" => &mut self.threat_endgame,
            "pair_opening" => &mut self.pair_opening,
            "pair_endgame" => &mut self.pair_endgame,
            "royal_danger" => return None,
            other => unreachable!("{other} is not in TUNED"),
        })
    }

    /// The tuned weights' values, in [`TUNED`]'s order (`royal_danger` as 100 %).
    pub fn tuned(&self) -> Vec<f64> {
        let mut w = self.clone();
        TUNED
            .iter()
            .map(|name| f64::from(w.tuned_weight(name).map_or(100, |v| *v)))
            .collect()
    }

    /// These weights with the tuned ones set to `tuned` (in [`TUNED`]'s order, rounded;
    /// `royal_danger` scales the danger table by that many percent).
    pub fn with_tuned(&self, tuned: &[f64]) -> EvalWeights {
        let mut w = self.clone();
        for (name, value) in TUNED.iter().zip(tuned) {
            match w.tuned_weight(name) {
                Some(weight) => *weight = value.round() as i32,
                None => {
                    for v in &mut w.royal_danger {
                        *v = (f64::from(*v) * value / 100.0).round() as i32;
                    }
                }
            }
        }
        w
    }

    /// Reads a weights file: the defaults with the weights it names.
    pub fn parse(text: &str) -> Result<EvalWeights, WeightsError> {
        if text.len() > MAX_TEXT {
            return Err(WeightsError {
                line: 0,
                message: format!("longer than {MAX_TEXT} bytes"),
            });
        }
        let mut weights = EvalWeights::default();
        let mut seen: Vec<String> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let error = |message: String| WeightsError {
                line: i + 1,
                message,
            };
            let line = raw.split('#').next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            let Some(name) = words.next() else {
                continue;
            };
            let number = |w: &str, low: i32| {
                w.parse::<i32>()
                    .ok()
                    .filter(|v| (low..=MAX_WEIGHT).contains(v))
                    .ok_or_else(|| {
                        error(format!(
                            "{:?} is not a whole number from {low} to {MAX_WEIGHT}",
                            w.chars().take(20).collect::<String>()
                        ))
                    })
            };
            let name = if name == "value" {
                // `value SYMBOL N`: a piece's value.
                let (Some(symbol), Some(value), None) = (words.next(), words.next(), words.next())
                else {
                    return Err(error("value SYMBOL N expected".to_string()));
                };
                weights.values.push((symbol.to_string(), number(value, 0)?));
                format!("value {symbol}")
            } else {
                let values = words
                    .map(|w| number(w, -MAX_WEIGHT))
                    .collect::<Result<Vec<i32>, _>>()?;
                weights.set(name, &values).map_err(error)?;
                name.to_string()
            };
            if seen.contains(&name) {
                return Err(error(format!("{} given twice", excerpt(&name))));
            }
            seen.push(name);
        }
        Ok(weights)
    }

    /// The weights as a file (every weight, `header` lines as comments first).
    pub fn to_text(&self, header: &[String]) -> String {
        let mut text = String::new();
        for line in header {
            text.push_str(&format!("# {line}\n"));
        }
        for (name, values) in self.entries() {
            let values: Vec<String> = values.iter().map(i32::to_string).collect();
            text.push_str(&format!("{name} {}\n", values.join(" ")));
        }
        for (symbol, value) in &self.values {
            text.push_str(&format!("value {symbol} {value}\n"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_and_default_what_is_left_out() {
        let mut w = EvalWeights {
            tempo: 17,
            values: vec![("P".to_string(), 95), ("+R".to_string(), 1410)],
            ..EvalWeights::default()
        };
        w.royal_danger[15] = 450;
        let text = w.to_text(&["tuned".to_string()]);
        assert!(text.starts_with("# tuned\n"));
        assert_eq!(EvalWeights::parse(&text), Ok(w));
        assert_eq!(
            EvalWeights::parse("tempo 12 # more\n\n").map(|w| w.tempo),
            Ok(12)
        );
        assert_eq!(
            EvalWeights::parse("tempo 12").map(|w| w.shelter),
            Ok(EvalWeights::default().shelter)
        );
    }

    #[test]
    fn tuned_weights_map_both_ways() {
        let w = EvalWeights::default();
        let tuned = w.tuned();
        assert_eq!(tuned.len(), TUNED.len());
        assert_eq!(w.with_tuned(&tuned), w);
        let mut doubled = tuned.clone();
        doubled[13] = 200.0;
        doubled[4] = 150.0;
        let changed = w.with_tuned(&doubled);
        assert_eq!(changed.royal_danger[15], 800);
        assert_eq!(changed.advance_share[1], 150);
        assert_eq!(changed.advance_share[0], 0);
        let mut shifted = tuned.clone();
        let third = TUNED.iter().position(|n| *n == "passed[3]").unwrap();
        shifted[third] = 77.0;
        assert_eq!(w.with_tuned(&shifted).passed[3], 77);
        assert_eq!(w.with_tuned(&shifted).passed[2], w.passed[2]);
    }

    #[test]
    fn bad_weights_files_name_the_line() {
        for (text, line) in [
            ("tempo 1\nspeed 3", 2),
            ("tempo", 1),
            ("tempo 1 2", 1),
            ("advance_share 1 2", 1),
            ("tempo x", 1),
            ("tempo 99999999", 1),
            ("tempo 1\ntempo 2", 2),
            ("value P", 1),
            ("value P 1 2", 1),
            ("value P -5", 1),
            ("value P x", 1),
            ("value P 90\nvalue P 95", 2),
        ] {
            let e = EvalWeights::parse(text).expect_err(text);
            assert_eq!(e.line, line, "{text}: {e}");
        }
        assert_eq!(
            EvalWeights::parse(&"#".repeat(MAX_TEXT + 1))
                .unwrap_err()
                .line,
            0
        );
    }
}
