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
    label: "No-capture limit",
    words: &[
        ("0", "No limit on moves without a capture"),
        ("*", "Drawn after {} plies without a capture"),
    ],
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
        &["wxf", "chinese"]
    }

    fn write_move(position: &XiangqiPosition, notation: &str, mv: Move) -> Option<String> {
        match notation {
            "wxf" => Some(to_wxf(position, mv)),
            "chinese" => Some(to_chinese(position, mv)),
            _ => None,
        }
    }

    fn read_move(
        position: &XiangqiPosition,
        notation: &str,
        text: &str,
    ) -> Result<Move, MoveError> {
        match notation {
            "wxf" => parse_wxf(position, text),
            "chinese" => parse_chinese(position, text),
            _ => Err(MoveError::Malformed(format!(
                "no {} notation here",
                excerpt(notation)
            ))),
        }
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

/// Which way a man goes, as descriptive notation says it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Direction {
    /// Toward the other side (WXF `+`, 進).
    Advance,
    /// Toward the mover's own side (`-`, 退).
    Retreat,
    /// Along its rank (`=`, 平).
    Traverse,
}

/// How descriptive notation names the man that moves among the mover's men of its kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Which {
    /// The only one of its kind on its file: named by the file.
    Alone,
    /// One of `count` men of its kind on its file, `place` counted from the front (0); for
    /// soldiers, no other file holds two or more.
    Tandem { place: usize, count: usize },
    /// A soldier on one of several files that each hold two or more soldiers: named by the
    /// file and its place there.
    TandemOnFile { place: usize, count: usize },
}

/// A move as the descriptive notations (WXF, Chinese) tell it: the man, which way it goes,
/// and how far. Both notations are spellings of this, so they agree on every disambiguation.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Descriptive {
    kind: Kind,
    /// The file the man starts on, 1-9 from the mover's right.
    file: i32,
    which: Which,
    direction: Direction,
    /// Points moved along the file for the straight movers (general, chariot, cannon,
    /// soldier) going forward or back; otherwise the file it lands on.
    number: i32,
}

/// The descriptive form of a legal move.
fn descriptive(position: &XiangqiPosition, mv: Move) -> Descriptive {
    let player = position.turn();
    let kind = mv.kind;
    let file = wxf_file(position, player, mv.from);
    let ours = Piece::new(player, kind);
    let mut per_file = [0usize; 10];
    // The men of the kind on the same file, front (most advanced) first.
    let mut column = Vec::new();
    for cell in position.pieces_of(player) {
        if position.piece_at(cell) != ours {
            continue;
        }
        let f = wxf_file(position, player, cell);
        per_file[f as usize] += 1;
        if f == file {
            column.push(cell);
        }
    }
    column.sort_by_key(|&c| -depth(position, player, c));
    let place = column.iter().position(|&c| c == mv.from).unwrap_or(0);
    let count = column.len();
    let tandem_files = per_file.iter().filter(|&&n| n >= 2).count();
    let which = if count <= 1 {
        Which::Alone
    } else if kind == SOLDIER && tandem_files >= 2 {
        Which::TandemOnFile { place, count }
    } else {
        Which::Tandem { place, count }
    };
    let (from_depth, to_depth) = (
        depth(position, player, mv.from),
        depth(position, player, mv.to),
    );
    let direction = match to_depth.cmp(&from_depth) {
        std::cmp::Ordering::Greater => Direction::Advance,
        std::cmp::Ordering::Less => Direction::Retreat,
        std::cmp::Ordering::Equal => Direction::Traverse,
    };
    // Men that move along straight lines count the points they go forward or back; the
    // others (and every traverse) name the file they land on.
    let straight = matches!(kind, GENERAL | CHARIOT | CANNON | SOLDIER);
    let number = if straight && direction != Direction::Traverse {
        (to_depth - from_depth).abs()
    } else {
        wxf_file(position, player, mv.to)
    };
    Descriptive {
        kind,
        file,
        which,
        direction,
        number,
    }
}

/// The move in WXF notation (`C2=5`, `H2+3`, `R+=4`, `P3+1`; traverses written with `=`).
pub fn to_wxf(position: &XiangqiPosition, mv: Move) -> String {
    let d = descriptive(position, mv);
    let letter = WXF_LETTERS[d.kind as usize];
    // The front and rear men of a file are `+` and `-`; one between them keeps its file.
    let front_back = |place: usize, count: usize| -> String {
        if place == 0 {
            "+".into()
        } else if place == count - 1 {
            "-".into()
        } else {
            d.file.to_string()
        }
    };
    let man = match d.which {
        Which::Alone => format!("{letter}{}", d.file),
        Which::Tandem { place, count } if d.kind != SOLDIER => {
            format!("{letter}{}", front_back(place, count))
        }
        // Four or five soldiers: the outermost are `++` and `--`, the next ones in `P+`
        // and `P-`, the middle of five `P` and its file.
        Which::Tandem { place, count } => match (count, place) {
            (4 | 5, 0) => "++".into(),
            (4 | 5, p) if p == count - 1 => "--".into(),
            (4 | 5, 1) => "P+".into(),
            (4, 2) | (5, 3) => "P-".into(),
            _ => format!("P{}", front_back(place, count)),
        },
        Which::TandemOnFile { place, count } => {
            format!("{}{}", d.file, front_back(place, count))
        }
    };
    let sign = match d.direction {
        Direction::Advance => '+',
        Direction::Retreat => '-',
        Direction::Traverse => '=',
    };
    format!("{man}{sign}{}", d.number)
}

/// Red's men in kind order (general, advisor, elephant, horse, chariot, cannon, soldier), in
/// the characters carved on Red's pieces.
const RED_MEN: [char; 7] = ['帥', '仕', '相', '傌', '俥', '炮', '兵'];
/// Black's men in kind order, in the characters carved on Black's pieces.
const BLACK_MEN: [char; 7] = ['將', '士', '象', '馬', '車', '砲', '卒'];
/// Red's files and distances: Chinese numerals.
const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
/// Black's files and distances: full-width digits.
const BLACK_NUMERALS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The word naming the man at `place` (0: front) of `count` on one file.
fn place_word(place: usize, count: usize) -> char {
    match place {
        0 => '前',
        p if p == count - 1 => '後',
        _ if count == 3 => '中',
        p => RED_NUMERALS[p],
    }
}

/// The move in traditional Chinese notation: `炮二平五`, `馬８進７`, `前俥進三`.
///
/// Four characters: the man, the file it starts on (from the mover's right), the direction
/// (進 advance, 退 retreat, 平 traverse), and the points moved along its file or the file it
/// lands on. Red's men are written as carved on Red's pieces, 帥 仕 相 傌 俥 炮 兵, with
/// Chinese numerals 一 to 九; Black's as on his, 將 士 象 馬 車 砲 卒, with full-width digits
/// １ to ９, as many sites and programs write them. Men of a kind sharing a file are told
/// apart as WXF does ([`to_wxf`]): 前 (front) and 後 (rear) in place of the file, before the
/// man (`後車平４`); three soldiers are 前, 中, 後, four or five 前, 二, 三, (四,) 後; where two
/// files hold several soldiers the file replaces the man (`前三平四`, WXF `3+=4`).
pub fn to_chinese(position: &XiangqiPosition, mv: Move) -> String {
    let d = descriptive(position, mv);
    let (men, numerals) = if position.turn() == 0 {
        (RED_MEN, RED_NUMERALS)
    } else {
        (BLACK_MEN, BLACK_NUMERALS)
    };
    let numeral = |n: i32| numerals[(n - 1) as usize];
    let man = men[d.kind as usize];
    let [first, second] = match d.which {
        Which::Alone => [man, numeral(d.file)],
        Which::Tandem { place, count } => [place_word(place, count), man],
        Which::TandemOnFile { place, count } => [place_word(place, count), numeral(d.file)],
    };
    let direction = match d.direction {
        Direction::Advance => '進',
        Direction::Retreat => '退',
        Direction::Traverse => '平',
    };
    [first, second, direction, numeral(d.number)]
        .into_iter()
        .collect()
}

/// One character of Chinese notation as the ASCII token it is compared by: both sides'
/// men (and the simplified and other common forms: 帅 将 马 车 包 ...) as WXF letters, every
/// numeral as its digit, directions as `+ - =`, 前 中 後 as `f m r`; `None` for anything
/// else.
fn chinese_token(c: char) -> Option<char> {
    let digit = |i: usize| char::from(b'1' + i as u8);
    Some(match c {
        '帥' | '帅' | '將' | '将' => 'K',
        '仕' | '士' => 'A',
        '相' | '象' => 'E',
        '傌' | '馬' | '马' => 'H',
        '俥' | '車' | '车' => 'R',
        '炮' | '砲' | '包' => 'C',
        '兵' | '卒' => 'P',
        '進' | '进' => '+',
        '退' => '-',
        '平' => '=',
        '前' => 'f',
        '中' => 'm',
        '後' | '后' => 'r',
        '1'..='9' => c,
        _ => {
            let i = RED_NUMERALS
                .iter()
                .chain(&BLACK_NUMERALS)
                .position(|&n| n == c)?;
            digit(i % 9)
        }
    })
}

/// The comparison key of a Chinese move, `None` where a character is not of the notation.
fn chinese_key(text: &str) -> Option<String> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(chinese_token)
        .collect()
}

/// Reads a move in Chinese notation ([`to_chinese`]); either side's characters, simplified
/// forms (`马８进７`, `后车平四`), 包 for the cannon and ASCII digits are accepted too.
pub fn parse_chinese(position: &XiangqiPosition, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    let wanted = chinese_key(text).filter(|key| {
        let key = key.as_bytes();
        key.len() == 4 && b"+-=".contains(&key[2]) && key[3].is_ascii_digit()
    });
    let Some(wanted) = wanted else {
        return Err(MoveError::Malformed(excerpt(text)));
    };
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .find(|&m| chinese_key(&to_chinese(position, m)).as_ref() == Some(&wanted))
        .ok_or_else(|| MoveError::Illegal(excerpt(text)))
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

    fn at(fen: &str) -> XiangqiPosition {
        let o = RuleOptions::parse::<&str>(Xiangqi::option_specs(), &[]).unwrap();
        let spec = chaturanga_rules::standard::spec_for::<2, 7, Xiangqi>(&o).unwrap();
        XiangqiPosition::from_fen(spec, fen).unwrap()
    }

    /// The move given in coordinates, in WXF and in Chinese notation.
    fn both(p: &XiangqiPosition, uci: &str) -> (String, String) {
        let m = p.parse_move(uci).unwrap();
        (to_wxf(p, m), to_chinese(p, m))
    }

    fn pair(wxf: &str, chinese: &str) -> (String, String) {
        (wxf.into(), chinese.into())
    }

    #[test]
    fn chinese_of_opening_moves() {
        let p = start();
        assert_eq!(both(&p, "h3e3"), pair("C2=5", "炮二平五"));
        assert_eq!(both(&p, "h1g3"), pair("H2+3", "傌二進三"));
        assert_eq!(both(&p, "i1i2"), pair("R1+1", "俥一進一"));
        assert_eq!(both(&p, "c1e3"), pair("E7+5", "相七進五"));
        assert_eq!(both(&p, "f1e2"), pair("A4+5", "仕四進五"));
        assert_eq!(both(&p, "e4e5"), pair("P5+1", "兵五進一"));
        assert_eq!(both(&p, "b3b10"), pair("C8+7", "炮八進七"));
        assert_eq!(p.notations(), ["wxf", "chinese"]);
        let m = p.parse_move("h3e3").unwrap();
        assert_eq!(p.write_move("chinese", m).as_deref(), Some("炮二平五"));
        assert_eq!(p.read_move("chinese", "炮二平五"), Ok(m));
        // Other characters, simplified forms, digits and spaces are read too.
        for text in [
            "炮二平五",
            "砲二平五",
            "包2平5",
            "炮２平５",
            " 炮 二 平 五 ",
        ] {
            assert_eq!(parse_chinese(&p, text), Ok(m), "{text}");
        }
        assert_eq!(p.move_text(parse_chinese(&p, "马二进三").unwrap()), "h1g3");
        assert_eq!(p.move_text(parse_chinese(&p, "車一進一").unwrap()), "i1i2");
        // Blocked by the other cannon: a move of the notation, but not legal.
        assert!(matches!(
            parse_chinese(&p, "炮二平九"),
            Err(MoveError::Illegal(_))
        ));
        for text in ["炮二平", "炮二跳五", "炮二平五五", "C2=5", ""] {
            assert!(
                matches!(parse_chinese(&p, text), Err(MoveError::Malformed(_))),
                "{text}"
            );
        }
        assert!(matches!(
            p.read_move("kif", "炮二平五"),
            Err(MoveError::Malformed(_))
        ));
    }

    #[test]
    fn chinese_for_black() {
        let p = at("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
        // Black counts files from his own right (our a-file is his 1) in full-width digits.
        assert_eq!(both(&p, "h10g8"), pair("H8+7", "馬８進７"));
        assert_eq!(both(&p, "b10c8"), pair("H2+3", "馬２進３"));
        assert_eq!(both(&p, "h8e8"), pair("C8=5", "砲８平５"));
        assert_eq!(both(&p, "a10a9"), pair("R1+1", "車１進１"));
        assert_eq!(both(&p, "g7g6"), pair("P7+1", "卒７進１"));
        assert_eq!(both(&p, "e10e9"), pair("K5+1", "將５進１"));
        let m = p.parse_move("h10g8").unwrap();
        for text in ["馬８進７", "马8进7", "傌八進七"] {
            assert_eq!(parse_chinese(&p, text), Ok(m), "{text}");
        }
    }

    #[test]
    fn chinese_tandem_pieces() {
        // Two red chariots on the a-file: front and rear replace the file.
        let t = at("4k4/9/9/9/9/R8/9/9/9/R2K5 w - - 0 1");
        assert_eq!(both(&t, "a5a8"), pair("R++3", "前俥進三"));
        assert_eq!(both(&t, "a1b1"), pair("R-=8", "後俥平八"));
        assert_eq!(both(&t, "a5a4"), pair("R+-1", "前俥退一"));
        assert_eq!(t.move_text(parse_chinese(&t, "后车平八").unwrap()), "a1b1");
        // Three soldiers on one file: front, middle, rear.
        let s = at("4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1");
        assert_eq!(both(&s, "e8e9"), pair("P++1", "前兵進一"));
        assert_eq!(both(&s, "e7d7"), pair("P5=6", "中兵平六"));
        assert_eq!(both(&s, "e6f6"), pair("P-=4", "後兵平四"));
        // Four: front, second, third, rear.
        let f = at("3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1");
        assert_eq!(both(&f, "e9d9"), pair("++=6", "前兵平六"));
        assert_eq!(both(&f, "e8d8"), pair("P+=6", "二兵平六"));
        assert_eq!(both(&f, "e7d7"), pair("P-=6", "三兵平六"));
        assert_eq!(both(&f, "e6d6"), pair("--=6", "後兵平六"));
        // Five, the rear one not yet across the river.
        let v = at("3k5/4P4/4P4/4P4/4P4/4P4/9/9/9/4K4 w - - 0 1");
        assert_eq!(both(&v, "e7d7"), pair("P5=6", "三兵平六"));
        assert_eq!(both(&v, "e6d6"), pair("P-=6", "四兵平六"));
        assert_eq!(v.move_text(parse_chinese(&v, "四兵平六").unwrap()), "e6d6");
        // Black: soldiers in tandem on two files (the file replaces the man), two cannons
        // and two advisors on one file each.
        let b = at("3k1a3/9/5a3/9/9/2p1p4/2p1p4/c3p4/c8/4K4 b - - 0 1");
        assert_eq!(both(&b, "e3e2"), pair("5++1", "前５進１"));
        assert_eq!(both(&b, "e4d4"), pair("55=4", "中５平４"));
        assert_eq!(both(&b, "c5b5"), pair("3-=2", "後３平２"));
        assert_eq!(both(&b, "a2a1"), pair("C++1", "前砲進１"));
        assert_eq!(both(&b, "a3b3"), pair("C-=2", "後砲平２"));
        assert_eq!(both(&b, "f8e9"), pair("A+-5", "前士退５"));
        assert_eq!(both(&b, "f10e9"), pair("A-+5", "後士進５"));
    }

    /// Every legal move of each position, and of the positions a fixed walk reaches from
    /// it, has a Chinese text of its own (even compared as the reader compares them) that
    /// reads back to the move.
    #[test]
    fn every_chinese_move_reads_back() {
        let starts = [
            START_FEN,
            "4k4/9/9/P1P1P4/P1P1P4/9/9/9/9/3K5 w - - 0 1",
            "3k5/4P4/4P4/4P4/4P4/4P4/9/R1N6/R1N6/4K4 w - - 0 1",
            "3k1a3/9/5a3/9/9/2p1p4/2p1p4/c3p4/c8/4K4 b - - 0 1",
        ];
        let mut checked = 0;
        for fen in starts {
            let mut p = at(fen);
            for ply in 0..100 {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mut seen = std::collections::BTreeSet::new();
                for &m in &moves {
                    let text = to_chinese(&p, m);
                    let here = format!("{} {}: {text}", p.fen(), p.move_text(m));
                    assert_eq!(text.chars().count(), 4, "{here}");
                    assert!(seen.insert(chinese_key(&text)), "{here} is written twice");
                    assert_eq!(p.read_move("chinese", &text), Ok(m), "{here}");
                    assert_eq!(p.write_move("chinese", m), Some(text), "{here}");
                    checked += 1;
                }
                p.play_unchecked(moves[(ply * 7 + 3) % moves.len()]);
            }
        }
        assert!(checked > 5_000, "only {checked} moves checked");
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
