//! Shogi (`shogi`): drops, promotion zones, sennichite and the impasse rules; see
//! `docs/rules/shogi.md`.

use crate::family;
use crate::shogi_family::{self as sf, PlainRepetition};
use chaturanga_geometry::CellSet;
use chaturanga_rules::PieceStyle;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::standard::{
    Move, Notation, Rules, Spec, SpecError, Special, StandardPosition,
};
use chaturanga_rules::{
    Kind, MoveError, OptionSpec, OptionValues, Outcome, Player, Position, Reason, RuleOptions,
    SetupProblem,
};

/// The shogi ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Shogi;

/// A shogi position.
pub type ShogiPosition = StandardPosition<2, 14, Shogi>;

/// The start position (SFEN).
pub const START_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

const IMPASSE: OptionSpec = OptionSpec {
    name: "impasse",
    values: OptionValues::Choice(&["count24", "declare27", "declare24"]),
    default: "count24",
    help: "count24: the seed's 24-point count when both kings have entered; declare27: the CSA/USI 27-point declaration; declare24: the JSA declaration",
    label: "Impasse",
    words: &[
        (
            "count24",
            "When both kings have entered, the catalogue's 24-point count decides",
        ),
        (
            "declare27",
            "A player may declare a win with 27 points (CSA and USI rule)",
        ),
        (
            "declare24",
            "A player may declare with 24 points (Japan Shogi Association rule)",
        ),
    ],
};
const MAX_PLIES: OptionSpec = sf::max_plies("500");

/// Kind numbers in the order the pieces are added.
pub const KING: Kind = 0;
const ROOK: Kind = 1;
const BISHOP: Kind = 2;
const PAWN: Kind = 7;
const DRAGON: Kind = 8;
const HORSE: Kind = 9;

/// The shogi pieces in kind order K R B G S N L P +R +B +S +N +L +P.
pub fn shogi_pieces() -> Result<Vec<chaturanga_rules::PieceType>, SpecError> {
    let p = family::piece;
    Ok(vec![
        family::king()?,
        p("R", "rook", "R")?.promotes_in_zone("zone", "+R"),
        p("B", "bishop", "B")?.promotes_in_zone("zone", "+B"),
        p("G", "gold general", "WfF")?,
        p("S", "silver general", "FfW")?.promotes_in_zone("zone", "+S"),
        p("N", "knight", "ffN")?
            .promotes_in_zone("zone", "+N")
            .must_promote_in("last-two"),
        p("L", "lance", "fR")?
            .promotes_in_zone("zone", "+L")
            .must_promote_in("last-rank"),
        p("P", "pawn", "fW")?
            .promotes_in_zone("zone", "+P")
            .must_promote_in("last-rank"),
        p("+R", "dragon", "RF")?.demotes_to("R"),
        p("+B", "horse", "BW")?.demotes_to("B"),
        p("+S", "promoted silver", "WfF")?.demotes_to("S"),
        p("+N", "promoted knight", "WfF")?.demotes_to("N"),
        p("+L", "promoted lance", "WfF")?.demotes_to("L"),
        p("+P", "tokin", "WfF")?.demotes_to("P"),
    ])
}

impl Rules<2, 14> for Shogi {
    const ID: &'static str = "shogi";
    const PLAYER_NAMES: [&'static str; 2] = ["black", "white"];

    fn option_specs() -> &'static [OptionSpec] {
        &[IMPASSE, MAX_PLIES]
    }

    fn build(options: &RuleOptions) -> Result<Spec<2>, SpecError> {
        let geometry = sf::build_board(9, 9, 3)?;
        family::with(
            chaturanga_rules::standard::SpecBuilder::new(Self::ID, geometry),
            shogi_pieces()?,
            Vec::new(),
        )
        .style(PieceStyle::Shogi)
        .options(options.clone())
        .draw_rules(sf::draw_rules(options.number("max-plies").unwrap_or(500)))
        .captures_to_hand(&["R", "B", "G", "S", "N", "L", "P"])
        .drop_zone("P", "not-last")
        .drop_zone("L", "not-last")
        .drop_zone("N", "not-last-two")
        .notation(Notation::Shogi)
        .values(crate::shogi_family::SHOGI_VALUES)
        .weights(crate::weights::family("shogi")?)
        .start(START_SFEN)
        .build()
        .map(sf::drops_reset_quiet_plies)
    }

    fn outcome_without_moves(position: &ShogiPosition) -> Outcome {
        let reason = if position.is_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        Outcome::loss(2, position.side_to_move(), reason)
    }

    fn drop_cells(position: &ShogiPosition, kind: Kind, cells: CellSet<2>) -> CellSet<2> {
        if kind != PAWN {
            return cells;
        }
        let us = position.turn();
        let allowed = cells.without(sf::crowded_files(position, us, PAWN, 1));
        allowed.without(sf::drop_mates(position, PAWN, allowed))
    }

    fn validate(position: &ShogiPosition) -> Vec<SetupProblem> {
        nifu_problems(position, PAWN, 1)
    }

    fn judge_repetition(cycle: &[ShogiPosition], moves: &[Move]) -> Option<Outcome> {
        sf::judge_sennichite(cycle, moves, PlainRepetition::Draw)
    }

    fn judge_repetition_in_search(
        position: &ShogiPosition,
        perpetual: [bool; 2],
    ) -> Option<Outcome> {
        sf::sennichite_in_search(position, perpetual, PlainRepetition::Draw)
    }

    fn actions(position: &ShogiPosition) -> Vec<&'static str> {
        match position.spec().options.get("impasse") {
            Some("declare27") | Some("declare24") => vec!["win"],
            _ if both_kings_entered(position) => vec!["count", "count-accepted"],
            _ => Vec::new(),
        }
    }

    fn perform(position: &ShogiPosition, action: &str) -> Result<Outcome, MoveError> {
        let mode = position.spec().options.get("impasse").unwrap_or("count24");
        match (mode, action) {
            ("count24", "count" | "count-accepted") => {
                count24(position, action == "count-accepted")
            }
            ("declare27", "win") => Ok(declare(position, Declaration::TwentySeven)),
            ("declare24", "win") => Ok(declare(position, Declaration::TwentyFour)),
            _ => Err(MoveError::Illegal(excerpt(action))),
        }
    }

    fn notations() -> &'static [&'static str] {
        &["csa", "kif", sf::WESTERN]
    }

    fn write_move(position: &ShogiPosition, notation: &str, mv: Move) -> Option<String> {
        match notation {
            "csa" => Some(to_csa(position, mv)),
            "kif" => {
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                Some(kif_among(position, mv, &moves))
            }
            sf::WESTERN => Some(sf::to_western(position, mv)),
            _ => None,
        }
    }

    fn read_move(position: &ShogiPosition, notation: &str, text: &str) -> Result<Move, MoveError> {
        match notation {
            "csa" => parse_csa(position, text),
            "kif" => parse_kif(position, text),
            sf::WESTERN => sf::parse_western(position, text),
            _ => Err(MoveError::Malformed(format!(
                "no {} notation here",
                excerpt(notation)
            ))),
        }
    }
}

/// Positions with more unpromoted pawns of one player on a file than allowed.
pub fn nifu_problems<const W: usize, const K: usize, R: Rules<W, K>>(
    position: &StandardPosition<W, K, R>,
    pawn: Kind,
    per_file: u32,
) -> Vec<SetupProblem> {
    (0..2)
        .filter(|&p| {
            sf::crowded_files(position, p, pawn, per_file + 1).intersects(position.pieces_of(p))
        })
        .map(|p| {
            SetupProblem::Other(format!(
                "player {} has too many unpromoted pawns on a file",
                p + 1
            ))
        })
        .collect()
}

/// Impasse points: rook and bishop (promoted or not) 5, every other piece 1, the king 0.
fn points(kind: Kind) -> u32 {
    match kind {
        KING => 0,
        ROOK | BISHOP | DRAGON | HORSE => 5,
        _ => 1,
    }
}

fn hand_points(position: &ShogiPosition, player: Player) -> u32 {
    (0..14u8)
        .map(|k| position.in_hand(player, k) as u32 * points(k))
        .sum()
}

fn board_points(position: &ShogiPosition, player: Player, within: CellSet<2>) -> u32 {
    (position.pieces_of(player) & within)
        .iter()
        .map(|c| points(position.piece_at(c).kind()))
        .sum()
}

fn both_kings_entered(position: &ShogiPosition) -> bool {
    (0..2u8)
        .all(|p| sf::king(position, p).is_some_and(|k| sf::region(position, "zone", p).contains(k)))
}

/// The seed's count: both kings entered; forced when all the requester's men are in his zone
/// (or accepted by the opponent); both at 24 or more: draw, otherwise the one below loses.
fn count24(position: &ShogiPosition, accepted: bool) -> Result<Outcome, MoveError> {
    let us = position.turn();
    if !both_kings_entered(position) {
        return Err(MoveError::Illegal(
            "count: both kings must be in their zones".into(),
        ));
    }
    let forced = sf::inside(position.pieces_of(us), sf::region(position, "zone", us));
    if !forced && !accepted {
        return Err(MoveError::Illegal(
            "count: not all your pieces are in your zone, so the opponent must accept (count-accepted)".into(),
        ));
    }
    let total =
        |p: Player| board_points(position, p, position.spec().cells) + hand_points(position, p);
    let (black, white) = (total(0), total(1));
    Ok(if black >= 24 && white >= 24 {
        Outcome::draw(2, Reason::Impasse)
    } else if black < 24 {
        Outcome::loss(2, 0, Reason::Impasse)
    } else {
        Outcome::loss(2, 1, Reason::Impasse)
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Declaration {
    TwentySeven,
    TwentyFour,
}

/// An impasse declaration by the player to move, judged on the position.
fn declare(position: &ShogiPosition, rule: Declaration) -> Outcome {
    let us = position.turn();
    let zone = sf::region(position, "zone", us);
    let king_in = sf::king(position, us).is_some_and(|k| zone.contains(k));
    let others_in = (position.pieces_of(us) & zone).count() - u32::from(king_in);
    let conditions = king_in && others_in >= 10 && !position.is_check();
    let points = board_points(position, us, zone) + hand_points(position, us);
    let lose = Outcome::loss(2, us as usize, Reason::Declaration);
    let win = Outcome::win(2, us as usize, Reason::Declaration);
    if !conditions {
        return lose;
    }
    match rule {
        Declaration::TwentySeven => {
            let needed = if us == 0 { 28 } else { 27 };
            if points >= needed { win } else { lose }
        }
        Declaration::TwentyFour => match points {
            31.. => win,
            24..=30 => Outcome::draw(2, Reason::Declaration),
            _ => lose,
        },
    }
}

/// CSA piece codes in kind order (K R B G S N L P +R +B +S +N +L +P).
pub const CSA_PIECES: [&str; 14] = [
    "OU", "HI", "KA", "KI", "GI", "KE", "KY", "FU", "RY", "UM", "NG", "NK", "NY", "TO",
];

/// KIF piece names in kind order, as Kifu for Windows writes them in moves.
pub const KIF_PIECES: [&str; 14] = [
    "玉", "飛", "角", "金", "銀", "桂", "香", "歩", "龍", "馬", "成銀", "成桂", "成香", "と",
];

/// Other spellings of KIF piece names, and what they stand for.
const KIF_ALIASES: [(&str, &str); 5] = [
    ("王", "玉"),
    ("竜", "龍"),
    ("全", "成銀"),
    ("圭", "成桂"),
    ("杏", "成香"),
];

/// Full-width file digits 1 to 9.
const KIF_FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
/// Kanji rank numbers 1 (rank a) to 9 (rank i).
const KIF_RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// File (1-9, from Black's right) and rank (1-9, rank a = 1) of a cell.
fn file_rank(position: &ShogiPosition, cell: chaturanga_geometry::Cell) -> (usize, usize) {
    let g = &position.spec().geometry;
    let (x, y) = g.coords(cell);
    ((9 - x) as usize, (9 - y) as usize)
}

/// The move in CSA notation: `+7776FU`, `-3334FU`, `+2822UM` (the piece after the move),
/// drops from `00`: `+0055FU`.
pub fn to_csa(position: &ShogiPosition, mv: Move) -> String {
    let sign = if position.turn() == 0 { '+' } else { '-' };
    let (tf, tr) = file_rank(position, mv.to);
    let from = if mv.special == Special::Drop {
        "00".to_string()
    } else {
        let (ff, fr) = file_rank(position, mv.from);
        format!("{ff}{fr}")
    };
    let piece = CSA_PIECES[mv.promotion.unwrap_or(mv.kind) as usize];
    format!("{sign}{from}{tf}{tr}{piece}")
}

/// Reads a CSA move (`+7776FU`; the sign may be left out, and then means the player to move).
pub fn parse_csa(position: &ShogiPosition, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.is_empty() || text.len() > 8 || !text.is_ascii() {
        return Err(MoveError::Malformed(excerpt(text)));
    }
    let sign = if position.turn() == 0 { "+" } else { "-" };
    let body = match text.strip_prefix(['+', '-']) {
        Some(body) if !text.starts_with(sign) => {
            return Err(MoveError::Illegal(format!(
                "{} (the other player is to move)",
                excerpt(body)
            )));
        }
        Some(body) => body,
        None => text,
    };
    let bytes = body.as_bytes();
    let well_formed = bytes.len() == 6
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && CSA_PIECES.contains(&&body[4..]);
    if !well_formed {
        return Err(MoveError::Malformed(excerpt(text)));
    }
    let wanted = format!("{sign}{body}");
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .into_iter()
        .find(|&m| to_csa(position, m) == wanted)
        .ok_or_else(|| MoveError::Illegal(excerpt(text)))
}

/// The move in KIF notation as Kifu for Windows writes it: `７六歩(77)`, `２二角成(88)`,
/// `２二角不成(88)` (an optional promotion declined), `５五歩打`.
pub fn to_kif(position: &ShogiPosition, mv: Move) -> String {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    kif_among(position, mv, &moves)
}

/// [`to_kif`] with the legal moves of the position already listed.
fn kif_among(position: &ShogiPosition, mv: Move, legal: &[Move]) -> String {
    let (tf, tr) = file_rank(position, mv.to);
    let mut s = format!(
        "{}{}{}",
        KIF_FILES[tf - 1],
        KIF_RANKS[tr - 1],
        KIF_PIECES[mv.kind as usize]
    );
    if mv.special == Special::Drop {
        s.push('打');
        return s;
    }
    if mv.promotion.is_some() {
        s.push('成');
    } else if legal
        .iter()
        .any(|m| m.from == mv.from && m.to == mv.to && m.promotion.is_some())
    {
        s.push_str("不成");
    }
    let (ff, fr) = file_rank(position, mv.from);
    s.push_str(&format!("({ff}{fr})"));
    s
}

/// The comparison key of a KIF move: other piece spellings replaced, `不成` dropped (a move
/// without `成` does not promote), ASCII destination digits made full-width.
fn kif_key(text: &str) -> String {
    let mut key: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .map(|(i, c)| match c {
            '1'..='9' if i == 0 => KIF_FILES[(c as u8 - b'1') as usize],
            '（' => '(',
            '）' => ')',
            c => c,
        })
        .collect();
    for (alias, name) in KIF_ALIASES {
        key = key.replace(alias, name);
    }
    key.replace("不成", "")
}

/// Reads a KIF move (`７六歩(77)`, `２二角成(88)`, `２二角不成(88)`, `５五歩打`; also `王`,
/// `竜`, `全`, `圭`, `杏`). `同` needs the previous move: game records resolve it.
pub fn parse_kif(position: &ShogiPosition, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.is_empty() || text.len() > 48 {
        return Err(MoveError::Malformed(excerpt(text)));
    }
    if text.starts_with('同') {
        return Err(MoveError::Malformed(format!(
            "{} (同 needs the previous move's destination)",
            excerpt(text)
        )));
    }
    let wanted = kif_key(text);
    let mut chars = wanted.chars();
    let well_formed = chars.next().is_some_and(|c| KIF_FILES.contains(&c))
        && chars.next().is_some_and(|c| KIF_RANKS.contains(&c));
    if !well_formed {
        return Err(MoveError::Malformed(excerpt(text)));
    }
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .copied()
        .find(|&m| kif_key(&kif_among(position, m, &moves)) == wanted)
        .ok_or_else(|| MoveError::Illegal(excerpt(text)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_rules::Ruleset;

    fn at(sfen: &str) -> ShogiPosition {
        let o = RuleOptions::parse::<&str>(Shogi::option_specs(), &[]).unwrap();
        ShogiPosition::from_fen_with(&o, sfen).unwrap()
    }

    #[test]
    fn csa_and_kif_of_opening_moves() {
        let p = at(START_SFEN);
        let both = |usi: &str| {
            let m = p.parse_move(usi).unwrap();
            (to_csa(&p, m), to_kif(&p, m))
        };
        assert_eq!(both("7g7f"), ("+7776FU".into(), "７六歩(77)".into()));
        assert_eq!(both("2h5h"), ("+2858HI".into(), "５八飛(28)".into()));
        assert_eq!(both("5i4h"), ("+5948OU".into(), "４八玉(59)".into()));
        assert_eq!(p.notations(), ["csa", "kif", "western"]);
        assert_eq!(
            p.write_move("kif", p.parse_move("1i1h").unwrap())
                .as_deref(),
            Some("１八香(19)")
        );
        assert_eq!(p.write_move("wxf", p.parse_move("1i1h").unwrap()), None);
        for text in ["+7776FU", "7776FU", "７六歩(77)", "7六歩（77）"] {
            let notation = if text.is_ascii() { "csa" } else { "kif" };
            assert_eq!(
                p.move_text(p.read_move(notation, text).unwrap()),
                "7g7f",
                "{text}"
            );
        }
        assert!(matches!(
            p.read_move("csa", "-3334FU"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            p.read_move("csa", "+7775FU"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            p.read_move("csa", "+77X6FU"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            p.read_move("kif", "７五歩(77)"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            p.read_move("kif", "同　歩(77)"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            p.read_move("kif", "歩"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            p.read_move("wxf", "C2=5"),
            Err(MoveError::Malformed(_))
        ));
    }

    #[test]
    fn promotions_drops_and_white_moves() {
        // Black's bishop can take on 2b, promoting or not; White holds a pawn and a silver.
        let p = at("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        let m = |usi: &str| p.parse_move(usi).unwrap();
        assert_eq!(to_csa(&p, m("8h2b+")), "+8822UM");
        assert_eq!(to_kif(&p, m("8h2b+")), "２二角成(88)");
        assert_eq!(to_csa(&p, m("8h2b")), "+8822KA");
        assert_eq!(to_kif(&p, m("8h2b")), "２二角不成(88)");
        assert_eq!(p.move_text(parse_kif(&p, "２二角(88)").unwrap()), "8h2b");
        assert_eq!(
            p.move_text(parse_kif(&p, "２二角不成(88)").unwrap()),
            "8h2b"
        );
        assert_eq!(p.move_text(parse_kif(&p, "２二角成(88)").unwrap()), "8h2b+");
        assert_eq!(p.move_text(parse_csa(&p, "+8822UM").unwrap()), "8h2b+");
        // White to move with pieces in hand; a promoted silver and a dragon on the board.
        let w = at("lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL w BSp 10");
        let m = |usi: &str| w.parse_move(usi).unwrap();
        assert_eq!(to_csa(&w, m("P*8e")), "-0085FU");
        assert_eq!(to_kif(&w, m("P*8e")), "８五歩打");
        assert_eq!(to_csa(&w, m("2h2i")), "-2829RY");
        assert_eq!(to_kif(&w, m("2h2i")), "２九龍(28)");
        assert_eq!(w.move_text(parse_kif(&w, "２九竜(28)").unwrap()), "2h2i");
        assert_eq!(w.move_text(parse_csa(&w, "-0085FU").unwrap()), "P*8e");
        assert!(matches!(
            parse_csa(&w, "+0085FU"),
            Err(MoveError::Illegal(_))
        ));
        let b = at("lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL b BSp 11");
        let m = |usi: &str| b.parse_move(usi).unwrap();
        assert_eq!(to_csa(&b, m("3b4a")), "+3241NG");
        assert_eq!(to_kif(&b, m("3b4a")), "４一成銀(32)");
        assert_eq!(b.move_text(parse_kif(&b, "４一全(32)").unwrap()), "3b4a");
        assert_eq!(to_kif(&b, m("S*5e")), "５五銀打");
    }

    #[test]
    fn compulsory_promotion_has_no_declined_form() {
        // The pawn on 3b must promote on 3a: no 不成 alternative is written.
        let p = at("4k4/6P2/9/7N1/9/9/9/9/4K4 b - 1");
        let m = p.parse_move("3b3a+").unwrap();
        assert_eq!(to_kif(&p, m), "３一歩成(32)");
        assert_eq!(to_kif(&p, p.parse_move("2d1b+").unwrap()), "１二桂成(24)");
        // Leaving the zone with a silver: promotion is optional both ways.
        let s = at("4k4/9/5S3/9/9/9/9/9/4K4 b - 1");
        assert_eq!(to_kif(&s, s.parse_move("4c5d").unwrap()), "５四銀不成(43)");
        assert_eq!(to_kif(&s, s.parse_move("4c5d+").unwrap()), "５四銀成(43)");
        assert_eq!(to_kif(&s, s.parse_move("5i5h").unwrap()), "５八玉(59)");
    }
}
