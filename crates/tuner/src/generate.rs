//! Positions for the tuner from self-play games: the engine at a fixed node count from random
//! openings, every position after the opening written with the game's result.

use crate::TuneError;
use chaturanga_engine::{Limits, Score};
use chaturanga_rules::zobrist::SplitMix64;
use std::io::Write;

/// How to play the games.
#[derive(Clone, Debug)]
pub struct GenerateSettings {
    /// Ruleset id (a two-player ruleset).
    pub variant: String,
    /// Its rule options, `name=value`.
    pub rule_options: Vec<String>,
    /// Games to play.
    pub games: u32,
    /// Nodes the engine searches per move.
    pub nodes: u64,
    /// Random plies from the start of each game (not written).
    pub random_plies: u32,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Seed of the random openings.
    pub seed: u64,
}

impl Default for GenerateSettings {
    fn default() -> Self {
        GenerateSettings {
            variant: "chess".to_string(),
            rule_options: Vec::new(),
            games: 100,
            nodes: 5_000,
            random_plies: 8,
            max_plies: 400,
            seed: 1,
        }
    }
}

/// What [`generate`] wrote.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenerateReport {
    /// Games played.
    pub games: u32,
    /// Positions written.
    pub positions: usize,
    /// The first player's wins, draws and losses.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

/// Both searches agree a side is this far ahead (centipawns): the game is scored as won.
const ADJUDICATE_CP: i32 = 1_500;
/// Plies in a row the score must stay beyond [`ADJUDICATE_CP`].
const ADJUDICATE_PLIES: u32 = 4;

/// Plays `settings.games` games and writes their positions to `out`: a header of `#` lines,
/// then per position `RESULT<TAB>FEN<TAB>MOVE` (the first player's score, 1, 0.5 or 0; the
/// position; the move played from it). `progress` hears of each game's end.
pub fn generate(
    settings: &GenerateSettings,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(u32, &GenerateReport),
) -> Result<GenerateReport, TuneError> {
    let mut session = chaturanga_session::open(&settings.variant, 16)?;
    session.set_rule_options(&settings.rule_options)?;
    session.reset(None)?;
    if session.players() != 2 {
        return Err(TuneError::Sample {
            line: 0,
            message: format!("{} is not a two-player ruleset", settings.variant),
        });
    }
    writeln!(
        out,
        "# chaturanga tune generate {} --games {} --nodes {} --random-plies {} --max-plies {} \
         --seed {}{}",
        settings.variant,
        settings.games,
        settings.nodes,
        settings.random_plies,
        settings.max_plies,
        settings.seed,
        settings
            .rule_options
            .iter()
            .map(|o| format!(" --option {o}"))
            .collect::<String>()
    )?;
    writeln!(out, "# result (first player's score)\tFEN\tmove played")?;
    let mut rng = SplitMix64::new(settings.seed);
    let mut report = GenerateReport::default();
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    for game in 0..settings.games {
        session.reset(None)?;
        session.new_game();
        for _ in 0..settings.random_plies {
            let legal = session.legal_moves();
            if legal.is_empty() || session.finished().is_some() {
                break;
            }
            let pick = &legal[rng.below(legal.len() as u64) as usize];
            session.play(pick)?;
        }
        let mut lines: Vec<(String, String)> = Vec::new();
        let mut adjudicated: Option<f64> = None;
        let mut winning_streak = (0usize, 0u32);
        while session.finished().is_none() && !session.claim_draw() {
            if lines.len() as u32 >= settings.max_plies {
                break;
            }
            let fen = session.fen();
            let mover = session.side_to_move();
            let decision = session.search(&limits, &mut |_| {});
            let Some(best) = decision.best else { break };
            // The score for the first player, for adjudication.
            let first_ahead = match decision.score {
                Score::Centipawns(cp) if cp.abs() >= ADJUDICATE_CP => {
                    Some((cp > 0) == (mover == 0))
                }
                Score::Win { plies } => Some((plies > 0) == (mover == 0)),
                _ => None,
            };
            match first_ahead {
                Some(first) => {
                    let side = usize::from(!first);
                    winning_streak = if winning_streak.0 == side {
                        (side, winning_streak.1 + 1)
                    } else {
                        (side, 1)
                    };
                }
                None => winning_streak = (2, 0),
            }
            let played = session.play(&best)?;
            lines.push((fen, played));
            if winning_streak.0 < 2 && winning_streak.1 >= ADJUDICATE_PLIES {
                adjudicated = Some(if winning_streak.0 == 0 { 1.0 } else { 0.0 });
                break;
            }
        }
        let result = adjudicated.unwrap_or_else(|| {
            session
                .finished()
                .and_then(|f| f.quarters.first().copied())
                .map_or(0.5, |q| f64::from(q) / 4.0)
        });
        match result {
            r if r > 0.75 => report.wins += 1,
            r if r < 0.25 => report.losses += 1,
            _ => report.draws += 1,
        }
        let text = if result == 0.5 {
            "0.5".to_string()
        } else {
            format!("{result}")
        };
        for (fen, mv) in &lines {
            writeln!(out, "{text}\t{fen}\t{mv}")?;
        }
        report.games += 1;
        report.positions += lines.len();
        progress(game + 1, &report);
    }
    out.flush()?;
    Ok(report)
}
