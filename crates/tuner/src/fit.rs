//! The fit: the tuned weights that best predict the games' results through the logistic
//! curve `1 / (1 + 10^(-K·score/400))` of the evaluation, by mean squared error.

use crate::TuneError;
use chaturanga_rules::{EvalFeatures, EvalWeights, RuleOptions, Ruleset};
use chaturanga_variants::{VariantInfo, Visitor, visit};
use std::io::BufRead;

/// Fewer usable positions than this are refused.
pub(crate) const MIN_SAMPLES: usize = 100;
/// The longest line of a positions file.
const MAX_LINE: usize = 4_096;
/// Every this many positions one is held out to check the fit on positions it did not see.
const HOLD_OUT_EVERY: usize = 10;
/// The evaluation and its linear model may disagree by this much (the tables round each
/// square's placement; the model does not) before the model is called wrong.
const MODEL_TOLERANCE_CP: f64 = 25.0;

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitSettings {
    /// Ruleset id whose positions the file holds.
    pub variant: String,
    /// Its rule options.
    pub rule_options: Vec<String>,
    /// Passes of gradient descent.
    pub iterations: u32,
    /// Pieces (symbols) whose values are not fitted.
    pub keep_values: Vec<String>,
}

/// What the fit found.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// Positions used for the fit, and held out.
    pub samples: usize,
    /// Positions held out to check the fit.
    pub held_out: usize,
    /// Positions skipped: in check, or the move played from them captured or promoted.
    pub skipped: usize,
    /// The curve's scale.
    pub k: f64,
    /// Mean squared error on the fitted positions, before and after.
    pub error_before: f64,
    /// After.
    pub error_after: f64,
    /// Mean squared error on the held-out positions, before and after.
    pub held_out_before: f64,
    /// After.
    pub held_out_after: f64,
    /// The weights before.
    pub before: EvalWeights,
    /// The fitted weights.
    pub after: EvalWeights,
}

/// One position's result and its score as a linear function of the tuned weights.
struct Sample {
    result: f64,
    /// The part no tuned weight changes, blended by the phase.
    fixed: f64,
    /// Per tuned weight, its blended coefficient.
    coefficients: Vec<f64>,
}

impl Sample {
    fn new(result: f64, features: &EvalFeatures) -> Sample {
        let full = f64::from(features.full_phase.max(1));
        let phase = f64::from(features.phase.clamp(0, features.full_phase.max(1)));
        let blend = |o: f64, e: f64| (o * phase + e * (full - phase)) / full;
        Sample {
            result,
            fixed: blend(
                f64::from(features.fixed.opening),
                f64::from(features.fixed.endgame),
            ),
            coefficients: features.terms.iter().map(|&(o, e)| blend(o, e)).collect(),
        }
    }

    fn score(&self, w: &[f64]) -> f64 {
        self.fixed
            + self
                .coefficients
                .iter()
                .zip(w)
                .map(|(c, w)| c * w)
                .sum::<f64>()
    }
}

fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

fn error(samples: &[Sample], k: f64, w: &[f64]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, s.score(w))).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The curve's scale that best fits the current weights (golden-section search).
fn best_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, a, w) < error(samples, b, w) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam over the mean squared error, from `start`; the weights marked in `kept` stay.
fn descend(samples: &[Sample], k: f64, start: &[f64], kept: &[bool], iterations: u32) -> Vec<f64> {
    let n = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (rate, beta1, beta2, epsilon) = (0.5, 0.9, 0.999, 1e-8);
    let slope = k * std::f64::consts::LN_10 / 400.0;
    for t in 1..=iterations {
        let mut gradient = vec![0.0; n];
        for s in samples {
            let p = sigmoid(k, s.score(&w));
            let factor = -2.0 * (s.result - p) * p * (1.0 - p) * slope;
            for (g, c) in gradient.iter_mut().zip(&s.coefficients) {
                *g += factor * c;
            }
        }
        for i in (0..n).filter(|&i| !kept.get(i).copied().unwrap_or(false)) {
            let g = gradient[i] / samples.len() as f64;
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(t as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(t as i32));
            w[i] -= rate * m_hat / (v_hat.sqrt() + epsilon);
        }
    }
    w
}

/// Reads `positions` (as [`crate::generate`] writes them) and fits the family's tuned weights
/// to their results.
pub fn fit(settings: &FitSettings, positions: &mut dyn BufRead) -> Result<FitReport, TuneError> {
    let read = visit(
        &settings.variant,
        Read {
            options: &settings.rule_options,
            positions,
        },
    )
    .map_err(TuneError::Variant)??;
    let Some(template) = read.template else {
        return Err(TuneError::TooFewSamples(0));
    };
    let before = template.weights.clone();
    let start = template.tuned_of(&before);
    let mut kept = vec![false; start.len()];
    for symbol in &settings.keep_values {
        let piece = template
            .pieces
            .iter()
            .position(|(s, _)| s == symbol)
            .ok_or_else(|| TuneError::UnknownPiece(symbol.clone()))?;
        kept[start.len() - template.pieces.len() + piece] = true;
    }
    // The model must be the evaluation the positions are searched with.
    let worst = read
        .evaluations
        .iter()
        .map(|(features, evaluation)| (features.score(&start) - evaluation).abs())
        .fold(0.0, f64::max);
    if worst > MODEL_TOLERANCE_CP {
        return Err(TuneError::ModelMismatch { difference: worst });
    }
    let (mut fitted, mut held) = (Vec::new(), Vec::new());
    for (i, sample) in read.samples.into_iter().enumerate() {
        if i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1 {
            held.push(sample);
        } else {
            fitted.push(sample);
        }
    }
    if fitted.len() < MIN_SAMPLES {
        return Err(TuneError::TooFewSamples(fitted.len()));
    }
    let k = best_k(&fitted, &start);
    let tuned = descend(&fitted, k, &start, &kept, settings.iterations);
    let after = template.weights_of(&tuned);
    // Rounded as the file keeps them.
    let rounded = template.tuned_of(&after);
    Ok(FitReport {
        samples: fitted.len(),
        held_out: held.len(),
        skipped: read.skipped,
        k,
        error_before: error(&fitted, k, &start),
        error_after: error(&fitted, k, &rounded),
        held_out_before: error(&held, k, &start),
        held_out_after: error(&held, k, &rounded),
        before,
        after,
    })
}

/// The positions read: their samples, how many were skipped, and a few evaluations beside
/// their features to check the model.
struct Positions {
    samples: Vec<Sample>,
    skipped: usize,
    evaluations: Vec<(EvalFeatures, f64)>,
    /// The first position's features: the weights the ruleset evaluates with and the pieces
    /// whose values are fitted.
    template: Option<EvalFeatures>,
}

struct Read<'a> {
    options: &'a [String],
    positions: &'a mut dyn BufRead,
}

impl Visitor for Read<'_> {
    type Output = Result<Positions, TuneError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        let options = RuleOptions::parse(P::option_specs(), self.options).map_err(|e| {
            TuneError::Session(chaturanga_session::SessionError::Setup(e.to_string()))
        })?;
        // Whether there is anything to fit, before reading a line.
        let start = P::start_position(&options).map_err(|e| {
            TuneError::Session(chaturanga_session::SessionError::Setup(e.to_string()))
        })?;
        let weights = start
            .eval_features()
            .ok_or(TuneError::NotTunable(info.id))?
            .weights;
        if weights.family.is_empty() {
            return Err(TuneError::NoFamily(info.id.to_string()));
        }
        let mut read = Positions {
            samples: Vec::new(),
            skipped: 0,
            evaluations: Vec::new(),
            template: None,
        };
        let mut line = String::new();
        let mut number = 0;
        loop {
            line.clear();
            let n = std::io::Read::take(&mut *self.positions, MAX_LINE as u64 + 1)
                .read_line(&mut line)?;
            if n == 0 {
                break;
            }
            number += 1;
            let bad = |message: String| TuneError::Sample {
                line: number,
                message,
            };
            if n > MAX_LINE {
                return Err(bad(format!("longer than {MAX_LINE} bytes")));
            }
            let text = line.trim_end();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let mut fields = text.split('\t');
            let (Some(result), Some(fen), Some(mv)) = (fields.next(), fields.next(), fields.next())
            else {
                return Err(bad("RESULT<TAB>FEN<TAB>MOVE expected".to_string()));
            };
            let result = match result {
                "1" => 1.0,
                "0.5" => 0.5,
                "0" => 0.0,
                other => {
                    return Err(bad(format!(
                        "result {:?} is not 1, 0.5 or 0",
                        other.chars().take(10).collect::<String>()
                    )));
                }
            };
            let position = P::from_fen_with(&options, fen).map_err(|e| bad(format!("FEN: {e}")))?;
            let played = chaturanga_session::read_move(&position, mv).map_err(|e| {
                bad(format!(
                    "move {:?}: {e}",
                    mv.chars().take(20).collect::<String>()
                ))
            })?;
            // Quiet positions only: the evaluation should not have to see a tactic coming.
            if position.is_check() || position.move_value(played).gain > 0 {
                read.skipped += 1;
                continue;
            }
            let features = position
                .eval_features()
                .ok_or(TuneError::NotTunable(info.id))?;
            if read.template.is_none() {
                read.template = Some(features.clone());
            }
            if read.evaluations.len() < 1_000 {
                read.evaluations
                    .push((features.clone(), f64::from(position.evaluate(0))));
            }
            read.samples.push(Sample::new(result, &features));
        }
        Ok(read)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions whose results follow a known weight: the fit finds it back.
    #[test]
    fn the_descent_finds_the_weight_behind_the_results() {
        // Results drawn from sigmoid(k, 50·c) for coefficients c in [-4, 4]: the true weight is
        // 50; the fit starts from 10.
        let k = 1.0;
        let samples: Vec<Sample> = (0..2_000)
            .map(|i| {
                let c = f64::from(i % 81 - 40) / 10.0;
                Sample {
                    result: sigmoid(k, 50.0 * c),
                    fixed: 0.0,
                    coefficients: vec![c],
                }
            })
            .collect();
        let w = descend(&samples, k, &[10.0], &[], 3_000);
        assert!((w[0] - 50.0).abs() < 1.0, "{w:?}");
        // A kept weight does not move.
        assert_eq!(descend(&samples, k, &[10.0], &[true], 100), [10.0]);
        assert!(error(&samples, k, &w) < error(&samples, k, &[10.0]));
        let found = best_k(&samples, &[50.0]);
        assert!((found - 1.0).abs() < 0.01, "{found}");
    }
}
