//! KIF game records as Kifu for Windows writes them: header items (`開始日時：`, `棋戦：`,
//! `持ち時間：`), the start position as `手合割：平手` (or another handicap) or as a board
//! diagram (BOD), the players (`先手：`, `後手：`), numbered moves (`   1 ７六歩(77)`, `同　歩(23)`
//! onto the previous move's destination), and the closing lines (`  65 投了`,
//! `まで64手で先手の勝ち`). What a front end knows of the game becomes the items of
//! [`header`].
//!
//! Moves are written and read by the ruleset's `kif` notation ([`Position::write_move`]); the
//! record adds `同` and converts the diagram to and from SFEN. Rule options not at their
//! defaults are a header item of their own, `RuleOptions：impasse=declare27` (other readers
//! keep unknown items as information). Records are Unicode text here: [`crate::files`]
//! decodes and encodes `.kif` files (Shift_JIS) and `.kifu` files (UTF-8). Times, comments
//! (`*`), bookmarks (`&`) and variations (`変化：` and what follows) are skipped when reading.

use crate::occasion::{Occasion, TimeLimit, seconds_text};
use crate::record::{
    self, Ending, Grid, MAX_IN_HAND, MAX_MOVES, MAX_RECORD_LEN, RecordError, RecordGame, Tags,
};
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset};
use std::time::Duration;

const FORMAT: &str = "KIF";
const NOTATION: &str = "kif";

/// The move-list header line.
pub const MOVES_HEADER: &str = "手数----指手---------消費時間--";

/// Board-diagram piece characters in SFEN kind order `K R B G S N L P +R +B +S +N +L +P`.
const BOD_PIECES: [char; 14] = [
    '玉', '飛', '角', '金', '銀', '桂', '香', '歩', '龍', '馬', '全', '圭', '杏', 'と',
];
/// Other diagram spellings: `王` (king), `竜` (dragon).
const BOD_ALIASES: [(char, usize); 2] = [('王', 0), ('竜', 8)];

const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// How a game's last numbered line may read.
const TERMINALS: [&str; 13] = [
    "中断",
    "投了",
    "持将棋",
    "千日手",
    "詰み",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "入玉宣言",
    "不戦勝",
    "不戦敗",
    "封じ手",
];

/// The handicaps of `手合割` with their start positions (the handicapped player, White,
/// moves first).
const HANDICAPS: [(&str, &str); 14] = [
    ("平手", record::STANDARD_SFEN),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// Header keys for the common tags (tag name, KIF key).
const KEYS: [(&str, &str); 5] = [
    ("Black", "先手"),
    ("White", "後手"),
    ("Event", "棋戦"),
    ("Site", "場所"),
    ("Date", "開始日時"),
];

fn side_name(player: usize) -> &'static str {
    if player == 0 { "先手" } else { "後手" }
}

/// A number in kanji (1 to 99: `一`, `十`, `十八`, `二十三`).
fn kanji_number(n: u32) -> String {
    let digit = |d: u32| RANKS[(d - 1) as usize];
    let mut s = String::new();
    let (tens, ones) = (n / 10, n % 10);
    if tens > 1 {
        s.push(digit(tens));
    }
    if tens > 0 {
        s.push('十');
    }
    if ones > 0 {
        s.push(digit(ones));
    }
    s
}

/// Reads a kanji number from 1 to 99.
fn parse_kanji_number(text: &str) -> Option<u32> {
    let value = |c: char| RANKS.iter().position(|&r| r == c).map(|i| i as u32 + 1);
    let chars: Vec<char> = text.chars().collect();
    match chars.as_slice() {
        [d] if *d != '十' => value(*d),
        ['十'] => Some(10),
        ['十', o] => Some(10 + value(*o)?),
        [t, '十'] => Some(10 * value(*t)?),
        [t, '十', o] => Some(10 * value(*t)? + value(*o)?),
        _ => None,
    }
}

/// A hand as a diagram writes it: `飛　角　歩三`, or `なし`.
fn hand_text(hand: &[u32; 7]) -> String {
    let items: Vec<String> = hand
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &n)| {
            let piece = BOD_PIECES[i + 1];
            if n == 1 {
                piece.to_string()
            } else {
                format!("{piece}{}", kanji_number(n))
            }
        })
        .collect();
    if items.is_empty() {
        "なし".to_string()
    } else {
        items.join("　")
    }
}

fn parse_hand(text: &str) -> Result<[u32; 7], String> {
    let mut hand = [0u32; 7];
    let text = text.trim();
    if text == "なし" || text.is_empty() {
        return Ok(hand);
    }
    for item in text.split(char::is_whitespace).filter(|s| !s.is_empty()) {
        let mut chars = item.chars();
        let piece = chars.next().unwrap_or(' ');
        let kind = BOD_PIECES[1..8]
            .iter()
            .position(|&p| p == piece)
            .ok_or_else(|| format!("unknown piece in hand {:?}", excerpt(item)))?;
        let rest = chars.as_str();
        let n = if rest.is_empty() {
            1
        } else {
            parse_kanji_number(rest)
                .ok_or_else(|| format!("bad count in hand {:?}", excerpt(item)))?
        };
        hand[kind] = (hand[kind] + n).min(MAX_IN_HAND);
    }
    Ok(hand)
}

/// The board diagram (BOD) of a position: hands, the 9x9 board (`v` marks White's pieces,
/// `・` empty cells), the player to move and, after the start of a game, the moves played.
fn bod(grid: &Grid) -> String {
    let mut out = format!("後手の持駒：{}\n", hand_text(&grid.hands[1]));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
    out.push_str("+---------------------------+\n");
    for (r, row) in grid.cells.iter().enumerate() {
        out.push('|');
        for cell in row {
            match cell {
                None => out.push_str(" ・"),
                Some((player, kind)) => {
                    out.push(if *player == 0 { ' ' } else { 'v' });
                    out.push(BOD_PIECES[*kind]);
                }
            }
        }
        out.push('|');
        out.push(RANKS[r]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!("先手の持駒：{}\n", hand_text(&grid.hands[0])));
    out.push_str(if grid.side == 0 {
        "先手番\n"
    } else {
        "後手番\n"
    });
    if grid.move_number > 1 {
        out.push_str(&format!("手数＝{}\n", grid.move_number - 1));
    }
    out
}

/// One row of a diagram: `|v香v桂 ・ ... |一`.
fn parse_row(line: &str) -> Result<[Option<(u8, usize)>; 9], String> {
    let inner = line
        .strip_prefix('|')
        .and_then(|l| l.split_once('|'))
        .map(|(cells, _)| cells)
        .ok_or_else(|| "a board row needs two '|'".to_string())?;
    let chars: Vec<char> = inner.chars().collect();
    if chars.len() != 18 {
        return Err(format!("a board row needs 9 cells: {:?}", excerpt(line)));
    }
    let mut row = [None; 9];
    for (i, pair) in chars.chunks(2).enumerate() {
        let player = match pair[0] {
            ' ' | '^' | '+' => 0u8,
            'v' | 'V' | '-' => 1,
            _ => {
                return Err(format!(
                    "bad board cell {:?}",
                    pair.iter().collect::<String>()
                ));
            }
        };
        if pair[1] == '・' {
            continue;
        }
        let kind = BOD_PIECES
            .iter()
            .position(|&p| p == pair[1])
            .or_else(|| {
                BOD_ALIASES
                    .iter()
                    .find(|(a, _)| *a == pair[1])
                    .map(|(_, k)| *k)
            })
            .ok_or_else(|| format!("unknown piece {:?} on the board", pair[1]))?;
        row[i] = Some((player, kind));
    }
    Ok(row)
}

/// The header items of a record of `occasion`, as [`write`] takes them, in the order Kifu for
/// Windows writes them: `開始日時` (`2026/12/07 17:03:00`, UTC), `棋戦` (the event), `場所`
/// (the site), `持ち時間` ([`time_control_words`]; `なし` without a clock), the rule options to
/// record (`RuleOptions`), the players (`先手`, `後手`: seats 0 and 1), then the occasion's
/// own tags.
pub fn header(occasion: &Occasion, recorded: &[String]) -> Tags {
    let mut tags = Tags::default();
    if let Some(started) = occasion.started {
        tags.set("Date", &started.slashed());
    }
    if let Some(event) = &occasion.event {
        tags.set("Event", event);
    }
    if let Some(site) = &occasion.site {
        tags.set("Site", site);
    }
    match occasion.clock {
        TimeLimit::Unknown => {}
        TimeLimit::Unlimited => tags.set(TIME_KEY, "なし"),
        TimeLimit::Limited(control) => tags.set(TIME_KEY, &time_control_words(&control)),
    }
    tags.set_options(recorded);
    for (tag, name) in ["Black", "White"].into_iter().zip(&occasion.players) {
        tags.set(tag, name);
    }
    for (name, value) in &occasion.tags {
        tags.set(name, value);
    }
    tags
}

/// The header key of the time control.
pub const TIME_KEY: &str = "持ち時間";

/// A duration in Japanese: `1時間30分`, `10分`, `45秒`, `3日`, `0.5秒`.
fn japanese_duration(d: Duration) -> String {
    let seconds = d.as_secs();
    if seconds >= 86_400 && seconds.is_multiple_of(86_400) && d.subsec_nanos() == 0 {
        return format!("{}日", seconds / 86_400);
    }
    let mut out = String::new();
    let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        out.push_str(&format!("{hours}時間"));
    }
    if minutes > 0 {
        out.push_str(&format!("{minutes}分"));
    }
    if rest > 0 || d.subsec_nanos() > 0 {
        let part = Duration::new(rest, d.subsec_nanos());
        out.push_str(&format!("{}秒", seconds_text(part)));
    }
    if out.is_empty() {
        out.push_str("0分");
    }
    out
}

/// `持ち時間` in words, as Japanese records write it: `10分` (sudden death), `10分+30秒`
/// (ten minutes, then thirty seconds' byo-yomi for every move), `10分+30秒×3回` (three
/// periods), `1手30秒` (a fixed time per move: byo-yomi without main time; `1手3日` by
/// correspondence), `10分+5秒加算` (a Fischer increment of five seconds a move),
/// `40手ごとに1時間30分` (moves per session).
pub fn time_control_words(control: &TimeControl) -> String {
    if let Some(per_move) = control.fixed_per_move() {
        return format!("1手{}", japanese_duration(per_move));
    }
    let mut out = japanese_duration(control.base);
    if let Some(moves) = control.moves_per_session {
        out = format!("{moves}手ごとに{out}");
    }
    if !control.increment.is_zero() {
        out.push_str(&format!("+{}加算", japanese_duration(control.increment)));
    }
    if let Some(byo_yomi) = control.byo_yomi {
        out.push_str(&format!("+{}", japanese_duration(byo_yomi.period)));
        if byo_yomi.periods != 1 {
            out.push_str(&format!("×{}回", byo_yomi.periods));
        }
    }
    out
}

/// Writes a game as KIF. `tags` become header items (`Black`, `White`, `Event`, `Site`,
/// `Date` under their KIF names: see [`header`]) before the start position, the players'
/// names after it, as Kifu for Windows places them. The ruleset needs the `kif` move
/// notation.
pub fn write<P: Position>(game: &Game<P>, tags: &Tags) -> Result<String, RecordError> {
    write_with_comments(game, tags, &[])
}

/// Like [`write`], with `comments` (the rule options in words) as comment lines on the start
/// position (`*...`), which KIF programs show with it and readers of the moves skip.
pub fn write_with_comments<P: Position>(
    game: &Game<P>,
    tags: &Tags,
    comments: &[String],
) -> Result<String, RecordError> {
    let (grid, moves) = record::moves_for(game, NOTATION, FORMAT)?;
    let mut out = String::new();
    let item = |name: &str, value: &str| {
        let key = KEYS
            .iter()
            .find(|(tag, _)| *tag == name)
            .map_or(name, |(_, key)| key);
        let key = key.replace(['：', '\n', '\r'], "");
        let value = value.replace(['\n', '\r'], " ");
        format!("{key}：{value}\n")
    };
    let is_player = |name: &str| name == "Black" || name == "White";
    for (name, value) in tags.0.iter().filter(|(name, _)| !is_player(name)) {
        out.push_str(&item(name, value));
    }
    let sfen = grid.to_sfen();
    match HANDICAPS.iter().find(|(_, s)| *s == sfen) {
        Some((name, _)) => out.push_str(&format!("手合割：{name}\n")),
        None => out.push_str(&bod(&grid)),
    }
    for (name, value) in tags.0.iter().filter(|(name, _)| is_player(name)) {
        out.push_str(&item(name, value));
    }
    for comment in comments {
        out.push('*');
        out.push_str(&comment.replace(['\n', '\r'], " "));
        out.push('\n');
    }
    out.push_str(MOVES_HEADER);
    out.push('\n');
    let first = grid.move_number;
    let mut previous: Option<String> = None;
    for (i, text) in moves.iter().enumerate() {
        let destination: String = text.chars().take(2).collect();
        let shown = if previous.as_deref() == Some(destination.as_str()) {
            format!("同　{}", text.chars().skip(2).collect::<String>())
        } else {
            text.clone()
        };
        out.push_str(&format!("{:>4} {shown}\n", first as usize + i));
        previous = Some(destination);
    }
    if let Some(ending) = record::ending(game) {
        let last = first as usize + moves.len() - 1;
        let (word, closing) = match ending {
            Ending::Checkmate { winner } => ("詰み", format!("{}の勝ち", side_name(winner))),
            Ending::Resignation { winner } => ("投了", format!("{}の勝ち", side_name(winner))),
            Ending::Sennichite => ("千日手", "千日手".to_string()),
            Ending::PerpetualCheck { winner } => {
                ("反則勝ち", format!("{}の反則勝ち", side_name(winner)))
            }
            Ending::Declared { winner } => ("入玉勝ち", format!("{}の入玉勝ち", side_name(winner))),
            Ending::FailedDeclaration { winner } => {
                ("反則負け", format!("{}の反則負け", side_name(1 - winner)))
            }
            Ending::Impasse {
                winner: Some(winner),
            } => ("持将棋", format!("{}の勝ち", side_name(winner))),
            Ending::Impasse { winner: None } | Ending::Draw => ("持将棋", "持将棋".to_string()),
        };
        out.push_str(&format!("{:>4} {word}\n", last + 1));
        out.push_str(&format!("まで{last}手で{closing}\n"));
    }
    Ok(out)
}

/// Reads a KIF record: one game (none for text without any header or move).
pub fn parse(text: &str) -> Result<Vec<RecordGame>, RecordError> {
    if text.len() > MAX_RECORD_LEN {
        return Err(RecordError::TooLarge {
            format: FORMAT,
            len: text.len(),
        });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut game = RecordGame::default();
    let mut seen = false;
    let mut handicap: Option<&'static str> = None;
    let mut board: Vec<[Option<(u8, usize)>; 9]> = Vec::new();
    let mut hands = [[0u32; 7]; 2];
    let mut side = 0u8;
    let mut played_before: Option<u32> = None;
    let mut previous_destination: Option<String> = None;
    for (n, raw) in text.lines().enumerate() {
        let syntax = |message: String| RecordError::Syntax {
            format: FORMAT,
            line: n + 1,
            message,
        };
        let line = raw.trim();
        if line.is_empty() || line.starts_with(['#', '*', '&']) {
            continue;
        }
        seen = true;
        if line.starts_with("変化：") {
            break;
        }
        if line.starts_with("まで") {
            game.result = Some(line.to_string());
            continue;
        }
        if line.starts_with("手数----") || line.starts_with("手数－") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("手数＝") {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            played_before = Some(
                digits
                    .parse::<u32>()
                    .ok()
                    .filter(|&d| d < MAX_MOVES as u32 * 10)
                    .ok_or_else(|| syntax(format!("bad move count {:?}", excerpt(rest))))?,
            );
            continue;
        }
        match line {
            "先手番" | "下手番" => {
                side = 0;
                continue;
            }
            "後手番" | "上手番" => {
                side = 1;
                continue;
            }
            _ => {}
        }
        if line.starts_with('|') {
            if board.len() == 9 {
                return Err(syntax("more than 9 board rows".to_string()));
            }
            board.push(parse_row(raw.trim_start()).map_err(syntax)?);
            continue;
        }
        if line.chars().all(|c| c == '+' || c == '-')
            || line
                .chars()
                .all(|c| FILES.contains(&c) || c.is_whitespace())
        {
            continue;
        }
        if line.starts_with(|c: char| c.is_ascii_digit()) {
            let rest = line
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start();
            if rest.is_empty() {
                return Err(syntax("a move number without a move".to_string()));
            }
            if game.end.is_some() {
                return Err(syntax("a move after the end of the game".to_string()));
            }
            let (same, body) = match rest.strip_prefix('同') {
                Some(body) => (true, body.trim_start()),
                None => (false, rest),
            };
            let token = body
                .split(char::is_whitespace)
                .next()
                .unwrap_or("")
                .trim_end_matches('+');
            if !same && TERMINALS.contains(&token) {
                game.end = Some(token.to_string());
                continue;
            }
            let mv = if same {
                let destination = previous_destination
                    .as_deref()
                    .ok_or_else(|| syntax("同 without a previous move".to_string()))?;
                format!("{destination}{token}")
            } else {
                token.to_string()
            };
            if mv.is_empty() || mv.len() > 64 {
                return Err(syntax(format!("bad move {:?}", excerpt(rest))));
            }
            if game.moves.len() >= MAX_MOVES {
                return Err(syntax("too many moves in one game".to_string()));
            }
            previous_destination = Some(mv.chars().take(2).collect());
            game.moves.push(mv);
            continue;
        }
        if let Some((key, value)) = line.split_once('：') {
            let value = value.trim();
            match key.trim() {
                "手合割" => {
                    let sfen = HANDICAPS
                        .iter()
                        .find(|(name, _)| *name == value)
                        .map(|(_, sfen)| *sfen)
                        .ok_or_else(|| syntax(format!("unknown handicap {:?}", excerpt(value))))?;
                    handicap = Some(sfen);
                }
                "先手の持駒" | "下手の持駒" => {
                    hands[0] = parse_hand(value).map_err(syntax)?
                }
                "後手の持駒" | "上手の持駒" => {
                    hands[1] = parse_hand(value).map_err(syntax)?
                }
                key => {
                    let key = match key {
                        "下手" => "先手",
                        "上手" => "後手",
                        k => k,
                    };
                    let name = KEYS
                        .iter()
                        .find(|(_, k)| *k == key)
                        .map_or(key, |(tag, _)| tag);
                    if game.tags.0.len() >= 256 {
                        return Err(syntax("too many header items".to_string()));
                    }
                    game.tags.set(name, value);
                }
            }
            continue;
        }
        return Err(syntax(format!("unrecognised line {:?}", excerpt(line))));
    }
    if !seen {
        return Ok(Vec::new());
    }
    let grid = if board.is_empty() {
        Grid::from_sfen(handicap.unwrap_or(record::STANDARD_SFEN)).map_err(|message| {
            RecordError::Syntax {
                format: FORMAT,
                line: 1,
                message,
            }
        })?
    } else {
        if board.len() != 9 {
            return Err(RecordError::Syntax {
                format: FORMAT,
                line: text.lines().count(),
                message: format!("the board has {} rows, not 9", board.len()),
            });
        }
        let mut grid = Grid::empty();
        for (r, row) in board.iter().enumerate() {
            grid.cells[r] = *row;
        }
        grid.hands = hands;
        grid.side = side;
        grid.move_number = played_before.map_or(1, |p| p + 1);
        grid
    };
    if !grid.is_standard() {
        game.start = Some(grid.to_sfen());
    }
    Ok(vec![game])
}

/// Plays a parsed game's moves from its start position (see [`record::RecordGame`]).
pub fn replay<P: Ruleset>(
    game: &RecordGame,
    options: &RuleOptions,
) -> Result<Game<P>, RecordError> {
    record::replay(game, options, NOTATION)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::shogi_games::{game_from, options};
    use chaturanga_rules::{Reason, Status};
    use chaturanga_variants::shogi::ShogiPosition;

    fn usi(game: &Game<ShogiPosition>) -> Vec<String> {
        game.positions()
            .iter()
            .zip(game.moves())
            .map(|(p, &m)| p.move_text(m))
            .collect()
    }

    /// Captures (and recaptures onto the same cell: 同), promotions, a declined promotion
    /// and drops.
    const MOVES: [&str; 12] = [
        "7g7f", "3c3d", "8h2b", "3a2b", "B*4e", "6c6d", "4e6c+", "6a6b", "6c6b", "7a6b", "G*3c",
        "B*5e",
    ];

    #[test]
    fn round_trip_with_captures_promotions_drops_and_same() {
        let game = game_from(None, &MOVES);
        let mut tags = Tags::default();
        tags.set("Black", "Sente");
        tags.set("White", "Gote");
        let text = write(&game, &tags).unwrap();
        let expected = "手合割：平手\n先手：Sente\n後手：Gote\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角不成(88)\n   4 同　銀(31)\n   5 ４五角打\n   6 ６四歩(63)\n   7 ６三角成(45)\n   8 ６二金(61)\n   9 同　馬(63)\n  10 同　銀(71)\n  11 ３三金打\n  12 ５五角打\n";
        assert_eq!(text, expected);
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].start, None);
        assert_eq!(parsed[0].tags.get("Black"), Some("Sente"));
        assert_eq!(parsed[0].moves[3], "２二銀(31)");
        let again: Game<ShogiPosition> = replay(&parsed[0], &options()).unwrap();
        assert_eq!(usi(&again), MOVES);
        assert_eq!(again.position().fen(), game.position().fen());
    }

    /// Rule options are a header item of their own, read back as the tag.
    #[test]
    fn options_header() {
        let mut tags = Tags::default();
        tags.set("Black", "A");
        tags.set_options(&["impasse=declare27".to_string(), "max-plies=0".to_string()]);
        let text = write(&game_from(None, &["7g7f"]), &tags).unwrap();
        assert!(
            text.starts_with("RuleOptions：impasse=declare27 max-plies=0\n手合割：平手\n先手：A\n"),
            "{text}"
        );
        let parsed = parse(&text).unwrap();
        assert_eq!(
            parsed[0].tags.options(),
            ["impasse=declare27", "max-plies=0"]
        );
        assert_eq!(
            write(&game_from(None, &["7g7f"]), &parsed[0].tags).unwrap(),
            text
        );
    }

    /// What the front end knows of the game becomes Kifu for Windows' header items, the rule
    /// options in words comments on the start; all read back.
    #[test]
    fn occasion_header_and_comments() {
        let occasion = crate::occasion::shogi_sample();
        let tags = header(&occasion, &["impasse=declare27".to_string()]);
        let comments = ["impasse=declare27 (declare27: the 27-point declaration)".to_string()];
        let mut game = game_from(None, &["7g7f"]);
        game.end(chaturanga_rules::Outcome::loss(2, 1, Reason::Resignation));
        let text = write_with_comments(&game, &tags, &comments).unwrap();
        assert_eq!(
            text,
            "開始日時：2026/12/07 17:03:00\n棋戦：Casual Shogi game\n\
             場所：https://example.org/games/abc\n持ち時間：10分+30秒\n\
             RuleOptions：impasse=declare27\n手合割：平手\n先手：Anonymous\n\
             後手：Chaturanga level 3\n*impasse=declare27 (declare27: the 27-point declaration)\n\
             手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n"
        );
        let parsed = &parse(&text).unwrap()[0];
        for (name, value) in [
            ("Date", "2026/12/07 17:03:00"),
            ("Event", "Casual Shogi game"),
            ("Site", "https://example.org/games/abc"),
            (TIME_KEY, "10分+30秒"),
            ("Black", "Anonymous"),
            ("White", "Chaturanga level 3"),
        ] {
            assert_eq!(parsed.tags.get(name), Some(value), "{name}");
        }
        assert_eq!(parsed.tags.options(), ["impasse=declare27"]);
        let again: Game<ShogiPosition> = replay(parsed, &options()).unwrap();
        assert_eq!(again.moves(), game.moves());
        assert_eq!(again.status(), game.status());
        // Nothing known, nothing written; no clock is なし.
        assert!(header(&Occasion::default(), &[]).0.is_empty());
        let untimed = Occasion {
            clock: TimeLimit::Unlimited,
            ..Occasion::default()
        };
        assert_eq!(header(&untimed, &[]).get(TIME_KEY), Some("なし"));
    }

    #[test]
    fn time_control_in_words() {
        let s = Duration::from_secs;
        for (control, words) in [
            (TimeControl::fischer(s(600), Duration::ZERO), "10分"),
            (TimeControl::fischer(s(5400), s(5)), "1時間30分+5秒加算"),
            (TimeControl::byo_yomi(s(600), s(30), 1), "10分+30秒"),
            (TimeControl::byo_yomi(s(3600), s(60), 3), "1時間+1分×3回"),
            (
                TimeControl::byo_yomi(Duration::ZERO, s(30), 2),
                "0分+30秒×2回",
            ),
            (TimeControl::per_move(s(30)), "1手30秒"),
            (TimeControl::per_move(s(3 * 86_400)), "1手3日"),
            (
                TimeControl::fischer(s(90), Duration::from_millis(500)),
                "1分30秒+0.5秒加算",
            ),
            (TimeControl::sessions(40, s(5400)), "40手ごとに1時間30分"),
        ] {
            assert_eq!(time_control_words(&control), words);
        }
    }

    #[test]
    fn non_standard_start_through_a_board_diagram() {
        let sfen = "lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL w BS2p 1";
        let game = game_from(Some(sfen), &["P*8e", "S*5e", "2h2i"]);
        let text = write(&game, &Tags::default()).unwrap();
        assert!(text.starts_with("後手の持駒：歩二\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n|v香v桂v銀v金v玉 ・ ・v桂v香|一\n| ・v飛 ・ ・ ・ ・ 全 ・ ・|二\n"), "{text}");
        assert!(text.contains("| ・ ・ ・ ・ ・ ・ ・v龍 ・|八\n"), "{text}");
        assert!(
            text.contains("先手の持駒：角　銀\n後手番\n手数----"),
            "{text}"
        );
        assert!(
            text.contains("   1 ８五歩打\n   2 ５五銀打\n   3 ２九龍(28)\n"),
            "{text}"
        );
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed[0].start.as_deref(), Some(sfen));
        let again: Game<ShogiPosition> = replay(&parsed[0], &options()).unwrap();
        assert_eq!(again.moves(), game.moves());
        assert_eq!(again.position().fen(), game.position().fen());
        // A later move number survives as 手数＝.
        let later = game_from(Some(&sfen.replace(" 1", " 31")), &["P*8e"]);
        let text = write(&later, &Tags::default()).unwrap();
        assert!(text.contains("後手番\n手数＝30\n手数----"), "{text}");
        assert!(text.contains("  31 ８五歩打\n"), "{text}");
        let again: Game<ShogiPosition> = replay(&parse(&text).unwrap()[0], &options()).unwrap();
        assert_eq!(again.position().fen(), later.position().fen());
    }

    #[test]
    fn endings() {
        // Checkmate: 詰み.
        let mate = game_from(Some("7nk/9/7G1/9/9/9/9/9/K8 b G 1"), &["G*1b"]);
        let text = write(&mate, &Tags::default()).unwrap();
        assert!(
            text.ends_with("   1 １二金打\n   2 詰み\nまで1手で先手の勝ち\n"),
            "{text}"
        );
        // Resignation: 投了, read back as a resignation.
        let mut resigned = game_from(None, &["7g7f"]);
        resigned.end(chaturanga_rules::Outcome::loss(2, 1, Reason::Resignation));
        let text = write(&resigned, &Tags::default()).unwrap();
        assert!(text.ends_with("   2 投了\nまで1手で先手の勝ち\n"), "{text}");
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed[0].end.as_deref(), Some("投了"));
        assert_eq!(parsed[0].result.as_deref(), Some("まで1手で先手の勝ち"));
        let again: Game<ShogiPosition> = replay(&parsed[0], &options()).unwrap();
        assert!(
            matches!(again.status(), Status::Over(o) if o.reason == Reason::Resignation && o.quarters == [4, 0])
        );
        // Sennichite: 千日手.
        let cycle = ["5i4h", "5a6b", "4h5i", "6b5a"];
        let twelve: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let text = write(&game_from(None, &twelve), &Tags::default()).unwrap();
        assert!(text.ends_with("  13 千日手\nまで12手で千日手\n"), "{text}");
        // Perpetual check: the checker (Black) loses.
        let cycle = ["5e4e", "4a5a", "4e5e", "5a4a"];
        let twelve: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let text = write(
            &game_from(Some("5k3/9/9/9/4R4/9/9/9/K8 b - 1"), &twelve),
            &Tags::default(),
        )
        .unwrap();
        assert!(
            text.ends_with("  13 反則勝ち\nまで12手で後手の反則勝ち\n"),
            "{text}"
        );
    }

    #[test]
    fn reads_kifu_for_windows_text() {
        let text = "\u{feff}# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----\r\n開始日時：2024/01/01 10:00:00\r\n手合割：平手　　\r\n先手：A\r\n後手：B\r\n手数----指手---------消費時間--\r\n   1 ７六歩(77)   ( 0:01/00:00:01)\r\n*comment\r\n   2 ３四歩(33)   ( 0:02/00:00:02)\r\n   3 ２二角成(88)+  ( 0:03/00:00:04)\r\n   4 同　銀(31)   ( 0:01/00:00:03)\r\n   5 ４五角打     ( 0:01/00:00:05)\r\n   6 投了\r\nまで5手で先手の勝ち\r\n\r\n変化：3手\r\n   3 ６六歩(67)\r\n";
        let parsed = parse(text).unwrap();
        let g = &parsed[0];
        assert_eq!(g.tags.get("Date"), Some("2024/01/01 10:00:00"));
        assert_eq!(g.tags.get("White"), Some("B"));
        assert_eq!(
            g.moves,
            [
                "７六歩(77)",
                "３四歩(33)",
                "２二角成(88)",
                "２二銀(31)",
                "４五角打"
            ]
        );
        let game: Game<ShogiPosition> = replay(g, &options()).unwrap();
        assert_eq!(usi(&game), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert!(matches!(game.status(), Status::Over(o) if o.quarters == [4, 0]));
        // A handicap: White (the handicap giver) moves first.
        let handicap = parse("手合割：角落ち\n   1 ３四歩(33)\n").unwrap();
        let game: Game<ShogiPosition> = replay(&handicap[0], &options()).unwrap();
        assert_eq!(
            game.position().fen(),
            "lnsgkgsnl/1r7/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2"
        );
    }

    #[test]
    fn errors() {
        let syntax = |text: &str| matches!(parse(text), Err(RecordError::Syntax { .. }));
        assert!(syntax("手合割：謎\n"));
        assert!(syntax("   1 同　歩(23)\n"));
        assert!(syntax("   1 ７六歩(77)\n   2 投了\n   3 ３四歩(33)\n"));
        assert!(syntax("something\n"));
        assert!(syntax("|v香v桂|一\n"));
        assert!(syntax("| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n"));
        assert!(syntax("後手の持駒：象\n"));
        assert!(syntax("後手の持駒：歩百\n"));
        assert!(syntax("   7\n"));
        assert!(parse("").unwrap().is_empty());
        assert!(matches!(
            parse(&" ".repeat(MAX_RECORD_LEN + 1)),
            Err(RecordError::TooLarge { .. })
        ));
        let bad = parse("   1 ７五歩(77)\n").unwrap();
        assert!(matches!(
            replay::<ShogiPosition>(&bad[0], &options()),
            Err(RecordError::Move { ply: 1, .. })
        ));
        // Only rulesets with the kif notation have KIF records.
        let chess = chaturanga_variants::chess::ChessPosition::start_position(
            &RuleOptions::parse::<&str>(
                chaturanga_variants::chess::ChessPosition::option_specs(),
                &[],
            )
            .unwrap(),
        )
        .unwrap();
        assert!(matches!(
            write(&Game::new(chess), &Tags::default()),
            Err(RecordError::Unsupported(_))
        ));
    }

    #[test]
    fn damaged_text_gives_errors_not_panics() {
        let sfen = "lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL w BS2p 1";
        let mut tags = Tags::default();
        tags.set("Black", "A");
        let mut texts = vec![write(&game_from(None, &MOVES), &tags).unwrap()];
        texts.push(write(&game_from(Some(sfen), &["P*8e", "S*5e"]), &tags).unwrap());
        for text in texts {
            let chars: Vec<(usize, char)> = text.char_indices().collect();
            for (i, &(at, c)) in chars.iter().enumerate() {
                let replacement = ["", "x", "9", "|", "同", "　", "\n", "+", "%"][i % 9];
                let damaged = [
                    text[..at].to_string(),
                    format!("{}{replacement}{}", &text[..at], &text[at + c.len_utf8()..]),
                ];
                for d in damaged {
                    if let Ok(games) = parse(&d) {
                        for g in games {
                            let _ = replay::<ShogiPosition>(&g, &options());
                        }
                    }
                }
            }
        }
    }
}
