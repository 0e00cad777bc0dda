//! CSA game records (CSA standard file format V2.2): `V2.2`, player names (`N+`, `N-`),
//! `$` items, the start position (`PI` for the standard start, otherwise `P1`..`P9` rows,
//! `P+`/`P-` pieces in hand and the `+`/`-` player to move), one move per line (`+7776FU`) and
//! the ending (`%TORYO`, `%TSUMI`, `%SENNICHITE`, `%KACHI`, ...).
//!
//! Moves are written and read by the ruleset's `csa` notation ([`Position::write_move`]); the
//! record converts the position to and from SFEN. Reading also takes several games separated
//! by `/`, statements joined by `,`, times (`T12`), comments (`'`), `PI` with pieces removed
//! (`PI82HI22KA`) and `P+` / `P-` placements on the board and `00AL` (the rest in hand).
//!
//! Rule options not at their defaults are a comment line, `'RuleOptions:impasse=declare27`,
//! which other readers skip and ours reads back as the `RuleOptions` tag; so is a time control
//! no item can say (`'TimeControl:600+0|30x3`, PGN's form). What a front end knows of the
//! game (players, event, site, start, clock) becomes the items of [`header`].

use crate::occasion::{self, Occasion, TimeLimit};
use crate::pgn::{self, OPTIONS_TAG};
use crate::record::{
    self, Ending, Grid, MAX_IN_HAND, MAX_MOVES, MAX_RECORD_LEN, RecordError, RecordGame, Tags,
};
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset};

const FORMAT: &str = "CSA";
const NOTATION: &str = "csa";

/// CSA piece codes in SFEN kind order `K R B G S N L P +R +B +S +N +L +P`.
const PIECES: [&str; 14] = [
    "OU", "HI", "KA", "KI", "GI", "KE", "KY", "FU", "RY", "UM", "NG", "NK", "NY", "TO",
];

/// How many pieces of each hand kind (`R B G S N L P`) a set has.
const SET: [u32; 7] = [2, 2, 4, 4, 4, 4, 18];

/// Header items for the common tags (tag name, CSA item).
const KEYS: [(&str, &str); 5] = [
    ("Black", "N+"),
    ("White", "N-"),
    ("Event", "$EVENT"),
    ("Site", "$SITE"),
    ("Date", "$START_TIME"),
];

/// The unpromoted kind (1 to 7, `R` to `P`) a kind goes to hand as; 0 for the king.
fn base_kind(kind: usize) -> usize {
    match kind {
        8 => 1,
        9 => 2,
        10 => 4,
        11 => 5,
        12 => 6,
        13 => 7,
        k => k,
    }
}

fn sign(player: u8) -> char {
    if player == 0 { '+' } else { '-' }
}

/// The position as `P1`..`P9` rows, `P+` / `P-` hands and the player to move.
fn position_lines(grid: &Grid) -> String {
    let mut out = String::new();
    for (r, row) in grid.cells.iter().enumerate() {
        out.push_str(&format!("P{}", r + 1));
        for cell in row {
            match cell {
                None => out.push_str(" * "),
                Some((player, kind)) => {
                    out.push(sign(*player));
                    out.push_str(PIECES[*kind]);
                }
            }
        }
        out.push('\n');
    }
    for player in 0..2u8 {
        let hand = &grid.hands[player as usize];
        if hand.iter().all(|&n| n == 0) {
            continue;
        }
        out.push('P');
        out.push(sign(player));
        for (i, &n) in hand.iter().enumerate() {
            for _ in 0..n {
                out.push_str("00");
                out.push_str(PIECES[i + 1]);
            }
        }
        out.push('\n');
    }
    out.push(sign(grid.side));
    out.push('\n');
    out
}

/// The header items of a record of `occasion`, as [`write`] takes them: the players (`N+`,
/// `N-`: seats 0 and 1), `$EVENT`, `$SITE`, `$START_TIME` (`2026/12/07 17:03:00`, UTC), the
/// time control ([`time_item`]), the rule options to record (a comment), then the occasion's
/// own tags.
pub fn header(occasion: &Occasion, recorded: &[String]) -> Tags {
    let mut tags = Tags::default();
    for (tag, name) in ["Black", "White"].into_iter().zip(&occasion.players) {
        tags.set(tag, name);
    }
    if let Some(event) = &occasion.event {
        tags.set("Event", event);
    }
    if let Some(site) = &occasion.site {
        tags.set("Site", site);
    }
    if let Some(started) = occasion.started {
        tags.set("Date", &started.slashed());
    }
    if let TimeLimit::Limited(control) = occasion.clock {
        match time_item(&control) {
            Some((name, value)) => tags.set(name, &value),
            None => tags.set(TIME_CONTROL_TAG, &pgn::time_control_text(&control)),
        }
    }
    tags.set_options(recorded);
    for (name, value) in &occasion.tags {
        tags.set(name, value);
    }
    tags
}

/// The tag of a time control no CSA item can say, in PGN's form
/// ([`pgn::time_control_text`]): written as a comment, `'TimeControl:600+0|30x3`.
pub const TIME_CONTROL_TAG: &str = "TimeControl";

/// Tags CSA has no item for, written as comments (`'RuleOptions:impasse=declare27`) that other
/// readers skip and ours reads back.
const COMMENT_TAGS: [&str; 2] = [OPTIONS_TAG, TIME_CONTROL_TAG];

/// The CSA item of a time control, as tag name (`TIME_LIMIT` for `$TIME_LIMIT`) and value:
///
/// - `$TIME_LIMIT:00:10+30` (V2.2: hours and minutes of main time, then the byo-yomi in
///   seconds, `00` for none) where that says it all: main time in whole minutes, no increment,
///   at most one byo-yomi period. A fixed time per move is `00:00+30`.
/// - else `$TIME:600+30+5` (V3.0: main time, byo-yomi and increment, in seconds) where that
///   does: whole seconds, at most one period.
/// - else none (several periods, moves per session): [`header`] writes the control in PGN's
///   form as a comment instead.
pub fn time_item(control: &TimeControl) -> Option<(&'static str, String)> {
    if control.moves_per_session.is_some()
        || control.byo_yomi.is_some_and(|b| b.periods != 1)
        || !occasion::whole_seconds(control)
    {
        return None;
    }
    let base = control.base.as_secs();
    let period = control.byo_yomi.map_or(0, |b| b.period.as_secs());
    let increment = control.increment.as_secs();
    if increment == 0 && base.is_multiple_of(60) {
        let minutes = base / 60;
        return Some((
            "TIME_LIMIT",
            format!("{:02}:{:02}+{period:02}", minutes / 60, minutes % 60),
        ));
    }
    Some(("TIME", format!("{base}+{period}+{increment}")))
}

/// Writes a game as CSA. `tags`: `Black` and `White` become `N+` / `N-`, `Event`, `Site`
/// and `Date` `$EVENT`, `$SITE` and `$START_TIME`, `RuleOptions` and `TimeControl` comments,
/// other tags with ASCII names `$NAME` (upper case); the rest are left out (see [`header`]).
/// The ruleset needs the `csa` move notation.
pub fn write<P: Position>(game: &Game<P>, tags: &Tags) -> Result<String, RecordError> {
    write_with_comments(game, tags, &[])
}

/// Like [`write`], with `comments` (the rule options in words) as comment lines (`'...`)
/// after the items.
pub fn write_with_comments<P: Position>(
    game: &Game<P>,
    tags: &Tags,
    comments: &[String],
) -> Result<String, RecordError> {
    let (grid, moves) = record::moves_for(game, NOTATION, FORMAT)?;
    let mut out = String::from("V2.2\n");
    let mut items: Vec<String> = Vec::new();
    for (name, value) in &tags.0 {
        let value = value.replace(['\n', '\r'], " ");
        if COMMENT_TAGS.contains(&name.as_str()) {
            items.push(format!("'{name}:{value}"));
            continue;
        }
        match KEYS.iter().find(|(tag, _)| tag == name) {
            Some((_, key)) if key.starts_with('N') => items.push(format!("{key}{value}")),
            Some((_, key)) => items.push(format!("{key}:{value}")),
            None if !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                items.push(format!("${}:{value}", name.to_ascii_uppercase()))
            }
            None => {}
        }
    }
    // Names come before the `$` items, and the comments last.
    items.sort_by_key(|i| (!i.starts_with('N'), i.starts_with('\'')));
    for item in items {
        out.push_str(&item);
        out.push('\n');
    }
    for comment in comments {
        out.push('\'');
        out.push_str(&comment.replace(['\n', '\r'], " "));
        out.push('\n');
    }
    if grid.is_standard() {
        out.push_str("PI\n+\n");
    } else {
        out.push_str(&position_lines(&grid));
    }
    for m in &moves {
        out.push_str(m);
        out.push('\n');
    }
    if let Some(ending) = record::ending(game) {
        let illegal = |loser: usize| format!("%{}ILLEGAL_ACTION", sign(loser as u8));
        let line = match ending {
            Ending::Checkmate { .. } => "%TSUMI".to_string(),
            Ending::Resignation { .. } => "%TORYO".to_string(),
            Ending::Sennichite => "%SENNICHITE".to_string(),
            Ending::PerpetualCheck { winner } | Ending::FailedDeclaration { winner } => {
                illegal(1 - winner)
            }
            Ending::Declared { .. } => "%KACHI".to_string(),
            Ending::Impasse { .. } => "%JISHOGI".to_string(),
            Ending::Draw => "%HIKIWAKE".to_string(),
        };
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// A CSA square (`77`) as (row, column) of the grid; `None` for `00` (the hand).
fn square(text: &str) -> Result<Option<(usize, usize)>, String> {
    let b = text.as_bytes();
    if b.len() != 2 || !b.iter().all(u8::is_ascii_digit) {
        return Err(format!("bad square {:?}", excerpt(text)));
    }
    let (file, rank) = ((b[0] - b'0') as usize, (b[1] - b'0') as usize);
    match (file, rank) {
        (0, 0) => Ok(None),
        (1..=9, 1..=9) => Ok(Some((rank - 1, 9 - file))),
        _ => Err(format!("bad square {:?}", excerpt(text))),
    }
}

fn piece_code(text: &str) -> Result<usize, String> {
    PIECES
        .iter()
        .position(|&p| p == text)
        .ok_or_else(|| format!("unknown piece {:?}", excerpt(text)))
}

/// A game being read.
struct Reader {
    game: RecordGame,
    seen: bool,
    grid: Option<Grid>,
    /// Which `P1`..`P9` rows were given (all of them by `PI`).
    rows: [bool; 9],
    side: Option<u8>,
}

impl Reader {
    fn new() -> Reader {
        Reader {
            game: RecordGame::default(),
            seen: false,
            grid: None,
            rows: [false; 9],
            side: None,
        }
    }

    fn grid(&mut self) -> &mut Grid {
        self.grid.get_or_insert_with(Grid::empty)
    }

    /// One statement (a line, or a part of a line between commas).
    fn statement(&mut self, s: &str) -> Result<(), String> {
        let in_moves = !self.game.moves.is_empty() || self.game.end.is_some();
        let before_moves = |what: &str| {
            if in_moves {
                Err(format!("{what} after the moves"))
            } else {
                Ok(())
            }
        };
        if s.starts_with('V') || s.starts_with('T') {
            return Ok(());
        }
        if let Some(name) = s.strip_prefix("N+").or_else(|| s.strip_prefix("N-")) {
            let tag = if s.starts_with("N+") {
                "Black"
            } else {
                "White"
            };
            self.game.tags.set(tag, name.trim());
            return Ok(());
        }
        if let Some(item) = s.strip_prefix('$') {
            let (key, value) = item
                .split_once(':')
                .ok_or_else(|| format!("item without ':' {:?}", excerpt(s)))?;
            let name = KEYS
                .iter()
                .find(|(_, k)| k.strip_prefix('$') == Some(key))
                .map_or(key, |(tag, _)| tag);
            if self.game.tags.0.len() >= 256 {
                return Err("too many items".to_string());
            }
            self.game.tags.set(name, value);
            return Ok(());
        }
        if let Some(rest) = s.strip_prefix("PI") {
            before_moves("a position")?;
            if !rest.is_ascii() || rest.len() % 4 != 0 {
                return Err(format!("bad PI line {:?}", excerpt(s)));
            }
            let mut grid = Grid::from_sfen(record::STANDARD_SFEN)?;
            for chunk in rest.as_bytes().chunks(4) {
                let chunk = std::str::from_utf8(chunk).map_err(|e| e.to_string())?;
                let (r, c) = square(&chunk[..2])?
                    .ok_or_else(|| format!("PI removes from a square, not {chunk:?}"))?;
                let kind = piece_code(&chunk[2..])?;
                if grid.cells[r][c].map(|(_, k)| k) != Some(kind) {
                    return Err(format!("PI: no {} on {}", &chunk[2..], &chunk[..2]));
                }
                grid.cells[r][c] = None;
            }
            self.grid = Some(grid);
            self.rows = [true; 9];
            return Ok(());
        }
        if let Some(rest) = s.strip_prefix('P') {
            before_moves("a position")?;
            if !s.is_ascii() {
                return Err(format!("bad position line {:?}", excerpt(s)));
            }
            let mut chars = rest.chars();
            match chars.next() {
                Some(d @ '1'..='9') => {
                    let r = (d as u8 - b'1') as usize;
                    let cells = format!("{:<27}", chars.as_str());
                    if cells.len() != 27 {
                        return Err(format!("a board row has 9 cells: {:?}", excerpt(s)));
                    }
                    let mut row = [None; 9];
                    for (c, chunk) in cells.as_bytes().chunks(3).enumerate() {
                        let chunk = std::str::from_utf8(chunk).map_err(|e| e.to_string())?;
                        if chunk.trim() == "*" {
                            continue;
                        }
                        let player = match chunk.as_bytes()[0] {
                            b'+' => 0u8,
                            b'-' => 1,
                            _ => return Err(format!("bad board cell {chunk:?}")),
                        };
                        row[c] = Some((player, piece_code(&chunk[1..])?));
                    }
                    self.grid().cells[r] = row;
                    self.rows[r] = true;
                }
                Some(side @ ('+' | '-')) => {
                    let player = u8::from(side == '-');
                    let rest = chars.as_str();
                    if rest.len() % 4 != 0 {
                        return Err(format!("bad placement line {:?}", excerpt(s)));
                    }
                    for chunk in rest.as_bytes().chunks(4) {
                        let chunk = std::str::from_utf8(chunk).map_err(|e| e.to_string())?;
                        let place = square(&chunk[..2])?;
                        if &chunk[2..] == "AL" {
                            if place.is_some() {
                                return Err("AL goes to the hand (00AL)".to_string());
                            }
                            self.rest_to_hand(player);
                            continue;
                        }
                        let kind = piece_code(&chunk[2..])?;
                        match place {
                            Some((r, c)) => self.grid().cells[r][c] = Some((player, kind)),
                            None if (1..=7).contains(&kind) => {
                                let n = &mut self.grid().hands[player as usize][kind - 1];
                                *n = (*n + 1).min(MAX_IN_HAND);
                            }
                            None => return Err(format!("{} cannot be in hand", &chunk[2..])),
                        }
                    }
                }
                _ => return Err(format!("unrecognised position line {:?}", excerpt(s))),
            }
            return Ok(());
        }
        if s == "+" || s == "-" {
            before_moves("the player to move")?;
            self.side = Some(u8::from(s == "-"));
            return Ok(());
        }
        if s.starts_with(['+', '-']) {
            if self.game.end.is_some() {
                return Err("a move after the end of the game".to_string());
            }
            if s.len() > 16 {
                return Err(format!("bad move {:?}", excerpt(s)));
            }
            if self.game.moves.len() >= MAX_MOVES {
                return Err("too many moves in one game".to_string());
            }
            self.game.moves.push(s.to_string());
            return Ok(());
        }
        if let Some(word) = s.strip_prefix('%') {
            if word.is_empty()
                || word.len() > 24
                || !word
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || "_+-".contains(c))
            {
                return Err(format!("bad ending {:?}", excerpt(s)));
            }
            if self.game.end.is_none() {
                self.game.end = Some(s.to_string());
            }
            return Ok(());
        }
        Err(format!("unrecognised line {:?}", excerpt(s)))
    }

    /// `00AL`: every piece of the set that is neither on the board nor in a hand goes to
    /// `player`'s hand.
    fn rest_to_hand(&mut self, player: u8) {
        let grid = self.grid();
        let mut used = [0u32; 7];
        for row in &grid.cells {
            for (_, kind) in row.iter().flatten() {
                let base = base_kind(*kind);
                if base > 0 {
                    used[base - 1] += 1;
                }
            }
        }
        for hand in &grid.hands {
            for (i, n) in hand.iter().enumerate() {
                used[i] += n;
            }
        }
        for i in 0..7 {
            let n = &mut grid.hands[player as usize][i];
            *n = (*n + SET[i].saturating_sub(used[i])).min(MAX_IN_HAND);
        }
    }

    /// The finished game.
    fn finish(self) -> Result<RecordGame, String> {
        let mut game = self.game;
        if let Some(mut grid) = self.grid {
            // Rows are all given, or none (placements on an empty board).
            if self.rows.contains(&true)
                && let Some(r) = self.rows.iter().position(|&seen| !seen)
            {
                return Err(format!("the position has no row P{}", r + 1));
            }
            grid.side = self.side.unwrap_or(0);
            if !grid.is_standard() {
                game.start = Some(grid.to_sfen());
            }
        } else if self.side == Some(1) {
            let mut grid = Grid::from_sfen(record::STANDARD_SFEN)?;
            grid.side = 1;
            game.start = Some(grid.to_sfen());
        }
        Ok(game)
    }
}

/// Reads CSA text: one game, or several separated by `/` lines.
pub fn parse(text: &str) -> Result<Vec<RecordGame>, RecordError> {
    if text.len() > MAX_RECORD_LEN {
        return Err(RecordError::TooLarge {
            format: FORMAT,
            len: text.len(),
        });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut reader = Reader::new();
    let mut last_line = 0;
    for (n, raw) in text.lines().enumerate() {
        last_line = n + 1;
        let syntax = |message: String| RecordError::Syntax {
            format: FORMAT,
            line: n + 1,
            message,
        };
        let line = raw.trim_end();
        if let Some((tag, value)) = line.strip_prefix('\'').and_then(|comment| {
            COMMENT_TAGS.iter().find_map(|&tag| {
                let value = comment.strip_prefix(tag)?.strip_prefix(':')?;
                Some((tag, value))
            })
        }) {
            reader.seen = true;
            reader.game.tags.set(tag, value.trim());
            continue;
        }
        if line.trim().is_empty() || line.starts_with('\'') {
            continue;
        }
        if line.trim() == "/" {
            if reader.seen {
                games.push(reader.finish().map_err(syntax)?);
            }
            reader = Reader::new();
            continue;
        }
        reader.seen = true;
        // Statements joined by commas (moves, times, endings); names, items and position
        // lines are whole lines.
        if line.starts_with(['+', '-', 'T', '%']) {
            for part in line.split(',') {
                let part = part.trim();
                if !part.is_empty() {
                    reader.statement(part).map_err(syntax)?;
                }
            }
        } else {
            reader.statement(line).map_err(syntax)?;
        }
    }
    if reader.seen {
        games.push(reader.finish().map_err(|message| RecordError::Syntax {
            format: FORMAT,
            line: last_line,
            message,
        })?);
    }
    Ok(games)
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
    use chaturanga_rules::{Outcome, Reason, Status};
    use chaturanga_variants::shogi::ShogiPosition;

    const MOVES: [&str; 12] = [
        "7g7f", "3c3d", "8h2b", "3a2b", "B*4e", "6c6d", "4e6c+", "6a6b", "6c6b", "7a6b", "G*3c",
        "B*5e",
    ];

    #[test]
    fn round_trip_with_captures_promotions_and_drops() {
        let mut game = game_from(None, &MOVES);
        game.end(Outcome::loss(2, 0, Reason::Resignation));
        let mut tags = Tags::default();
        tags.set("Event", "test");
        tags.set("Black", "Sente");
        tags.set("White", "Gote");
        tags.set("Date", "2024/01/01 10:00:00");
        let text = write(&game, &tags).unwrap();
        let expected = "V2.2\nN+Sente\nN-Gote\n$EVENT:test\n$START_TIME:2024/01/01 10:00:00\nPI\n+\n+7776FU\n-3334FU\n+8822KA\n-3122GI\n+0045KA\n-6364FU\n+4563UM\n-6162KI\n+6362UM\n-7162GI\n+0033KI\n-0055KA\n%TORYO\n";
        assert_eq!(text, expected);
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed.len(), 1);
        let g = &parsed[0];
        assert_eq!(g.start, None);
        assert_eq!(g.tags.get("White"), Some("Gote"));
        assert_eq!(g.tags.get("Event"), Some("test"));
        assert_eq!(g.end.as_deref(), Some("%TORYO"));
        let again: Game<ShogiPosition> = replay(g, &options()).unwrap();
        assert_eq!(again.moves(), game.moves());
        assert_eq!(again.position().fen(), game.position().fen());
        assert_eq!(again.status(), game.status());
    }

    /// Rule options are a comment line other readers skip, read back as the tag.
    #[test]
    fn options_comment() {
        let mut tags = Tags::default();
        tags.set("Black", "A");
        tags.set_options(&["impasse=declare27".to_string()]);
        tags.set("Event", "e");
        let text = write(&game_from(None, &["7g7f"]), &tags).unwrap();
        assert_eq!(
            text,
            "V2.2\nN+A\n$EVENT:e\n'RuleOptions:impasse=declare27\nPI\n+\n+7776FU\n"
        );
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed[0].tags.options(), ["impasse=declare27"]);
        assert_eq!(parsed[0].tags.get("Event"), Some("e"));
        // Other comments are still skipped.
        let parsed = parse("'RuleOption x\n'comment\nPI\n+\n").unwrap();
        assert!(parsed[0].tags.options().is_empty());
    }

    /// What the front end knows of the game becomes the items of CSA V2.2 (V3.0's `$TIME`
    /// where V2.2 cannot say the clock), the rule options in words comments; all read back.
    #[test]
    fn occasion_header_and_comments() {
        use std::time::Duration;
        let occasion = crate::occasion::shogi_sample();
        let tags = header(&occasion, &["impasse=declare27".to_string()]);
        let comments = ["impasse=declare27 (declare27: the 27-point declaration)".to_string()];
        let text = write_with_comments(&game_from(None, &["7g7f"]), &tags, &comments).unwrap();
        assert_eq!(
            text,
            "V2.2\nN+Anonymous\nN-Chaturanga level 3\n$EVENT:Casual Shogi game\n\
             $SITE:https://example.org/games/abc\n$START_TIME:2026/12/07 17:03:00\n\
             $TIME_LIMIT:00:10+30\n'RuleOptions:impasse=declare27\n\
             'impasse=declare27 (declare27: the 27-point declaration)\nPI\n+\n+7776FU\n"
        );
        let parsed = &parse(&text).unwrap()[0];
        for (name, value) in [
            ("Date", "2026/12/07 17:03:00"),
            ("Event", "Casual Shogi game"),
            ("Site", "https://example.org/games/abc"),
            ("TIME_LIMIT", "00:10+30"),
            ("Black", "Anonymous"),
            ("White", "Chaturanga level 3"),
        ] {
            assert_eq!(parsed.tags.get(name), Some(value), "{name}");
        }
        assert_eq!(parsed.tags.options(), ["impasse=declare27"]);
        // A control no item says is a comment in PGN's form, read back as its tag.
        let several = Occasion {
            clock: TimeLimit::Limited(TimeControl::byo_yomi(
                Duration::from_secs(600),
                Duration::from_secs(30),
                3,
            )),
            ..Occasion::default()
        };
        let text = write(&game_from(None, &[]), &header(&several, &[])).unwrap();
        assert_eq!(text, "V2.2\n'TimeControl:600+0|30x3\nPI\n+\n");
        assert_eq!(
            parse(&text).unwrap()[0].tags.get(TIME_CONTROL_TAG),
            Some("600+0|30x3")
        );
        assert!(header(&Occasion::default(), &[]).0.is_empty());
    }

    #[test]
    fn time_items() {
        use std::time::Duration;
        let s = Duration::from_secs;
        let item = |c: TimeControl| time_item(&c).map(|(k, v)| format!("${k}:{v}"));
        for (control, expected) in [
            (
                TimeControl::fischer(s(1500), Duration::ZERO),
                Some("$TIME_LIMIT:00:25+00"),
            ),
            (
                TimeControl::fischer(s(5400), Duration::ZERO),
                Some("$TIME_LIMIT:01:30+00"),
            ),
            (
                TimeControl::byo_yomi(s(600), s(30), 1),
                Some("$TIME_LIMIT:00:10+30"),
            ),
            (TimeControl::per_move(s(30)), Some("$TIME_LIMIT:00:00+30")),
            (
                TimeControl::per_move(s(86_400)),
                Some("$TIME_LIMIT:00:00+86400"),
            ),
            (TimeControl::fischer(s(300), s(3)), Some("$TIME:300+0+3")),
            (
                TimeControl::fischer(s(90), Duration::ZERO),
                Some("$TIME:90+0+0"),
            ),
            (TimeControl::byo_yomi(s(600), s(30), 3), None),
            (TimeControl::sessions(40, s(5400)), None),
            (
                TimeControl::fischer(s(10), Duration::from_millis(100)),
                None,
            ),
        ] {
            assert_eq!(item(control).as_deref(), expected);
        }
    }

    #[test]
    fn non_standard_start_through_position_lines() {
        let sfen = "lnsgk2nl/1r4+S2/p1pppp1pp/6p2/9/2P6/PP1PPPPPP/7+r1/LNSGKGSNL w BS2p 1";
        let game = game_from(Some(sfen), &["P*8e", "S*5e", "2h2i"]);
        let text = write(&game, &Tags::default()).unwrap();
        let expected = "V2.2\nP1-KY-KE-GI-KI-OU *  * -KE-KY\nP2 * -HI *  *  *  * +NG *  * \nP3-FU * -FU-FU-FU-FU * -FU-FU\nP4 *  *  *  *  *  * -FU *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  * +FU *  *  *  *  *  * \nP7+FU+FU * +FU+FU+FU+FU+FU+FU\nP8 *  *  *  *  *  *  * -RY * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\nP+00KA00GI\nP-00FU00FU\n-\n-0085FU\n+0055GI\n-2829RY\n";
        assert_eq!(text, expected);
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed[0].start.as_deref(), Some(sfen));
        let again: Game<ShogiPosition> = replay(&parsed[0], &options()).unwrap();
        assert_eq!(again.moves(), game.moves());
        assert_eq!(again.position().fen(), game.position().fen());
    }

    #[test]
    fn endings() {
        let mate = game_from(Some("7nk/9/7G1/9/9/9/9/9/K8 b G 1"), &["G*1b"]);
        assert!(
            write(&mate, &Tags::default())
                .unwrap()
                .ends_with("+0012KI\n%TSUMI\n")
        );
        let cycle = ["5i4h", "5a6b", "4h5i", "6b5a"];
        let twelve: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let text = write(&game_from(None, &twelve), &Tags::default()).unwrap();
        assert!(text.ends_with("-6251OU\n%SENNICHITE\n"), "{text}");
        let cycle = ["5e4e", "4a5a", "4e5e", "5a4a"];
        let twelve: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
        let checks = game_from(Some("5k3/9/9/9/4R4/9/9/9/K8 b - 1"), &twelve);
        assert!(
            write(&checks, &Tags::default())
                .unwrap()
                .ends_with("%+ILLEGAL_ACTION\n")
        );
        // A declaration under the 27-point rule.
        let o = RuleOptions::parse(ShogiPosition::option_specs(), &["impasse=declare27"]).unwrap();
        let start =
            ShogiPosition::from_fen_with(&o, "RRBBKGGSS/+N+N7/9/9/9/9/9/9/4k4 b 2P2g2s2n4l16p 1")
                .unwrap();
        let mut declared = Game::new(start);
        declared.perform("win").unwrap();
        let text = write(&declared, &Tags::default()).unwrap();
        assert!(text.ends_with("+\n%KACHI\n"), "{text}");
        let again: Game<ShogiPosition> = replay(&parse(&text).unwrap()[0], &o).unwrap();
        assert_eq!(again.status(), declared.status());
        assert!(matches!(again.status(), Status::Over(o) if o.reason == Reason::Declaration));
    }

    #[test]
    fn reads_other_forms() {
        let text = "'comment\nV2.2\nN+A\nN-B\n$EVENT:e\n$OPENING:YAGURA\nPI82HI22KA\n-\n-3334FU,T1\n+7776FU\nT3\n%CHUDAN\n/\nV2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA *\nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  *\nP5 *  *  *  *  *  *  *  *  *\nP6 *  *  *  *  *  *  *  *  *\nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI *\nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n+2726FU\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tags.get("OPENING"), Some("YAGURA"));
        assert_eq!(
            games[0].start.as_deref(),
            Some("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
        );
        assert_eq!(games[0].moves, ["-3334FU", "+7776FU"]);
        assert_eq!(games[0].end.as_deref(), Some("%CHUDAN"));
        assert_eq!(games[1].start, None);
        let g: Game<ShogiPosition> = replay(&games[1], &options()).unwrap();
        assert_eq!(
            g.position().fen(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2"
        );
        // Placements and 00AL.
        let tsume = "P-11OU\nP+22KI\nP+00KI\nP-00AL\n+\n+0012KI\n%TSUMI\n";
        let g = &parse(tsume).unwrap()[0];
        assert_eq!(
            g.start.as_deref(),
            Some("8k/7G1/9/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1")
        );
    }

    #[test]
    fn errors() {
        let syntax = |text: &str| matches!(parse(text), Err(RecordError::Syntax { .. }));
        assert!(syntax("Q\n"));
        assert!(syntax("PI82KA\n"));
        assert!(syntax("P1-KY\n"));
        assert!(syntax("P+00OU\n"));
        assert!(syntax("P+99XX\n"));
        assert!(syntax("$EVENT\n"));
        assert!(syntax("+7776FU\n%TORYO\n+3334FU\n"));
        assert!(syntax("+7776FU\nPI\n"));
        assert!(syntax("P1 *  *  *  *  *  *  *  *  * \n"));
        assert!(syntax("%toryo\n"));
        assert!(parse("").unwrap().is_empty());
        assert!(matches!(
            parse(&" ".repeat(MAX_RECORD_LEN + 1)),
            Err(RecordError::TooLarge { .. })
        ));
        let bad = parse("PI\n+\n+7775FU\n").unwrap();
        assert!(matches!(
            replay::<ShogiPosition>(&bad[0], &options()),
            Err(RecordError::Move { ply: 1, .. })
        ));
        let wrong_side = parse("PI\n+\n-3334FU\n").unwrap();
        assert!(matches!(
            replay::<ShogiPosition>(&wrong_side[0], &options()),
            Err(RecordError::Move { ply: 1, .. })
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
