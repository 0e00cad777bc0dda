//! Xiangqi (`xiangqi`): palaces, river, flying general, and the repetition rules that punish
//! perpetual check and chase; see `docs/rules/xiangqi.md`.

use crate::family;
use chaturanga_geometry::{Cell, GeometryBuilder};
use chaturanga_rules::PieceStyle;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::standard::{Move, Rules, Setup, Spec, SpecError, StandardPosition};
use chaturanga_rules::{
    DrawRules, Kind, MoveError, OptionSpec, OptionValues, Outcome, Piece, Player, Position, Reason,
    RuleOptions,
};

/// The xiangqi ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Xiangqi;

/// A xiangqi position.
pub type XiangqiPosition = StandardPosition<2, 7, Xiangqi>;

/// The start position (Red, upper case, to move).
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

const NO_CAPTURE_LIMIT: OptionSpec = OptionSpec {
    name: "no-capture-limit",
    values: OptionValues::Number(0, 100_000),
    default: "100",
    help: "plies without a capture after which the game is drawn; 0 switches the rule off",
};

// Kind numbers, in the order the pieces are added below.
/// Piece values in centipawns, as xiangqi players count them (chariot 9, cannon 4.5, horse 4,
/// advisor and elephant 2, soldier 1; the soldier's gain on crossing the river comes from its
/// extra moves in the placement tables).
const VALUES: &[(&str, i32)] = &[
    ("R", 900),
    ("C", 450),
    ("N", 400),
    ("A", 200),
    ("B", 200),
    ("P", 100),
];

const GENERAL: Kind = 0;
const ADVISOR: Kind = 1;
const ELEPHANT: Kind = 2;
const HORSE: Kind = 3;
const CHARIOT: Kind = 4;
const CANNON: Kind = 5;
const SOLDIER: Kind = 6;

fn block(x0: i32, x1: i32, y0: i32, y1: i32) -> Vec<(i32, i32)> {
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
        .collect()
}

impl Rules<2, 7> for Xiangqi {
    const ID: &'static str = "xiangqi";
    const PLAYER_NAMES: [&'static str; 2] = ["red", "black"];
    // Null-move pruning lost in self-play twice (-22 and -24 Elo over 145 and 180 games,
    // docs/performance.md, "Self-play tuning"), where it won in chess.
    const NULL_MOVE_PRUNING: bool = false;

    fn option_specs() -> &'static [OptionSpec] {
        &[NO_CAPTURE_LIMIT]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        // Drawn as its players know it: men on the points, the river (with its traditional
        // words, "Chu river" and "Han border") and the palaces' diagonals.
        let palace_diagonals = [
            ((3, 0), (5, 2)),
            ((5, 0), (3, 2)),
            ((3, 7), (5, 9)),
            ((5, 7), (3, 9)),
        ];
        let geometry = GeometryBuilder::rectangle(9, 10)
            .on_points()
            .river_between(4, &["楚 河", "漢 界"])
            .lines(&palace_diagonals)
            .region("palace", vec![block(3, 5, 0, 2), block(3, 5, 7, 9)])
            .region("own-half", vec![block(0, 8, 0, 4), block(0, 8, 5, 9)])
            .region("across-river", vec![block(0, 8, 5, 9), block(0, 8, 0, 4)])
            .build()
            .map_err(family::board_error)?;
        // The general "attacks" along its file like a chariot: that is the flying-general
        // rule, a check that is never played as a move.
        let general = family::piece("K", "general", "W")?
            .royal()
            .confined("palace")
            .in_words("one step orthogonally inside its palace; may never face the other general on an open file")
            .checks_by("vR")
            .map_err(|e| SpecError::UnknownPiece(e.to_string()))?;
        let pieces = vec![
            general,
            family::piece("A", "advisor", "F")?.confined("palace"),
            family::piece("B", "elephant", "nA")?.confined("own-half"),
            family::piece("N", "horse", "nN")?,
            family::piece("R", "chariot", "R")?,
            family::piece("C", "cannon", "mRcpR")?,
            family::zoned_piece("P", "soldier", "fW", &[("across-river", "fsW")])?,
        ];
        let limit = options.number("no-capture-limit").unwrap_or(100);
        let draw_rules = DrawRules {
            repetition: Some((3, Reason::ThreefoldRepetition)),
            repetition_claim: None,
            quiet_plies: (limit > 0).then_some((limit, Reason::NoCaptureLimit)),
            quiet_plies_claim: None,
            ply_cap: None,
        };
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            Vec::new(),
        )
        .style(PieceStyle::Xiangqi)
        .draw_rules(draw_rules)
        .values(VALUES)
        .weights(crate::weights::family("xiangqi")?)
        .start(START_FEN)
        .build()
    }

    /// No legal move loses, in check (checkmate) or not (stalemate).
    fn outcome_without_moves(position: &XiangqiPosition) -> Outcome {
        let reason = if position.is_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Outcome::loss(2, position.side_to_move(), reason)
    }

    fn judge_repetition(cycle: &[XiangqiPosition], moves: &[Move]) -> Option<Outcome> {
        judge(cycle, moves)
    }

    /// Perpetual check only: a chase needs the cycle's moves, which the search does not keep.
    fn judge_repetition_in_search(
        _position: &XiangqiPosition,
        perpetual: [bool; 2],
    ) -> Option<Outcome> {
        match perpetual {
            [true, false] => Some(Outcome::loss(2, 0, Reason::PerpetualCheck)),
            [false, true] => Some(Outcome::loss(2, 1, Reason::PerpetualCheck)),
            _ => None,
        }
    }

    fn notations() -> &'static [&'static str] {
        &["wxf"]
    }

    fn write_move(position: &XiangqiPosition, notation: &str, mv: Move) -> Option<String> {
        (notation == "wxf").then(|| to_wxf(position, mv))
    }

    fn read_move(
        position: &XiangqiPosition,
        notation: &str,
        text: &str,
    ) -> Result<Move, MoveError> {
        if notation != "wxf" {
            return Err(MoveError::Malformed(format!(
                "no {} notation here",
                excerpt(notation)
            )));
        }
        parse_wxf(position, text)
    }
}

/// Judges the third occurrence of a position: a lone perpetual checker loses; otherwise a
/// lone perpetual chaser loses; otherwise `None` (draw).
fn judge(cycle: &[XiangqiPosition], moves: &[Move]) -> Option<Outcome> {
    let mut checking = [true, true];
    let mut moved = [false, false];
    let mut chased: [Option<Vec<u16>>; 2] = [None, None];
    // Piece identities through the cycle: the index of the cell each piece started on.
    let cells = cycle[0].spec().geometry.len();
    let mut identity: Vec<Option<u16>> = (0..cells as u16)
        .map(|c| cycle[0].piece_at(Cell(c)).is_some().then_some(c))
        .collect();
    for (i, &mv) in moves.iter().enumerate() {
        let (before, after) = (&cycle[i], &cycle[i + 1]);
        let player = before.turn() as usize;
        moved[player] = true;
        if !after.is_check() {
            checking[player] = false;
        }
        identity[mv.to.index()] = identity[mv.from.index()];
        identity[mv.from.index()] = None;
        let targets: Vec<u16> = chased_by(before, after, mv)
            .iter()
            .filter_map(|c| identity[c.index()])
            .collect();
        chased[player] = Some(match chased[player].take() {
            None => targets,
            Some(mut kept) => {
                kept.retain(|t| targets.contains(t));
                kept
            }
        });
    }
    let checking = [checking[0] && moved[0], checking[1] && moved[1]];
    let chasing = [
        chased[0].as_ref().is_some_and(|t| !t.is_empty()),
        chased[1].as_ref().is_some_and(|t| !t.is_empty()),
    ];
    match (checking, chasing) {
        ([true, false], _) => Some(Outcome::loss(2, 0, Reason::PerpetualCheck)),
        ([false, true], _) => Some(Outcome::loss(2, 1, Reason::PerpetualCheck)),
        ([false, false], [true, false]) => Some(Outcome::loss(2, 0, Reason::PerpetualChase)),
        ([false, false], [false, true]) => Some(Outcome::loss(2, 1, Reason::PerpetualChase)),
        _ => None,
    }
}

/// Whether a soldier on `cell` of `player` has crossed the river.
fn across_river(position: &XiangqiPosition, player: Player, cell: Cell) -> bool {
    let (_, y) = position.spec().geometry.coords(cell);
    if player == 0 { y >= 5 } else { y <= 4 }
}

/// The cells of the enemy pieces that `mv` (played in `before`, giving `after`) chases, by
/// the rules file's simplified definition.
fn chased_by(before: &XiangqiPosition, after: &XiangqiPosition, mv: Move) -> Vec<Cell> {
    let chaser = before.turn();
    let victim_side = 1 - chaser;
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    let mut out = Vec::new();
    for target in after.pieces_of(victim_side) {
        let t = after.piece_at(target).kind();
        if t == GENERAL || (t == SOLDIER && !across_river(after, victim_side, target)) {
            continue;
        }
        for attacker in after.attackers(target, chaser) {
            let a = after.piece_at(attacker).kind();
            if a == GENERAL || a == SOLDIER {
                continue;
            }
            // Only new attacks chase: not one the same piece already made before the move.
            let origin = if attacker == mv.to { mv.from } else { attacker };
            if before.attackers(target, chaser).contains(origin) {
                continue;
            }
            // A target that can take its attacker is offered an exchange, not chased.
            if replies.iter().any(|r| r.from == target && r.to == attacker) {
                continue;
            }
            let weaker = matches!((a, t), (HORSE | CANNON, CHARIOT))
                || matches!((a, t), (ELEPHANT | ADVISOR, CHARIOT | HORSE | CANNON));
            if weaker || !protected(after, attacker, target) {
                out.push(target);
                break;
            }
        }
    }
    out
}

/// Whether the piece on `target` could be recaptured if the piece on `attacker` took it.
fn protected(position: &XiangqiPosition, attacker: Cell, target: Cell) -> bool {
    let mut setup: Setup = position.to_setup();
    let mover = position.piece_at(attacker);
    setup.pieces.retain(|&(c, _)| c != attacker && c != target);
    setup.pieces.push((target, mover));
    let Ok(after) = XiangqiPosition::from_setup(position.spec(), &setup) else {
        // The capture would leave the capturer's general attacked: no real threat.
        return true;
    };
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    replies.iter().any(|r| r.to == target)
}

/// WXF file number (1-9 from the player's own right) of a cell.
fn wxf_file(position: &XiangqiPosition, player: Player, cell: Cell) -> i32 {
    let (x, _) = position.spec().geometry.coords(cell);
    if player == 0 { 9 - x } else { x + 1 }
}

/// How far forward a cell is for `player` (rank 0..9 from his side).
fn depth(position: &XiangqiPosition, player: Player, cell: Cell) -> i32 {
    let (_, y) = position.spec().geometry.coords(cell);
    if player == 0 { y } else { 9 - y }
}

const WXF_LETTERS: [char; 7] = ['K', 'A', 'E', 'H', 'R', 'C', 'P'];

/// The move in WXF notation (`C2=5`, `H2+3`, `R+=4`, `P3+1`; traverses written with `=`).
pub fn to_wxf(position: &XiangqiPosition, mv: Move) -> String {
    let player = position.turn();
    let kind = mv.kind;
    let letter = WXF_LETTERS[kind as usize];
    let file = wxf_file(position, player, mv.from);
    // Pieces of the same kind and side on the same file, front (most advanced) first.
    let same = |cell: Cell| {
        let p = position.piece_at(cell);
        p == Piece::new(player, kind)
    };
    let mut column: Vec<Cell> = position
        .pieces_of(player)
        .iter()
        .filter(|&c| same(c) && wxf_file(position, player, c) == file)
        .collect();
    column.sort_by_key(|&c| -depth(position, player, c));
    let place = column.iter().position(|&c| c == mv.from).unwrap_or(0);
    let n = column.len();
    let prefix = if n <= 1 {
        format!("{letter}{file}")
    } else if kind != SOLDIER {
        format!("{letter}{}", if place == 0 { '+' } else { '-' })
    } else {
        let tandem_files = (1..=9)
            .filter(|&f| {
                position
                    .pieces_of(player)
                    .iter()
                    .filter(|&c| same(c) && wxf_file(position, player, c) == f)
                    .count()
                    >= 2
            })
            .count();
        let front_back = |place: usize| -> String {
            if place == 0 {
                "+".into()
            } else if place == n - 1 {
                "-".into()
            } else {
                file.to_string()
            }
        };
        if tandem_files >= 2 {
            format!("{file}{}", front_back(place))
        } else {
            match (n, place) {
                (4 | 5, 0) => "++".into(),
                (4 | 5, p) if p == n - 1 => "--".into(),
                (4, 1) | (5, 1) => "P+".into(),
                (4, 2) => "P-".into(),
                (5, 2) => format!("P{file}"),
                (5, 3) => "P-".into(),
                _ => format!("P{}", front_back(place)),
            }
        }
    };
    let (from_depth, to_depth) = (
        depth(position, player, mv.from),
        depth(position, player, mv.to),
    );
    let to_file = wxf_file(position, player, mv.to);
    let straight = matches!(kind, GENERAL | CHARIOT | CANNON | SOLDIER);
    let tail = if from_depth == to_depth {
        format!("={to_file}")
    } else {
        let sign = if to_depth > from_depth { '+' } else { '-' };
        let amount = if straight {
            (to_depth - from_depth).abs()
        } else {
            to_file
        };
        format!("{sign}{amount}")
    };
    format!("{prefix}{tail}")
}

fn normalise_wxf(text: &str) -> String {
    let mut out: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '.' => '=',
            c => c.to_ascii_uppercase(),
        })
        .collect();
    // Other common letters: B for the elephant, N for the horse.
    if let Some(first) = out.chars().next() {
        let replaced = match first {
            'B' => Some('E'),
            'N' => Some('H'),
            _ => None,
        };
        if let Some(r) = replaced {
            out.replace_range(0..1, &r.to_string());
        }
    }
    out
}

/// Reads a move in WXF notation (also with `.` for traverses and B/N for elephant/horse).
pub fn parse_wxf(position: &XiangqiPosition, text: &str) -> Result<Move, MoveError> {
    if text.is_empty() || text.len() > 8 || !text.is_ascii() {
        return Err(MoveError::Malformed(excerpt(text)));
    }
    let wanted = normalise_wxf(text);
    let well_formed = wanted.len() == 4
        && wanted.chars().nth(2).is_some_and(|c| "+-=".contains(c))
        && wanted.chars().nth(3).is_some_and(|c| c.is_ascii_digit());
    if !well_formed {
        return Err(MoveError::Malformed(excerpt(text)));
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .find(|&m| to_wxf(position, m) == wanted)
        .ok_or_else(|| MoveError::Illegal(excerpt(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> XiangqiPosition {
        let o = RuleOptions::parse::<&str>(Xiangqi::option_specs(), &[]).unwrap();
        XiangqiPosition::start(&o).unwrap()
    }

    #[test]
    fn wxf_of_opening_moves() {
        let p = start();
        let wxf = |uci: &str| to_wxf(&p, p.parse_move(uci).unwrap());
        assert_eq!(wxf("h3e3"), "C2=5");
        assert_eq!(wxf("h1g3"), "H2+3");
        assert_eq!(wxf("i1i2"), "R1+1");
        assert_eq!(wxf("c1e3"), "E7+5");
        assert_eq!(wxf("f1e2"), "A4+5");
        assert_eq!(wxf("e4e5"), "P5+1");
        assert_eq!(p.move_text(parse_wxf(&p, "c2.5").unwrap()), "h3e3");
        assert_eq!(p.move_text(parse_wxf(&p, "N2+3").unwrap()), "h1g3");
        assert!(matches!(parse_wxf(&p, "C2=9"), Err(MoveError::Illegal(_))));
        assert!(matches!(
            parse_wxf(&p, "C2x5"),
            Err(MoveError::Malformed(_))
        ));
    }

    #[test]
    fn wxf_for_black_and_tandem_pieces() {
        let o = RuleOptions::parse::<&str>(Xiangqi::option_specs(), &[]).unwrap();
        let spec = chaturanga_rules::standard::spec_for::<2, 7, Xiangqi>(&o).unwrap();
        // Black to move: Black's files count from his right (our a-file is his 1).
        let p = XiangqiPosition::from_fen(
            spec,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        assert_eq!(to_wxf(&p, p.parse_move("h8e8").unwrap()), "C8=5");
        assert_eq!(to_wxf(&p, p.parse_move("b10c8").unwrap()), "H2+3");
        // Two red chariots on the a-file: front and rear.
        let t = XiangqiPosition::from_fen(spec, "4k4/9/9/9/9/R8/9/9/9/R2K5 w - - 0 1").unwrap();
        assert_eq!(to_wxf(&t, t.parse_move("a5a8").unwrap()), "R++3");
        assert_eq!(to_wxf(&t, t.parse_move("a1b1").unwrap()), "R-=8");
        // Three soldiers on one file: front, middle by file number, rear.
        let s = XiangqiPosition::from_fen(spec, "4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert_eq!(to_wxf(&s, s.parse_move("e8e9").unwrap()), "P++1");
        assert_eq!(to_wxf(&s, s.parse_move("e7d7").unwrap()), "P5=6");
        assert_eq!(to_wxf(&s, s.parse_move("e6f6").unwrap()), "P-=4");
    }

    #[test]
    fn chase_needs_a_new_attack() {
        let p = start();
        let mut after = p.clone();
        let mv = p.parse_move("h3e3").unwrap();
        after.play_unchecked(mv);
        // The central cannon move attacks nothing new beyond the screened e7 soldier (exempt).
        assert!(chased_by(&p, &after, mv).is_empty());
    }
}
