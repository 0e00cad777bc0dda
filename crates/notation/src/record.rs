//! What the shogi game records (KIF and CSA) share: the game as read, the errors, replaying,
//! and the SFEN position as a 9x9 grid that the formats' diagrams are converted from and to.
//!
//! The formats are generic over [`Position`]: a ruleset takes part by offering the `kif` or
//! `csa` move notation ([`Position::notations`]) and shogi's SFEN as its FEN.

pub use crate::pgn::Tags;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::{
    Game, MoveError, Outcome, Position, Reason, RuleOptions, Ruleset, SetupError, Status,
};
use std::fmt;

/// Largest record text accepted.
pub const MAX_RECORD_LEN: usize = 8 << 20;

/// Most moves (plies) one game may have.
pub const MAX_MOVES: usize = crate::pgn::MAX_MOVES;

/// The standard start position as SFEN (the formats' `平手` and `PI`).
pub const STANDARD_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A game as read from a record, before its moves are checked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RecordGame {
    /// Header items: `Black`, `White`, `Event`, `Site`, `Date` for the formats' own names of
    /// these; other items under the format's key.
    pub tags: Tags,
    /// The start position as SFEN; `None` for the standard start position.
    pub start: Option<String>,
    /// The moves in the format's move notation (`kif`: `７六歩(77)`, with `同` resolved;
    /// `csa`: `+7776FU`).
    pub moves: Vec<String>,
    /// How the record says the game ended: KIF's last numbered line (`投了`, `詰み`, ...) or
    /// CSA's `%` line (`%TORYO`, ...).
    pub end: Option<String>,
    /// KIF's closing line (`まで64手で先手の勝ち`).
    pub result: Option<String>,
}

/// Why a game record could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is longer than [`MAX_RECORD_LEN`].
    TooLarge {
        /// `KIF` or `CSA`.
        format: &'static str,
        /// Its length in bytes.
        len: usize,
    },
    /// The ruleset or position cannot be written in (or read from) this format.
    Unsupported(String),
    /// Malformed text.
    Syntax {
        /// `KIF` or `CSA`.
        format: &'static str,
        /// Line number, 1-based.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The start position is not valid in the ruleset.
    Setup(SetupError),
    /// A move that is not legal (or not readable) at its ply.
    Move {
        /// Ply, 1-based.
        ply: usize,
        /// The move text.
        text: String,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::TooLarge { format, len } => {
                write!(f, "{format} record of {len} bytes is too large")
            }
            RecordError::Unsupported(m) => write!(f, "{m}"),
            RecordError::Syntax {
                format,
                line,
                message,
            } => write!(f, "{format} line {line}: {message}"),
            RecordError::Setup(e) => write!(f, "record start position: {e}"),
            RecordError::Move { ply, text, error } => {
                write!(f, "record ply {ply} ({text:?}): {error}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// A shogi position as a grid: what SFEN, KIF's board diagram and CSA's `P` lines say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    /// `cells[row][column]`: row 0 is rank `a` (rank 1, White's side), column 0 is file 9.
    /// A piece is (player, kind) with kinds in SFEN order `K R B G S N L P +R +B +S +N +L
    /// +P` (0 to 13).
    pub cells: [[Option<(u8, usize)>; 9]; 9],
    /// Pieces in hand per player, for kinds 1 to 7 (`R B G S N L P`).
    pub hands: [[u32; 7]; 2],
    /// The player to move (0: Black, sente).
    pub side: u8,
    /// SFEN's move number (plies played plus one).
    pub move_number: u32,
}

/// SFEN letters of the unpromoted kinds 0 to 7.
const SFEN_LETTERS: [char; 8] = ['K', 'R', 'B', 'G', 'S', 'N', 'L', 'P'];
/// Kinds 8 to 13 are the promoted forms of these kinds.
const PROMOTED_FROM: [usize; 6] = [1, 2, 4, 5, 6, 7];
/// Most pieces of one kind in one hand.
pub(crate) const MAX_IN_HAND: u32 = 99;

impl Grid {
    /// An empty board, Black to move.
    pub fn empty() -> Grid {
        Grid {
            cells: [[None; 9]; 9],
            hands: [[0; 7]; 2],
            side: 0,
            move_number: 1,
        }
    }

    /// Reads SFEN (board, side, hands, optional move number).
    pub fn from_sfen(sfen: &str) -> Result<Grid, String> {
        let mut grid = Grid::empty();
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(format!("not a shogi SFEN: {:?}", excerpt(sfen)));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 9 {
            return Err(format!("not a 9x9 board: {:?}", excerpt(fields[0])));
        }
        for (r, row) in rows.iter().enumerate() {
            let mut column = 0usize;
            let mut promoted = false;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    if promoted || d == 0 {
                        return Err(format!("bad SFEN row {row:?}"));
                    }
                    column += d as usize;
                    continue;
                }
                if c == '+' {
                    promoted = true;
                    continue;
                }
                let kind = SFEN_LETTERS
                    .iter()
                    .position(|&l| l == c.to_ascii_uppercase())
                    .ok_or_else(|| format!("bad SFEN piece {c:?}"))?;
                let kind = if promoted {
                    8 + PROMOTED_FROM
                        .iter()
                        .position(|&k| k == kind)
                        .ok_or_else(|| format!("bad SFEN piece +{c}"))?
                } else {
                    kind
                };
                promoted = false;
                if column >= 9 {
                    return Err(format!("SFEN row {:?} is too long", excerpt(row)));
                }
                let player = u8::from(c.is_ascii_lowercase());
                grid.cells[r][column] = Some((player, kind));
                column += 1;
            }
            if column != 9 || promoted {
                return Err(format!("SFEN row {:?} is not 9 cells", excerpt(row)));
            }
        }
        grid.side = match fields[1] {
            "b" => 0,
            "w" => 1,
            other => return Err(format!("bad SFEN side {:?}", excerpt(other))),
        };
        if fields[2] != "-" {
            let mut count = 0u32;
            for c in fields[2].chars() {
                if let Some(d) = c.to_digit(10) {
                    count = count * 10 + d;
                    if count > MAX_IN_HAND {
                        return Err("too many pieces in hand".to_string());
                    }
                    continue;
                }
                let kind = SFEN_LETTERS
                    .iter()
                    .position(|&l| l == c.to_ascii_uppercase())
                    .filter(|&k| k > 0)
                    .ok_or_else(|| format!("bad SFEN hand piece {c:?}"))?;
                let player = usize::from(c.is_ascii_lowercase());
                let n = &mut grid.hands[player][kind - 1];
                *n = (*n + count.max(1)).min(MAX_IN_HAND);
                count = 0;
            }
            if count != 0 {
                return Err(format!("bad SFEN hand {:?}", excerpt(fields[2])));
            }
        }
        if let Some(n) = fields.get(3) {
            grid.move_number = n
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("bad SFEN move number {:?}", excerpt(n)))?;
        }
        Ok(grid)
    }

    /// The grid as SFEN, hands in the order `R B G S N L P`, Black's first.
    pub fn to_sfen(&self) -> String {
        let mut out = String::new();
        for (r, row) in self.cells.iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some((player, kind)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(&sfen_piece(*player, *kind));
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
        out.push_str(if self.side == 0 { " b " } else { " w " });
        let mut hand = String::new();
        for player in 0..2u8 {
            for (i, &n) in self.hands[player as usize].iter().enumerate() {
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                hand.push_str(&sfen_piece(player, i + 1));
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        out.push_str(&hand);
        out.push_str(&format!(" {}", self.move_number));
        out
    }

    /// Whether this is the standard start position (move number 1).
    pub fn is_standard(&self) -> bool {
        self.to_sfen() == STANDARD_SFEN
    }
}

fn sfen_piece(player: u8, kind: usize) -> String {
    let letter = if kind >= 8 {
        format!("+{}", SFEN_LETTERS[PROMOTED_FROM[kind - 8]])
    } else {
        SFEN_LETTERS[kind].to_string()
    };
    if player == 0 {
        letter
    } else {
        letter.to_ascii_lowercase()
    }
}

/// Everything [`crate::kif::write`] and [`crate::csa::write`] need from a game: the start
/// grid and the moves in the format's notation.
pub(crate) fn moves_for<P: Position>(
    game: &Game<P>,
    notation: &str,
    format: &str,
) -> Result<(Grid, Vec<String>), RecordError> {
    let start = game.start();
    if !start.notations().contains(&notation) {
        return Err(RecordError::Unsupported(format!(
            "this ruleset has no {format} records (no {notation} move notation)"
        )));
    }
    let grid = Grid::from_sfen(&start.fen()).map_err(|e| {
        RecordError::Unsupported(format!("{format} records need a shogi position: {e}"))
    })?;
    let positions = game.positions();
    let moves = game
        .moves()
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            positions[i]
                .write_move(notation, mv)
                .ok_or_else(|| RecordError::Move {
                    ply: i + 1,
                    text: positions[i].move_text(mv),
                    error: MoveError::Illegal(format!("no {notation} text for the move")),
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((grid, moves))
}

/// How a finished game ended, as both formats distinguish it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The player to move is checkmated.
    Checkmate { winner: usize },
    /// Resignation, or any other plain loss (no legal move): the loser resigns.
    Resignation { winner: usize },
    /// Fourfold repetition, drawn.
    Sennichite,
    /// Perpetual check: the checker loses.
    PerpetualCheck { winner: usize },
    /// A successful impasse declaration.
    Declared { winner: usize },
    /// A failed declaration: the declarer loses.
    FailedDeclaration { winner: usize },
    /// Jishogi: the impasse count, a drawn declaration or the game-length cap.
    Impasse { winner: Option<usize> },
    /// Any other draw (agreement).
    Draw,
}

/// The ending of the game, if it is over.
pub(crate) fn ending<P: Position>(game: &Game<P>) -> Option<Ending> {
    let Status::Over(outcome) = game.status() else {
        return None;
    };
    let winner = winner_of(&outcome);
    Some(match (outcome.reason, winner) {
        (Reason::Checkmate, Some(w)) => Ending::Checkmate { winner: w },
        (Reason::Sennichite, None) => Ending::Sennichite,
        (Reason::PerpetualCheck, Some(w)) => Ending::PerpetualCheck { winner: w },
        (Reason::Declaration, Some(w)) if w == game.position().side_to_move() => {
            Ending::Declared { winner: w }
        }
        (Reason::Declaration, Some(w)) => Ending::FailedDeclaration { winner: w },
        (Reason::Declaration | Reason::Impasse | Reason::MoveLimit, w) => {
            Ending::Impasse { winner: w }
        }
        (_, Some(w)) => Ending::Resignation { winner: w },
        (_, None) => Ending::Draw,
    })
}

fn winner_of(outcome: &Outcome) -> Option<usize> {
    (outcome.quarters.len() == 2)
        .then(|| outcome.quarters.iter().position(|&q| q == 4))
        .flatten()
}

/// Plays a record's moves, read in `notation`, from its start position; a resignation
/// (`投了`, `%TORYO`) ends the game, and a declaration (`入玉勝ち`, `%KACHI`) is made when the
/// rule options offer one.
pub(crate) fn replay<P: Ruleset>(
    record: &RecordGame,
    options: &RuleOptions,
    notation: &str,
) -> Result<Game<P>, RecordError> {
    let start = match &record.start {
        Some(sfen) => P::from_fen_with(options, sfen),
        None => P::start_position(options),
    }
    .map_err(RecordError::Setup)?;
    if !start.notations().contains(&notation) {
        return Err(RecordError::Unsupported(format!(
            "{} has no {notation} move notation",
            P::ID
        )));
    }
    let mut game = Game::new(start);
    for (i, text) in record.moves.iter().enumerate() {
        let mv = game
            .position()
            .read_move(notation, text)
            .map_err(|error| RecordError::Move {
                ply: i + 1,
                text: excerpt(text),
                error,
            })?;
        game.play_through_draws(mv);
    }
    if let Status::Ongoing { .. } = game.status() {
        match record.end.as_deref() {
            Some("投了" | "%TORYO") => {
                let loser = game.position().side_to_move();
                game.end(Outcome::loss(2, loser, Reason::Resignation));
            }
            Some("入玉勝ち" | "入玉宣言" | "%KACHI")
                if game.position().actions().contains(&"win") =>
            {
                // The declaration is judged on the position: it may lose.
                let _ = game.perform("win");
            }
            _ => {}
        }
    }
    Ok(game)
}

/// What the shogi record formats' tests share: shogi's default options and a game from an
/// SFEN (or the start) through moves.
#[cfg(test)]
pub(crate) mod shogi_games {
    use chaturanga_rules::{Game, RuleOptions, Ruleset};
    use chaturanga_variants::shogi::ShogiPosition;

    /// Shogi's default rule options.
    pub fn options() -> RuleOptions {
        RuleOptions::parse::<&str>(ShogiPosition::option_specs(), &[]).unwrap()
    }

    /// The game from `sfen` (or the start) after `moves`.
    pub fn game_from(sfen: Option<&str>, moves: &[&str]) -> Game<ShogiPosition> {
        let o = options();
        let start = match sfen {
            Some(s) => ShogiPosition::from_fen_with(&o, s).unwrap(),
            None => ShogiPosition::start_position(&o).unwrap(),
        };
        let mut game = Game::new(start);
        for m in moves {
            game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sfen_grid_round_trips() {
        for sfen in [
            STANDARD_SFEN,
            "lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL w BS2p 10",
            "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
        ] {
            let g = Grid::from_sfen(sfen).unwrap();
            assert_eq!(g.to_sfen(), sfen);
        }
        assert!(Grid::from_sfen(STANDARD_SFEN).unwrap().is_standard());
        for bad in [
            "",
            "9/9/9 b - 1",
            "10/9/9/9/9/9/9/9/9 b - 1",
            "+9/9/9/9/9/9/9/9/9 b - 1",
            "4k4/9/9/9/9/9/9/9/4K4 x - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 2 1",
            "4k4/9/9/9/9/9/9/9/4K4 b K 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 999P 1",
            "4k4/9/9/9/9/9/9/9/4K4 b - 0",
            "4k+k4/9/9/9/9/9/9/9/4K4 b - 1",
        ] {
            assert!(Grid::from_sfen(bad).is_err(), "{bad}");
        }
    }
}
