//! BPGN, the bughouse game record: PGN tags for the four players and movetext whose every
//! move names its board and colour, `1A. e4 {179.8} 1B. d4 1a. e5 ...`.
//!
//! - Tags: the seven-tag roster with `WhiteA`, `BlackA`, `WhiteB`, `BlackB` for `White` and
//!   `Black`, `TimeControl` in PGN's form (`180+0`: base seconds + increment seconds) for a
//!   real-time game, `Result`, `Termination` (our reason word, e.g. `time-forfeit`) once the game
//!   is over, and `SetUp`/`FEN` (our `A:<fen> | B:<fen>`) when it did not start from the start
//!   position. Other tags are kept as read.
//! - Movetext: moves in the order they were made (the order the server received them). Each
//!   has its number: the board's move number, then the board letter, upper case for White and
//!   lower case for Black, then a dot. Moves are SAN; drops are written `N@f3`, promotions
//!   `e8=Q` (the `~` of the FEN is not written); `#` marks the bughouse mate only, and a check
//!   a drop could block is `+`. A comment right after a move that is a number of seconds
//!   (`{179.8}`, at most three decimals) is the mover's clock after the move; other comments are
//!   ignored.
//! - Result: `1-0` when team 1 (A-White and B-Black) wins, `0-1` when team 2 (A-Black and
//!   B-White) wins, `1/2-1/2`, or `*`.
//!
//! Reading checks every move on its board, its number and colour; what it writes again is the
//! same text (export, import and export agree).

use super::{BoardPosition, BoardState, BughousePosition, Timing, board_state};
use chaturanga_notation::pgn::{MAX_MOVES, MAX_PGN_LEN, Tags};
use chaturanga_notation::san;
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::standard::Move;
use chaturanga_rules::{
    Game, MoveError, OptionError, Outcome, OwnGame, Position, Reason, RecordHeader, RuleOptions,
    Ruleset, SetupError, Status,
};
use std::fmt;
use std::time::Duration;

/// One move as a BPGN record holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BpgnMove {
    /// 0 = board A, 1 = board B.
    pub board: usize,
    /// 0 = White, 1 = Black.
    pub colour: usize,
    /// The board's move number.
    pub number: u32,
    /// The move in SAN (drops `N@f3`).
    pub san: String,
    /// The mover's clock after the move, if the record gives it.
    pub clock: Option<Duration>,
}

/// A game as read from BPGN text, before its moves are checked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BpgnGame {
    /// Tag pairs, in order.
    pub tags: Tags,
    /// The moves, in order.
    pub moves: Vec<BpgnMove>,
    /// The result token, if the movetext ended with one.
    pub result: Option<String>,
}

/// Why BPGN could not be written or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BpgnError {
    /// Longer than [`MAX_PGN_LEN`].
    TooLarge(usize),
    /// Malformed text.
    Syntax {
        /// Line number, 1-based.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The start position (FEN tag) is invalid.
    Setup(SetupError),
    /// The `TimeControl` tag is not `<seconds>+<seconds>`.
    TimeControl(String),
    /// A move that is not legal (or not readable), or whose number or colour is wrong.
    Move {
        /// Position in the movetext, 1-based.
        index: usize,
        /// The move with its number (`12b. Qxf2`).
        text: String,
        /// Why.
        error: MoveError,
    },
    /// The `RuleOptions` tag names options bughouse does not have.
    Options(OptionError),
    /// The `Result` disagrees with the mate the moves end in.
    Result {
        /// What the record says.
        given: String,
        /// What the moves say.
        played: String,
    },
}

impl fmt::Display for BpgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BpgnError::TooLarge(n) => write!(f, "BPGN of {n} bytes is too large"),
            BpgnError::Syntax { line, message } => write!(f, "BPGN line {line}: {message}"),
            BpgnError::Setup(e) => write!(f, "BPGN FEN tag: {e}"),
            BpgnError::TimeControl(t) => {
                write!(f, "BPGN TimeControl {t:?} is not <seconds>+<seconds>")
            }
            BpgnError::Move { index, text, error } => {
                write!(f, "BPGN move {index} ({text:?}): {error}")
            }
            BpgnError::Options(e) => write!(f, "BPGN RuleOptions tag: {e}"),
            BpgnError::Result { given, played } => {
                write!(f, "BPGN result {given} but the moves end in {played}")
            }
        }
    }
}

impl std::error::Error for BpgnError {}

const BOARD_LETTERS: [[char; 2]; 2] = [['A', 'a'], ['B', 'b']];
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];
/// Longest tag value or comment kept, so a hostile record cannot make us hold one huge string
/// per tag (the text cap bounds the total anyway).
const MAX_TAG_LEN: usize = 4096;

/// The BPGN result of an outcome: team 1's score first.
pub fn result_text(outcome: Option<&Outcome>) -> String {
    match outcome.map(|o| o.quarters.first().copied().unwrap_or(2)) {
        None => "*".to_string(),
        Some(4) => "1-0".to_string(),
        Some(0) => "0-1".to_string(),
        Some(_) => "1/2-1/2".to_string(),
    }
}

/// PGN's `TimeControl` value of a control: `180+2`.
pub fn time_control_text(control: TimeControl) -> String {
    format!("{}+{}", control.base.as_secs(), control.increment.as_secs())
}

/// Reads PGN's `TimeControl` value (`180+2`; seconds).
pub fn parse_time_control(text: &str) -> Result<TimeControl, BpgnError> {
    let bad = || BpgnError::TimeControl(excerpt(text));
    let (base, inc) = text.split_once('+').ok_or_else(bad)?;
    let number = |t: &str| {
        if t.is_empty() || t.len() > 8 || !t.bytes().all(|b| b.is_ascii_digit()) {
            None
        } else {
            t.parse::<u64>().ok()
        }
    };
    let (base, inc) = (number(base).ok_or_else(bad)?, number(inc).ok_or_else(bad)?);
    if base == 0 && inc == 0 {
        return Err(bad());
    }
    Ok(TimeControl::fischer(
        Duration::from_secs(base),
        Duration::from_secs(inc),
    ))
}

/// The tags of a new record: roster with unknown players, the time control (if real-time),
/// result, termination, and the start position when it is not the standard one.
pub fn tags_for(
    start: &BughousePosition,
    control: Option<TimeControl>,
    outcome: Option<&Outcome>,
) -> Tags {
    let mut tags = Tags::default();
    for (k, v) in [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("WhiteA", "?"),
        ("BlackA", "?"),
        ("WhiteB", "?"),
        ("BlackB", "?"),
    ] {
        tags.set(k, v);
    }
    if let Some(c) = control {
        tags.set("TimeControl", &time_control_text(c));
    }
    tags.set("Result", &result_text(outcome));
    if let Some(o) = outcome {
        tags.set("Termination", o.reason.as_str());
    }
    let standard = BughousePosition::start_position(&RuleOptions::default())
        .map(|p| p.boards().iter().map(|b| b.fen()).collect::<Vec<_>>());
    let ours: Vec<String> = start.boards().iter().map(|b| b.fen()).collect();
    if standard.ok().as_ref() != Some(&ours) || start.timing() == Timing::TurnBased {
        tags.set("SetUp", "1");
        tags.set("FEN", &start.fen());
    }
    tags
}

/// The record's SAN of a legal move on a board, with `+`, or `#` for the bughouse mate.
pub fn board_san(board: &BoardPosition, mv: Move) -> Result<String, MoveError> {
    let written = san::to_san(board, mv)?;
    let mut text = written.trim_end_matches(['+', '#']).replace('~', "");
    let mut next = board.clone();
    next.play_unchecked(mv);
    if next.is_check() {
        text.push(if board_state(&next) == BoardState::Mated {
            '#'
        } else {
            '+'
        });
    }
    Ok(text)
}

/// Writes moves played from `start` (each: board, move, the mover's clock after it) as a
/// record with `tags`; the result token is the `Result` tag's.
pub fn write_moves(
    start: &BughousePosition,
    moves: &[(usize, Move, Option<Duration>)],
    tags: &Tags,
) -> Result<String, BpgnError> {
    write_moves_with_comments(start, moves, tags, &[])
}

/// Like [`write_moves`], with `comments` before the first move ([`write_text_with_comments`]).
pub fn write_moves_with_comments(
    start: &BughousePosition,
    moves: &[(usize, Move, Option<Duration>)],
    tags: &Tags,
    comments: &[String],
) -> Result<String, BpgnError> {
    let mut position = real_time(start);
    let mut records = Vec::with_capacity(moves.len());
    for (i, &(board, mv, clock)) in moves.iter().enumerate() {
        let error = |error: MoveError| BpgnError::Move {
            index: i + 1,
            text: format!("{mv:?}"),
            error,
        };
        let b = position
            .boards()
            .get(board)
            .ok_or_else(|| error(MoveError::Malformed(format!("board {board}"))))?;
        records.push(BpgnMove {
            board,
            colour: b.turn() as usize,
            number: b.fullmove(),
            san: board_san(b, mv).map_err(error)?,
            clock,
        });
        position.play_board_move(board, mv).map_err(error)?;
    }
    Ok(write_text_with_comments(tags, comments, &records))
}

/// Formats tags and moves (no checking): 80-column movetext ending in the `Result` tag's value.
pub fn write_text(tags: &Tags, moves: &[BpgnMove]) -> String {
    write_text_with_comments(tags, &[], moves)
}

/// Like [`write_text`], with `comments` (the rule options in words) before the first move, as
/// PGN writes them ([`pgn::write_comments`](chaturanga_notation::pgn::write_comments)); a
/// comment there is no move's clock stamp, and reading skips it.
pub fn write_text_with_comments(tags: &Tags, comments: &[String], moves: &[BpgnMove]) -> String {
    let mut out = tags.header();
    chaturanga_notation::pgn::write_comments(&mut out, comments);
    let mut tokens = Vec::new();
    for m in moves {
        let mut token = format!(
            "{}{}. {}",
            m.number,
            BOARD_LETTERS[m.board % 2][m.colour % 2],
            m.san
        );
        if let Some(c) = m.clock {
            token.push_str(&format!(" {{{}}}", seconds_text(c)));
        }
        tokens.push(token);
    }
    tokens.push(tags.get("Result").unwrap_or("*").to_string());
    chaturanga_notation::pgn::wrap_movetext(&mut out, tokens);
    out
}

/// A clock stamp: seconds with one to three decimals (`179.8`, `0.045`).
fn seconds_text(d: Duration) -> String {
    let millis = d.as_millis();
    let mut text = format!("{}.{:03}", millis / 1000, millis % 1000);
    while text.ends_with('0') && !text.ends_with(".0") {
        text.pop();
    }
    text
}

/// Reads a clock stamp (`179.8`): at most nine digits of seconds and three decimals.
fn parse_seconds(text: &str) -> Option<Duration> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 9 || frac.len() > 3 || !digits(whole) || !digits(frac) {
        return None;
    }
    if text.ends_with('.') {
        return None;
    }
    let secs: u64 = whole.parse().ok()?;
    let millis: u64 = format!("{frac:0<3}").parse().ok()?;
    Some(Duration::from_millis(secs * 1000 + millis))
}

/// A game played through the [`Position`] trait (the CLI's `Game`, slot by slot) as BPGN;
/// `control` is the real-time control to record, if any.
pub fn write_game(
    game: &Game<BughousePosition>,
    control: Option<TimeControl>,
) -> Result<String, BpgnError> {
    let outcome = match game.status() {
        Status::Over(o) => Some(o),
        Status::Ongoing { .. } => None,
    };
    let start = game.start();
    let tags = tags_for(start, control, outcome.as_ref());
    let moves: Vec<(usize, Move, Option<Duration>)> = game
        .moves()
        .iter()
        .map(|m| (m.board as usize, m.mv, None))
        .collect();
    write_moves(start, &moves, &tags)
}

/// The roster tag of each seat, in the ruleset's player order (A-white, B-white, A-black,
/// B-black).
pub const SEAT_TAGS: [&str; 4] = ["WhiteA", "WhiteB", "BlackA", "BlackB"];

/// A game played through the [`Position`] trait as BPGN, with the header's tags (replacing
/// the roster's unknowns, the others after it), the players under their roster tags
/// ([`SEAT_TAGS`]), the rule options to record (`name=value`) in the `RuleOptions` tag and
/// the header's comments before the first move: the writer of the ruleset's own record
/// (`Ruleset::own_record`).
pub fn write_recorded(
    game: &Game<BughousePosition>,
    header: &RecordHeader,
) -> Result<String, BpgnError> {
    let outcome = match game.status() {
        Status::Over(o) => Some(o),
        Status::Ongoing { .. } => None,
    };
    let start = game.start();
    let mut tags = tags_for(start, None, outcome.as_ref());
    for (name, value) in header.tags {
        tags.set(name, value);
    }
    for (tag, player) in SEAT_TAGS.iter().zip(header.players) {
        tags.set(tag, player);
    }
    tags.set_options(header.options);
    let moves: Vec<(usize, Move, Option<Duration>)> = game
        .moves()
        .iter()
        .map(|m| (m.board as usize, m.mv, None))
        .collect();
    write_moves_with_comments(start, &moves, &tags, header.comments)
}

/// Every game of a BPGN text as a game of the [`Position`] trait, under the rule options of
/// its `RuleOptions` tag: in turn-based timing the moves must come in the slot order, in
/// real time each is made by whoever is to move on its board. A decisive `Result` the moves
/// do not reach ends the game as the `Termination` tag says (a resignation by default). The
/// reader of the ruleset's own record (`Ruleset::own_record`).
pub fn read_games(text: &str) -> Result<Vec<OwnGame<BughousePosition>>, BpgnError> {
    let mut games = Vec::new();
    for parsed in parse(text)? {
        let replayed = replay(&parsed)?;
        let recorded = parsed.tags.options();
        let options = RuleOptions::parse(BughousePosition::option_specs(), &recorded)
            .map_err(BpgnError::Options)?;
        let timing = super::timing(&options);
        let start = BughousePosition::from_boards(
            replayed.start.boards().clone(),
            replayed.start.slot(),
            timing,
        );
        let mut game = Game::new(start);
        for (i, &(board, mv, _)) in replayed.moves.iter().enumerate() {
            let m = &parsed.moves[i];
            let error = |error: MoveError| BpgnError::Move {
                index: i + 1,
                text: format!(
                    "{}{}. {}",
                    m.number,
                    BOARD_LETTERS[m.board % 2][m.colour % 2],
                    m.san
                ),
                error,
            };
            let seat = super::seat(board, m.colour % 2);
            let whole = super::BughouseMove {
                board: board as u8,
                mv,
            };
            if seat == game.position().side_to_move() {
                game.play(whole)
            } else if timing == Timing::TurnBased {
                Err(MoveError::Illegal(format!(
                    "it is {}'s turn, not {}'s",
                    game.position().player_name(game.position().side_to_move()),
                    game.position().player_name(seat)
                )))
            } else {
                game.play_as(seat, whole)
            }
            .map_err(error)?;
        }
        let result = parsed
            .result
            .clone()
            .or_else(|| parsed.tags.get("Result").map(str::to_string));
        if let (Status::Ongoing { .. }, Some(result)) = (game.status(), result) {
            let reason = parsed
                .tags
                .get("Termination")
                .and_then(chaturanga_rules::Reason::from_name);
            let outcome = match result.as_str() {
                "1-0" => Some(super::team_loss(1, reason.unwrap_or(Reason::Resignation))),
                "0-1" => Some(super::team_loss(0, reason.unwrap_or(Reason::Resignation))),
                "1/2-1/2" => Some(Outcome::draw(4, reason.unwrap_or(Reason::Agreement))),
                _ => None,
            };
            if let Some(outcome) = outcome {
                game.end(outcome);
            }
        }
        games.push(OwnGame {
            game,
            options: recorded,
            tags: parsed.tags.0.clone(),
        });
    }
    Ok(games)
}

/// A game from `start` with its time control, its moves in the order they arrived (board,
/// move, the mover's clock after it) and its result, as BPGN with clock stamps.
pub fn write_timed(
    start: &BughousePosition,
    control: Option<TimeControl>,
    moves: &[(usize, Move, Option<Duration>)],
    outcome: Option<&Outcome>,
) -> Result<String, BpgnError> {
    let control = control.filter(|_| start.timing() == Timing::RealTime);
    let tags = tags_for(start, control, outcome);
    write_moves(start, moves, &tags)
}

/// The same position in real-time mode, where moves are played in any order.
fn real_time(p: &BughousePosition) -> BughousePosition {
    BughousePosition::from_boards(p.boards().clone(), p.slot(), Timing::RealTime)
}

/// Splits BPGN text into games: tags, numbered moves with their clock stamps, results. The
/// moves are not checked ([`replay`] does that).
pub fn parse(text: &str) -> Result<Vec<BpgnGame>, BpgnError> {
    if text.len() > MAX_PGN_LEN {
        return Err(BpgnError::TooLarge(text.len()));
    }
    let mut games = Vec::new();
    let mut current = BpgnGame::default();
    let mut in_movetext = false;
    let mut in_comment = false;
    let mut comment = String::new();
    // The number token waiting for its move: (board, colour, number).
    let mut pending: Option<(usize, usize, u32)> = None;
    // Whether the last item was a move, so a numeric comment is its clock stamp.
    let mut after_move = false;
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let syntax = |message: &str| BpgnError::Syntax {
            line: line_no,
            message: message.to_string(),
        };
        let line = raw.trim();
        if !in_comment && line.starts_with('[') {
            if pending.is_some() {
                return Err(syntax("a move number without its move"));
            }
            if in_movetext {
                games.push(std::mem::take(&mut current));
                in_movetext = false;
                after_move = false;
            }
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| syntax("unterminated tag"))?;
            let (name, value) = inner
                .split_once(char::is_whitespace)
                .ok_or_else(|| syntax("tag without value"))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| syntax("tag value must be quoted"))?;
            if name.is_empty()
                || name.len() > 64
                || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                return Err(syntax("bad tag name"));
            }
            if value.len() > MAX_TAG_LEN {
                return Err(syntax("tag value too long"));
            }
            current.tags.0.push((
                name.to_string(),
                value.replace("\\\"", "\"").replace("\\\\", "\\"),
            ));
            continue;
        }
        if !in_comment && line.starts_with('%') {
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(i) => {
                        comment.push_str(&rest[..i]);
                        rest = &rest[i + 1..];
                        in_comment = false;
                        let stamp = parse_seconds(comment.trim());
                        if let (true, Some(d)) = (after_move, stamp)
                            && let Some(last) = current.moves.last_mut()
                            && last.clock.is_none()
                        {
                            last.clock = Some(d);
                        }
                        comment.clear();
                        after_move = false;
                    }
                    None => {
                        if comment.len() < MAX_TAG_LEN {
                            comment.push_str(rest);
                            comment.push(' ');
                        }
                        rest = "";
                    }
                }
                continue;
            }
            let c = rest.chars().next().unwrap_or(' ');
            match c {
                '{' => {
                    in_comment = true;
                    in_movetext = true;
                    rest = &rest[1..];
                }
                ';' => rest = "",
                '(' | ')' => return Err(syntax("BPGN has no variations")),
                c if c.is_whitespace() => rest = rest.trim_start(),
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || "{};()".contains(ch))
                        .unwrap_or(rest.len());
                    let mut token = &rest[..end];
                    rest = &rest[end..];
                    in_movetext = true;
                    if pending.is_some() && RESULTS.contains(&token) {
                        return Err(syntax("a move number without its move"));
                    }
                    if RESULTS.contains(&token) {
                        current.result = Some(token.to_string());
                        games.push(std::mem::take(&mut current));
                        in_movetext = false;
                        after_move = false;
                        continue;
                    }
                    if token.starts_with('$') {
                        continue;
                    }
                    if pending.is_none() {
                        // A number token: digits, board letter, dot; the move may be glued on.
                        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
                        let tail = &token[digits..];
                        let mut chars = tail.chars();
                        let letter = chars.next();
                        if digits == 0 || digits > 6 || chars.next() != Some('.') {
                            return Err(syntax(&format!(
                                "expected a move number such as 1A. or 3b., not {:?}",
                                token.chars().take(20).collect::<String>()
                            )));
                        }
                        let (board, colour) = match letter {
                            Some('A') => (0, 0),
                            Some('a') => (0, 1),
                            Some('B') => (1, 0),
                            Some('b') => (1, 1),
                            _ => return Err(syntax("the board letter must be A, a, B or b")),
                        };
                        let number: u32 = token[..digits]
                            .parse()
                            .map_err(|_| syntax("bad move number"))?;
                        pending = Some((board, colour, number));
                        after_move = false;
                        token = tail[2..].trim_start_matches('.');
                        if token.is_empty() {
                            continue;
                        }
                    }
                    let Some((board, colour, number)) = pending.take() else {
                        continue;
                    };
                    if token.len() > 32 {
                        return Err(syntax("move text too long"));
                    }
                    if current.moves.len() >= MAX_MOVES {
                        return Err(syntax("too many moves in one game"));
                    }
                    current.moves.push(BpgnMove {
                        board,
                        colour,
                        number,
                        san: token.to_string(),
                        clock: None,
                    });
                    after_move = true;
                }
            }
        }
    }
    let last = text.lines().count();
    if in_comment {
        return Err(BpgnError::Syntax {
            line: last,
            message: "unterminated comment".to_string(),
        });
    }
    if pending.is_some() {
        return Err(BpgnError::Syntax {
            line: last,
            message: "a move number without its move".to_string(),
        });
    }
    if in_movetext || !current.tags.0.is_empty() {
        games.push(current);
    }
    Ok(games)
}

/// A record whose moves have been checked.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The record's tags.
    pub tags: Tags,
    /// The start position.
    pub start: BughousePosition,
    /// The moves: board, move, clock stamp.
    pub moves: Vec<(usize, Move, Option<Duration>)>,
    /// The position after the moves (real-time mode; it holds the outcome of a mate).
    pub position: BughousePosition,
    /// The time control of the `TimeControl` tag.
    pub control: Option<TimeControl>,
}

impl Replayed {
    /// Writes the record again (the same text as a record this crate wrote).
    pub fn write(&self) -> Result<String, BpgnError> {
        write_moves(&self.start, &self.moves, &self.tags)
    }
}

/// Finds the legal move on `board` that `text` names: the record's SAN (checked without check
/// marks, then without `x` and `=`), or coordinate notation.
pub(crate) fn find_move(board: &BoardPosition, text: &str) -> Result<Move, MoveError> {
    let body = text.trim_end_matches(['+', '#', '!', '?']);
    if body.is_empty() || !body.is_ascii() {
        return Err(MoveError::Malformed(excerpt(text)));
    }
    let mut legal = Vec::new();
    board.legal_moves(&mut legal);
    let loose = |s: &str| s.replace(['x', '='], "");
    let mut by_loose = Vec::new();
    for &mv in &legal {
        let san = board_san(board, mv)?;
        let san = san.trim_end_matches(['+', '#']);
        if san == body {
            return Ok(mv);
        }
        if loose(san) == loose(body) {
            by_loose.push(mv);
        }
        if board.move_text(mv).replace('~', "") == body {
            return Ok(mv);
        }
    }
    match by_loose.len() {
        1 => Ok(by_loose[0]),
        0 => Err(MoveError::Illegal(excerpt(text))),
        _ => Err(MoveError::Ambiguous(excerpt(text))),
    }
}

/// Plays a parsed record's moves from its start position (the `FEN` tag, or the start
/// position), checking each move's board, colour and number, and the result against a mate.
pub fn replay(game: &BpgnGame) -> Result<Replayed, BpgnError> {
    let start = match game.tags.get("FEN") {
        Some(fen) => BughousePosition::from_fen(fen, Timing::RealTime),
        None => BughousePosition::start_position(&RuleOptions::default()),
    }
    .map_err(BpgnError::Setup)?;
    let control = game
        .tags
        .get("TimeControl")
        .filter(|t| !t.is_empty() && *t != "-" && *t != "?")
        .map(parse_time_control)
        .transpose()?;
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(game.moves.len());
    for (i, m) in game.moves.iter().enumerate() {
        let error = |error: MoveError| BpgnError::Move {
            index: i + 1,
            text: format!(
                "{}{}. {}",
                m.number,
                BOARD_LETTERS[m.board % 2][m.colour % 2],
                m.san
            ),
            error,
        };
        let board = &position.boards()[m.board % 2];
        if board.turn() as usize != m.colour {
            return Err(error(MoveError::Illegal(format!(
                "it is {} to move on board {}",
                ["White", "Black"][board.turn() as usize],
                ["A", "B"][m.board % 2]
            ))));
        }
        if board.fullmove() != m.number {
            return Err(error(MoveError::Illegal(format!(
                "board {} is at move {}",
                ["A", "B"][m.board % 2],
                board.fullmove()
            ))));
        }
        let mv = find_move(board, &m.san).map_err(error)?;
        position.play_board_move(m.board, mv).map_err(error)?;
        moves.push((m.board, mv, m.clock));
    }
    if let Some(o) = position.outcome() {
        let played = result_text(Some(o));
        let given = game
            .result
            .clone()
            .or_else(|| game.tags.get("Result").map(str::to_string))
            .unwrap_or_else(|| "*".to_string());
        if given != played {
            return Err(BpgnError::Result { given, played });
        }
    }
    Ok(Replayed {
        tags: game.tags.clone(),
        start,
        moves,
        position,
        control,
    })
}

/// Reads and checks every game of a BPGN text.
pub fn read(text: &str) -> Result<Vec<Replayed>, BpgnError> {
    parse(text)?.iter().map(replay).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_rules::clock::Clock;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn clock_stamps_round_trip() {
        for ms in [0, 1, 45, 100, 179_800, 180_000, 59_999] {
            let d = Duration::from_millis(ms);
            assert_eq!(parse_seconds(&seconds_text(d)), Some(d), "{ms}");
        }
        assert_eq!(seconds_text(Duration::from_millis(179_800)), "179.8");
        assert_eq!(seconds_text(secs(180)), "180.0");
        for bad in ["", ".5", "5.", "1.2345", "x", "1e3", "-1", "1234567890"] {
            assert_eq!(parse_seconds(bad), None, "{bad}");
        }
    }

    #[test]
    fn time_control_tags() {
        let c = parse_time_control("180+2").unwrap();
        assert_eq!(c, TimeControl::fischer(secs(180), secs(2)));
        assert_eq!(time_control_text(c), "180+2");
        for bad in ["", "3", "0+0", "a+1", "1+", "999999999+0"] {
            assert!(parse_time_control(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_turn_based_game_round_trips() {
        let options =
            RuleOptions::parse(BughousePosition::option_specs(), &["timing=turn-based"]).unwrap();
        let mut game = Game::new(BughousePosition::start_position(&options).unwrap());
        for m in [
            "e2e4", "d2d4", "b8c6", "e7e5", "d2d4", "d4e5", "c6d4", "d8e7", "d1d4",
        ] {
            game.play_text(m).unwrap();
        }
        let text = write_game(&game, None).unwrap();
        assert!(
            text.contains("1A. e4 1B. d4 1a. Nc6 1b. e5 2A. d4 2B. dxe5 2a. Nxd4"),
            "{text}"
        );
        assert!(text.contains("[FEN \"A:"), "{text}");
        let replayed = read(&text).unwrap();
        assert_eq!(replayed.len(), 1);
        assert_eq!(replayed[0].write().unwrap(), text);
        let boards = replayed[0].position.boards();
        assert_eq!(boards[0].fen(), game.position().boards()[0].fen());
        assert_eq!(boards[1].fen(), game.position().boards()[1].fen());
        let _ = Timing::TurnBased;
    }

    #[test]
    fn a_timed_game_with_clock_stamps_round_trips() {
        let control = TimeControl::fischer(secs(300), secs(3));
        let start = BughousePosition::start_position(
            &RuleOptions::parse(BughousePosition::option_specs(), &["clock=5+3"]).unwrap(),
        )
        .unwrap();
        // Each board's clock runs from its previous move; a stamp is the mover's time after
        // his move, increment included.
        let mut clock = Clock::new(control, 4);
        let mut since = [Duration::ZERO; 2];
        let mut p = start.clone();
        let mut moves = Vec::new();
        let ms = Duration::from_millis;
        for (board, m, at) in [
            (0, "e2e4", 1_200),
            (1, "d2d4", 2_500),
            (0, "d7d5", 3_050),
            (0, "e4d5", 4_000),
            (1, "P@e5", 6_001),
            (0, "d8d5", 9_999),
            (1, "d4e5", 12_000),
            (1, "b8c6", 12_500),
            (0, "b1c3", 13_500),
            (0, "P@e4", 14_000),
        ] {
            let seat = crate::bughouse::seat(board, p.boards()[board].turn() as usize);
            let mv = p.play_on_board(board, m).unwrap();
            clock.complete_turn(seat, ms(at) - since[board]).unwrap();
            since[board] = ms(at);
            moves.push((board, mv, Some(clock.time_available(seat))));
        }
        let both_flags = Outcome::draw(4, Reason::Simultaneous);
        let text = write_timed(&start, Some(control), &moves, Some(&both_flags)).unwrap();
        assert!(text.contains("[TimeControl \"300+3\"]"), "{text}");
        assert!(text.contains("[Termination \"simultaneous\"]"), "{text}");
        assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
        assert!(text.contains("1A. e4 {301.8} 1B. d4 {300.5}"), "{text}");
        assert!(text.contains("P@e4"), "{text}");
        assert!(!text.contains("[FEN"), "{text}");
        let replayed = read(&text).unwrap();
        assert_eq!(replayed[0].write().unwrap(), text);
        assert_eq!(replayed[0].control, Some(control));
        let stamps: Vec<Option<Duration>> = replayed[0].moves.iter().map(|m| m.2).collect();
        let ours: Vec<Option<Duration>> = moves.iter().map(|m| m.2).collect();
        assert_eq!(stamps, ours);
    }

    #[test]
    fn mate_and_promotion_are_written_the_bughouse_way() {
        // A distant check is `+` even without a reply (the player waits); a smothered mate `#`.
        let start = BughousePosition::from_fen(
            "A:6rk/P1p3pp/8/8/8/8/8/4K3[N] w - - 0 1 | B:k7/8/8/8/8/8/5PPP/6K1[r] b - - 0 1",
            Timing::RealTime,
        )
        .unwrap();
        let mut p = start.clone();
        let mut moves = Vec::new();
        for (board, m) in [(0, "a7a8q"), (1, "R@b1"), (0, "c7c6"), (0, "N@f7")] {
            let mv = p.play_on_board(board, m).unwrap();
            moves.push((board, mv, None));
        }
        let tags = tags_for(&start, None, p.outcome());
        let text = write_moves(&start, &moves, &tags).unwrap();
        assert!(
            text.contains("1A. a8=Q 1b. R@b1+ 1a. c6 2A. N@f7# 1-0"),
            "{text}"
        );
        let again = read(&text).unwrap();
        assert_eq!(again[0].write().unwrap(), text);
        // Lenient reading: coordinate moves and SAN without `x` or `=`.
        let loose = text.replace("a8=Q", "a8Q").replace("N@f7#", "N@f7");
        assert_eq!(read(&loose).unwrap()[0].moves, again[0].moves);
        let coordinate = text.replace("a8=Q", "a7a8q");
        assert_eq!(read(&coordinate).unwrap()[0].moves, again[0].moves);
    }

    #[test]
    fn bad_records_are_typed_errors() {
        let syntax = |t: &str| matches!(parse(t), Err(BpgnError::Syntax { .. }));
        assert!(syntax("[WhiteA x]"));
        assert!(syntax("[WhiteA \"x\""));
        assert!(syntax("1A. e4 {open"));
        assert!(syntax("1A. e4 (1A. d4) *"));
        assert!(syntax("e4 *"), "a move without its number");
        assert!(syntax("1C. e4 *"));
        assert!(syntax("1A e4 *"));
        assert!(syntax("1A. *"), "a number without its move");
        assert!(syntax("1A."));
        assert!(syntax("99999999A. e4"));
        assert!(matches!(
            parse(&" ".repeat(MAX_PGN_LEN + 1)),
            Err(BpgnError::TooLarge(_))
        ));
        let replay_error = |t: &str| read(t).unwrap_err();
        assert!(
            matches!(replay_error("1a. e5 *"), BpgnError::Move { index: 1, .. }),
            "Black first"
        );
        assert!(
            matches!(replay_error("2A. e4 *"), BpgnError::Move { index: 1, .. }),
            "number"
        );
        assert!(matches!(
            replay_error("1A. e4 1B. e4 1a. e4 *"),
            BpgnError::Move { index: 3, .. }
        ));
        assert!(
            matches!(replay_error("1A. N@e4 *"), BpgnError::Move { .. }),
            "empty pocket"
        );
        assert!(matches!(
            replay_error("[FEN \"A:8/8 w - - 0 1 | B:x\"]\n\n*"),
            BpgnError::Setup(_)
        ));
        assert!(matches!(
            replay_error("[TimeControl \"fast\"]\n\n*"),
            BpgnError::TimeControl(_)
        ));
        // A mate with the wrong result.
        let mate = "[FEN \"A:6rk/p5pp/8/8/8/8/8/4K3[N] w - - 0 1 | B:4k3/8/8/8/8/8/8/4K3[] w - - 0 1\"]\n\n1A. N@f7# 0-1\n";
        assert!(matches!(replay_error(mate), BpgnError::Result { .. }));
        assert!(read(&mate.replace("0-1", "1-0")).is_ok());
        assert!(
            matches!(
                replay_error(&mate.replace("0-1", "1a. Kxh7 1-0")),
                BpgnError::Move { index: 2, .. }
            ),
            "no move after the end"
        );
        // Hostile text never panics.
        for t in [
            "{",
            "}",
            "1A.\u{e9}",
            "[",
            "[]",
            "1A. \u{1F600}",
            "1A.{1} *",
            "%x\n1A. e4 {1.5}{2.5} *",
        ] {
            let _ = read(t);
        }
    }

    #[test]
    fn mutated_records_never_panic() {
        let text = "[WhiteA \"a\"]\n[TimeControl \"180+0\"]\n\n1A. e4 {179.5} 1B. d4 {178.25} 1a. d5 1b. e5 2A. exd5 2B. dxe5 2a. Qxd5 2b. P@e4 3A. Nf3 *\n";
        if let Err(e) = read(text) {
            panic!("{e}");
        }
        let chars: Vec<char> = text.chars().collect();
        let mut variants = 0;
        for i in 0..chars.len() {
            let deleted: String = chars[..i].iter().chain(&chars[i + 1..]).collect();
            let _ = read(&deleted);
            for extra in [
                '.', '{', '}', '@', '#', '=', 'x', '9', 'a', 'B', ' ', '\u{e9}', '"', ']',
            ] {
                let mut inserted = chars.clone();
                inserted.insert(i, extra);
                let _ = read(&inserted.into_iter().collect::<String>());
                variants += 1;
            }
        }
        assert!(variants > 1000);
    }
}
