//! PGN: export of a game with its `Variant` tag, and import of one or more games.

use crate::occasion::{Occasion, TimeLimit, seconds_text};
use crate::san;
use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::position::excerpt;
use chaturanga_rules::{
    Game, MoveError, OptionSpec, OptionValues, Position, RuleOptions, Ruleset, SetupError, Status,
};
use std::borrow::Cow;
use std::fmt;

/// Largest PGN text accepted.
pub const MAX_PGN_LEN: usize = 8 << 20;

/// The tag pairs of a game, in order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tags(pub Vec<(String, String)>);

impl Tags {
    /// The tag section: one `[Name "value"]` line per tag, then the blank line.
    pub fn header(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.0 {
            out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
        }
        out.push('\n');
        out
    }

    /// The value of a tag.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an existing value.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.0.iter_mut().find(|(k, _)| k == name) {
            Some(pair) => pair.1 = value.to_string(),
            None => self.0.push((name.to_string(), value.to_string())),
        }
    }

    /// The seven-tag roster with unknowns, the `Variant` tag, the result, and `FEN`/`SetUp`
    /// when the game does not start from the ruleset's start position (default rule
    /// options, nothing known of the occasion; see [`Tags::for_record`]).
    pub fn for_game<P: Ruleset>(variant: &str, game: &Game<P>) -> Tags {
        let options = RuleOptions::parse::<&str>(P::option_specs(), &[]).unwrap_or_default();
        Tags::for_record(
            &PgnSetup {
                variant,
                foreign_start: None,
                options: &options,
                recorded: &[],
            },
            &Occasion::default(),
            game,
        )
    }

    /// A record's tags, in this order:
    ///
    /// - the seven-tag roster: `Event`, `Site`, `Date` (`2026.12.07`; `?` where the
    ///   [`Occasion`] does not say), `Round` (`-`: our games are not played in rounds),
    ///   `White`, `Black` (each seat's name under its [`player_tag`]), `Result`; then the
    ///   tags of seats beyond two (three-player chess's `Red`);
    /// - `UTCDate` and `UTCTime` where the start is known, as lichess writes them;
    /// - `Variant`; `TimeControl` where the occasion says anything of a clock
    ///   ([`time_control_text`], `-` for none); `Termination` (our reason word) once the game
    ///   is over;
    /// - the rule options to record (`RuleOptions`);
    /// - `SetUp`/`FEN` unless a reader can tell the start position from the rest: it is the
    ///   ruleset's start position under the game's options and the start other programs give
    ///   the `Variant` ([`PgnSetup::foreign_start`]);
    /// - the occasion's own tags, last, replacing any of the above they name.
    pub fn for_record<P: Ruleset>(
        setup: &PgnSetup<'_>,
        occasion: &Occasion,
        game: &Game<P>,
    ) -> Tags {
        let mut tags = Tags::default();
        let date = occasion.started.map(|t| t.pgn_date());
        for (k, v) in [
            ("Event", occasion.event.as_deref().unwrap_or("?")),
            ("Site", occasion.site.as_deref().unwrap_or("?")),
            ("Date", date.as_deref().unwrap_or("????.??.??")),
            ("Round", "-"),
            ("White", "?"),
            ("Black", "?"),
        ] {
            tags.set(k, v);
        }
        tags.set("Result", &result_of(game));
        let position = game.position();
        let seats = position.players();
        for (seat, name) in occasion.players.iter().enumerate().take(seats) {
            tags.set(&player_tag(position.player_name(seat), seat, seats), name);
        }
        if let Some(started) = occasion.started {
            tags.set("UTCDate", &started.pgn_date());
            tags.set("UTCTime", &started.time_of_day());
        }
        tags.set("Variant", setup.variant);
        match occasion.clock {
            TimeLimit::Unknown => {}
            TimeLimit::Unlimited => tags.set("TimeControl", "-"),
            TimeLimit::Limited(control) => tags.set("TimeControl", &time_control_text(&control)),
        }
        if let Status::Over(outcome) = game.status() {
            tags.set("Termination", outcome.reason.as_str());
        }
        tags.set_options(setup.recorded);
        let start = game.start().fen();
        let ours = P::start_position(setup.options).ok().map(|p| p.fen());
        let known = ours.as_deref() == Some(start.as_str())
            && setup.foreign_start.is_none_or(|foreign| foreign == start);
        if !known {
            tags.set("SetUp", "1");
            tags.set("FEN", &start);
        }
        for (name, value) in &occasion.tags {
            tags.set(name, value);
        }
        tags
    }

    /// Records rule options (`name=value`) in the [`OPTIONS_TAG`], if there are any.
    pub fn set_options(&mut self, recorded: &[String]) {
        if !recorded.is_empty() {
            self.set(OPTIONS_TAG, &recorded.join(" "));
        }
    }

    /// The rule options recorded in the [`OPTIONS_TAG`] (`name=value` items); none when
    /// it is absent.
    pub fn options(&self) -> Vec<String> {
        self.get(OPTIONS_TAG)
            .map(|v| {
                v.split_whitespace()
                    .take(MAX_OPTIONS)
                    .map(|o| o.chars().take(MAX_OPTION_LEN).collect())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The tag (and KIF header item, and CSA comment) that records the rule options of a game
/// that are not at their defaults: `[RuleOptions "fide-claims=on"]`, items separated by
/// spaces.
pub const OPTIONS_TAG: &str = "RuleOptions";
/// Most rule options one record gives; more are not read.
const MAX_OPTIONS: usize = 32;
/// Longest `name=value` item kept.
const MAX_OPTION_LEN: usize = 128;

/// What a PGN record says about its ruleset, for [`Tags::for_record`].
#[derive(Clone, Copy, Debug)]
pub struct PgnSetup<'a> {
    /// The `Variant` tag's value.
    pub variant: &'a str,
    /// The start position (FEN) other programs give `variant`, where it is not ours.
    pub foreign_start: Option<&'a str>,
    /// The rule options the game is played under.
    pub options: &'a RuleOptions,
    /// The rule options to record ([`recorded_options`]).
    pub recorded: &'a [String],
}

/// The options a record may tell: secrets ([`OptionValues::Seed`]) only with
/// `reveal_secrets`.
fn told(specs: &[OptionSpec], reveal_secrets: bool) -> impl Iterator<Item = &OptionSpec> {
    specs
        .iter()
        .filter(move |spec| reveal_secrets || !matches!(spec.values, OptionValues::Seed))
}

/// The rule options a record gives: those not at their defaults, as `name=value`, in the
/// ruleset's order. Secrets ([`OptionValues::Seed`], Chex's draw order) only with
/// `reveal_secrets`: a record of a game still going on must not tell them.
pub fn recorded_options(
    specs: &[OptionSpec],
    options: &RuleOptions,
    reveal_secrets: bool,
) -> Vec<String> {
    told(specs, reveal_secrets)
        .filter_map(|spec| {
            let value = options.get(spec.name)?;
            (value != spec.default).then(|| format!("{}={value}", spec.name))
        })
        .collect()
}

/// The rule options in force, each in words for a person reading the record:
/// `Label: what the value means (name=value)` (`Draw claims: Draws by threefold repetition
/// and the fifty-move rule are automatic (fide-claims=off)`), every option of the ruleset in
/// its order, defaults too (a record says under which rules its game was played); the
/// option's `help` where it has no words for the value. Secrets ([`OptionValues::Seed`])
/// only with `reveal_secrets`, as in [`recorded_options`].
pub fn options_in_words(
    specs: &[OptionSpec],
    options: &RuleOptions,
    reveal_secrets: bool,
) -> Vec<String> {
    told(specs, reveal_secrets)
        .map(|spec| {
            let value = options.get(spec.name).unwrap_or(spec.default);
            match (spec.label, spec.explain(value)) {
                (label, Some(words)) if !label.is_empty() => {
                    format!("{label}: {words} ({}={value})", spec.name)
                }
                _ => format!("{}={value} ({})", spec.name, spec.help),
            }
        })
        .collect()
}

/// PGN's `TimeControl` value of a control, in seconds:
///
/// - `300+3`: main time plus an increment per move (`300+0` without one), as lichess writes
///   it (the standard's sudden death `300` is the same control);
/// - `40/5400`: moves per session, the session's time given again after each (`+5` follows
///   where there is an increment too);
/// - byo-yomi, which PGN's standard cannot say, extends the first form: `600+0|30` is ten
///   minutes, then a period of thirty seconds for every move; `600+0|30x3` gives three such
///   periods. A fixed time per move is byo-yomi without main time: `0+0|30`; correspondence
///   at three days a move is `0+0|259200`.
///
/// Fractions of a second have up to three decimals (`10+0.1`).
pub fn time_control_text(control: &TimeControl) -> String {
    let mut text = match control.moves_per_session {
        Some(moves) => format!("{moves}/{}", seconds_text(control.base)),
        None => format!(
            "{}+{}",
            seconds_text(control.base),
            seconds_text(control.increment)
        ),
    };
    if control.moves_per_session.is_some() && !control.increment.is_zero() {
        text.push_str(&format!("+{}", seconds_text(control.increment)));
    }
    if let Some(byo_yomi) = control.byo_yomi {
        text.push_str(&format!("|{}", seconds_text(byo_yomi.period)));
        if byo_yomi.periods != 1 {
            text.push_str(&format!("x{}", byo_yomi.periods));
        }
    }
    text
}

/// The tag under which PGN names player `player` of `players`: in a two-player game `White`
/// or `Black` where the ruleset calls him so (shogi's first player, sente, is `Black`), else
/// by his place (`White` for the first, xiangqi's red); with more players, his own name
/// capitalised (three-player chess's `White`, `Red` and `Black`).
pub fn player_tag(player_name: &str, player: usize, players: usize) -> Cow<'static, str> {
    if players > 2 {
        let mut letters = player_name.chars();
        return match letters.next() {
            Some(first) => Cow::Owned(first.to_uppercase().chain(letters).collect()),
            None => Cow::Owned(format!("Player{}", player + 1)),
        };
    }
    Cow::Borrowed(if player_name.eq_ignore_ascii_case("black") {
        "Black"
    } else if player_name.eq_ignore_ascii_case("white") || player == 0 {
        "White"
    } else {
        "Black"
    })
}

fn result_of<P: Position>(game: &Game<P>) -> String {
    match game.status() {
        Status::Over(o) => o.result(),
        Status::Ongoing { .. } => "*".to_string(),
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a game as PGN: tags, then SAN movetext (the ruleset's own move text where it has no
/// SAN) wrapped at 80 columns, then the result.
pub fn write<P: Position>(game: &Game<P>, tags: &Tags) -> Result<String, MoveError> {
    write_with_comments(game, tags, &[])
}

/// Like [`write`], with `comments` before the first move (the rule options in words), each
/// its own `{...}` wrapped at 80 columns: readers keep them as the game's comment.
pub fn write_with_comments<P: Position>(
    game: &Game<P>,
    tags: &Tags,
    comments: &[String],
) -> Result<String, MoveError> {
    let mut out = tags.header();
    write_comments(&mut out, comments);
    let mut tokens = Vec::new();
    let positions = game.positions();
    // Counted here rather than read from each position: shogi-family FENs number plies, and
    // a compound turn is several moves of one number.
    let mut number = game.start().move_number();
    for (i, &mv) in game.moves().iter().enumerate() {
        let position = &positions[i];
        let mover = position.side_to_move();
        let turn_starts = i == 0 || positions[i - 1].side_to_move() != mover;
        if mover == 0 && turn_starts {
            if i > 0 {
                number += 1;
            }
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        // Rulesets without SAN (no `describe`): their own move text, as `replay` reads it.
        tokens.push(if position.describe(mv).is_some() {
            san::to_san(position, mv)?
        } else {
            position.move_text(mv)
        });
    }
    tokens.push(
        tags.get("Result")
            .map_or_else(|| result_of(game), str::to_string),
    );
    wrap_movetext(&mut out, tokens);
    Ok(out)
}

/// Appends each comment as `{comment}` in lines of at most 80 columns; braces inside become
/// parentheses, since a comment ends at the first `}`. Records that extend PGN (BPGN) share it.
pub fn write_comments(out: &mut String, comments: &[String]) {
    for comment in comments {
        let text = format!("{{{}}}", comment.replace('{', "(").replace('}', ")"));
        wrap_movetext(out, text.split_whitespace().map(str::to_string).collect());
    }
}

/// Appends movetext tokens to `out` in lines of at most 80 columns (a longer token stands
/// alone), ending with a newline; records that extend PGN (BPGN) share it.
pub fn wrap_movetext(out: &mut String, tokens: Vec<String>) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
}

/// A game as read from PGN text, before its moves are checked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PgnGame {
    /// Tag pairs.
    pub tags: Tags,
    /// Move tokens (SAN or coordinate), in order.
    pub moves: Vec<String>,
    /// The result token, if the movetext ended with one.
    pub result: Option<String>,
}

impl PgnGame {
    /// The ruleset id named by the `Variant` tag (`chess` when absent or `Standard`).
    pub fn variant(&self) -> String {
        match self.tags.get("Variant") {
            None => "chess".to_string(),
            Some(v) if v.eq_ignore_ascii_case("standard") || v.eq_ignore_ascii_case("chess") => {
                "chess".to_string()
            }
            Some(v) => v.to_ascii_lowercase(),
        }
    }
}

/// Why PGN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
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
    /// A move that is not legal (or not readable) at its ply.
    Move {
        /// Ply, 1-based.
        ply: usize,
        /// The move's number as the movetext gives it, and whether it is not the first
        /// player's (`12...`).
        number: (u32, bool),
        /// The move text.
        text: String,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::TooLarge(n) => write!(f, "PGN of {n} bytes is too large"),
            PgnError::Syntax { line, message } => write!(f, "PGN line {line}: {message}"),
            PgnError::Setup(e) => write!(f, "PGN FEN tag: {e}"),
            PgnError::Move {
                ply,
                number: (number, later),
                text,
                error,
            } => {
                let dots = if *later { "..." } else { "." };
                write!(f, "PGN move {number}{dots} {text} (ply {ply}): {error}")
            }
        }
    }
}

impl std::error::Error for PgnError {}

/// Most moves (plies) one game may have.
pub const MAX_MOVES: usize = 20_000;

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Splits PGN text into games: tags and move tokens, without checking the moves.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    if text.len() > MAX_PGN_LEN {
        return Err(PgnError::TooLarge(text.len()));
    }
    let mut games = Vec::new();
    let mut current = PgnGame::default();
    let mut in_movetext = false;
    let mut comment_depth = 0usize; // inside { }
    let mut variation_depth = 0usize; // inside ( )
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let syntax = |message: &str| PgnError::Syntax {
            line: line_no,
            message: message.to_string(),
        };
        let line = raw.trim();
        if comment_depth == 0 && variation_depth == 0 && line.starts_with('[') {
            if in_movetext {
                // A tag after movetext starts the next game (no result token seen).
                games.push(std::mem::take(&mut current));
                in_movetext = false;
            }
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| syntax("unterminated tag"))?;
            let (name, value) = inner
                .split_once(char::is_whitespace)
                .ok_or_else(|| syntax("tag without value"))?;
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| syntax("tag value must be quoted"))?;
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(syntax("bad tag name"));
            }
            current.tags.0.push((
                name.to_string(),
                value.replace("\\\"", "\"").replace("\\\\", "\\"),
            ));
            continue;
        }
        if line.starts_with('%') {
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            let c = rest.chars().next().unwrap_or(' ');
            if comment_depth > 0 {
                match rest.find('}') {
                    Some(i) => {
                        comment_depth = 0;
                        rest = &rest[i + 1..];
                    }
                    None => rest = "",
                }
                continue;
            }
            match c {
                '{' => {
                    comment_depth = 1;
                    rest = &rest[1..];
                }
                ';' => rest = "",
                '(' => {
                    variation_depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    if variation_depth == 0 {
                        return Err(syntax("unbalanced ')'"));
                    }
                    variation_depth -= 1;
                    rest = &rest[1..];
                }
                // Outside a comment it closes nothing; as a token it would be empty.
                '}' => return Err(syntax("unbalanced '}'")),
                c if c.is_whitespace() => rest = rest.trim_start(),
                _ => {
                    let end = rest
                        .find(|ch: char| ch.is_whitespace() || "{}();".contains(ch))
                        .unwrap_or(rest.len());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if variation_depth > 0 {
                        continue;
                    }
                    in_movetext = true;
                    if RESULTS.contains(&token) {
                        current.result = Some(token.to_string());
                        games.push(std::mem::take(&mut current));
                        in_movetext = false;
                        continue;
                    }
                    if token.starts_with('$') {
                        continue;
                    }
                    // Move numbers ("12.", "12...", glued "12.e4") and lone dots.
                    let after_number = token.trim_start_matches(|ch: char| ch.is_ascii_digit());
                    let mv = if after_number.starts_with('.') {
                        after_number.trim_start_matches('.')
                    } else {
                        token
                    };
                    if mv.is_empty() {
                        continue;
                    }
                    if current.moves.len() >= MAX_MOVES {
                        return Err(syntax("too many moves in one game"));
                    }
                    current.moves.push(mv.to_string());
                }
            }
        }
    }
    if comment_depth > 0 || variation_depth > 0 {
        return Err(PgnError::Syntax {
            line: text.lines().count(),
            message: "unterminated comment or variation".to_string(),
        });
    }
    if in_movetext || !current.tags.0.is_empty() {
        games.push(current);
    }
    Ok(games)
}

/// Plays a parsed game's moves (SAN, or coordinate notation) from its start position.
pub fn replay<P: Ruleset>(game: &PgnGame, options: &RuleOptions) -> Result<Game<P>, PgnError> {
    let start = match game.tags.get("FEN") {
        Some(fen) => P::from_fen_with(options, fen),
        None => P::start_position(options),
    }
    .map_err(PgnError::Setup)?;
    let mut replayed = Game::new(start);
    // Numbered as `write` numbers them.
    let mut number = replayed.start().move_number();
    for (i, text) in game.moves.iter().enumerate() {
        let position = replayed.position();
        let mover = position.side_to_move();
        let turn_starts = i == 0 || replayed.positions()[i - 1].side_to_move() != mover;
        if mover == 0 && turn_starts && i > 0 {
            number += 1;
        }
        let mv = san::parse_san(position, text)
            .or_else(|e| position.parse_move(text).map_err(|_| e))
            .map_err(|error| PgnError::Move {
                ply: i + 1,
                number: (number, mover != 0),
                text: excerpt(text),
                error,
            })?;
        replayed.play_through_draws(mv);
    }
    Ok(replayed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_variants::chess::ChessPosition;

    fn options() -> RuleOptions {
        RuleOptions::parse::<&str>(ChessPosition::option_specs(), &[]).unwrap()
    }

    #[test]
    fn export_then_import_round_trips() {
        let start = ChessPosition::start_position(&options()).unwrap();
        let mut game = Game::new(start);
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            game.play_text(m).unwrap();
        }
        let tags = Tags::for_game("chess", &game);
        let text = write(&game, &tags).unwrap();
        assert!(text.contains("[Variant \"chess\"]"), "{text}");
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
        assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");
        assert!(!text.contains("[FEN"), "{text}");
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed.len(), 1);
        assert_eq!(parsed[0].variant(), "chess");
        assert_eq!(parsed[0].result.as_deref(), Some("0-1"));
        let again: Game<ChessPosition> = replay(&parsed[0], &options()).unwrap();
        assert_eq!(again.moves(), game.moves());
    }

    #[test]
    fn export_from_a_fen_with_black_to_move() {
        let o = options();
        let start = ChessPosition::from_fen_with(&o, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1").unwrap();
        let mut game = Game::new(start);
        game.play_text("d7d5").unwrap();
        game.play_text("e5d6").unwrap();
        let text = write(&game, &Tags::for_game("chess", &game)).unwrap();
        assert!(text.contains("[SetUp \"1\"]"));
        assert!(text.contains("[FEN \"4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1\"]"));
        assert!(text.contains("1... d5 2. exd6 *"), "{text}");
        let again: Game<ChessPosition> = replay(&parse(&text).unwrap()[0], &o).unwrap();
        assert_eq!(again.position().fen(), game.position().fen());
    }

    /// Rulesets without SAN are written in their own move text and read back; the move
    /// numbers count whole turns even where the ruleset's FEN counts plies (shogi) or a turn
    /// has two moves (double-move chess).
    #[test]
    fn rulesets_without_san_and_other_move_counts() {
        use chaturanga_variants::chushogi::ChuShogiPosition;
        use chaturanga_variants::doublemove::DoubleMovePosition;
        use chaturanga_variants::shogi::ShogiPosition;

        fn record<P: Ruleset>(id: &str, moves: &[&str]) -> (Game<P>, String) {
            let o = RuleOptions::parse::<&str>(P::option_specs(), &[]).unwrap();
            let mut game = Game::new(P::start_position(&o).unwrap());
            for m in moves {
                game.play_text(m).unwrap();
            }
            let text = write(&game, &Tags::for_game(id, &game)).unwrap();
            let again: Game<P> = replay(&parse(&text).unwrap()[0], &o).unwrap();
            assert_eq!(again.moves(), game.moves(), "{text}");
            (game, text)
        }
        let (_, chu) = record::<ChuShogiPosition>("chushogi", &["7i7h", "6d6e", "7h7g"]);
        assert!(chu.contains("1. 7i7h 6d6e 2. 7h7g *"), "{chu}");
        let (_, shogi) = record::<ShogiPosition>("shogi", &["7g7f", "3c3d", "2g2f"]);
        assert!(shogi.contains("1. P7f P3d 2. P2f *"), "{shogi}");
        let (_, double) =
            record::<DoubleMovePosition>("doublemove", &["e2e4", "d7d5", "e7e5", "g1f3", "b1c3"]);
        assert!(double.contains("1. e4 d5 e5 2. Nf3 Nc3 *"), "{double}");
    }

    /// Rule options are recorded when they are not the defaults and read back; the FEN is
    /// written when the start is not what the `Variant` and the options give, here or in
    /// other programs (Capablanca's array).
    #[test]
    fn options_and_foreign_starts() {
        use chaturanga_variants::capablanca::{CapablancaPosition, STANDARD_START};
        let specs = CapablancaPosition::option_specs();
        for (items, fen_written) in [(&[][..], true), (&["setup=standard"][..], false)] {
            let options = RuleOptions::parse(specs, items).unwrap();
            let recorded = recorded_options(specs, &options, true);
            assert_eq!(recorded, items);
            let mut game = Game::new(CapablancaPosition::start_position(&options).unwrap());
            game.play_text("e2e4").unwrap();
            let setup = PgnSetup {
                variant: "Capablanca",
                foreign_start: Some(STANDARD_START),
                options: &options,
                recorded: &recorded,
            };
            let text = write(
                &game,
                &Tags::for_record(&setup, &Occasion::default(), &game),
            )
            .unwrap();
            assert_eq!(text.contains("[FEN "), fen_written, "{text}");
            assert_eq!(
                text.contains("[RuleOptions \"setup=standard\"]"),
                !items.is_empty(),
                "{text}"
            );
            let parsed = &parse(&text).unwrap()[0];
            assert_eq!(parsed.tags.options(), items);
            let again: Game<CapablancaPosition> = replay(
                parsed,
                &RuleOptions::parse(specs, &parsed.tags.options()).unwrap(),
            )
            .unwrap();
            assert_eq!(again.start().fen(), game.start().fen());
            assert_eq!(again.position().fen(), game.position().fen());
        }
        // Secrets only when asked.
        let chex = chaturanga_variants::chex::ChexPosition::option_specs();
        let key = format!("draw-seed={}", "0123456789abcdef".repeat(4));
        for secret in ["draw-seed=7", key.as_str()] {
            let seeded = RuleOptions::parse(chex, &[secret]).unwrap();
            assert_eq!(recorded_options(chex, &seeded, true), [secret]);
            assert!(recorded_options(chex, &seeded, false).is_empty());
        }
        assert_eq!(player_tag("black", 0, 2), "Black");
        assert_eq!(player_tag("white", 1, 2), "White");
        assert_eq!(player_tag("red", 0, 2), "White");
        assert_eq!(player_tag("black", 1, 2), "Black");
        assert_eq!(player_tag("red", 1, 3), "Red");
        assert_eq!(player_tag("black", 2, 3), "Black");
    }

    /// What the front end knows of the game fills the roster and the tags after it, in
    /// order; the rule options in words open the movetext; everything reads back.
    #[test]
    fn occasion_tags_and_option_comments() {
        use crate::occasion::UtcTime;
        use chaturanga_rules::clock::TimeControl;
        use std::time::Duration;
        let specs = ChessPosition::option_specs();
        let options = RuleOptions::parse(specs, &["fide-claims=on"]).unwrap();
        let recorded = recorded_options(specs, &options, true);
        let mut game = Game::new(ChessPosition::start_position(&options).unwrap());
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            game.play_text(m).unwrap();
        }
        let occasion = Occasion {
            event: Some("Casual Chess game against the engine".into()),
            site: Some("https://example.org/games/abc".into()),
            started: UtcTime::from_unix_millis(1_796_662_980_000),
            players: vec!["Anonymous".into(), "Chaturanga level 3".into()],
            clock: TimeLimit::Limited(TimeControl::fischer(
                Duration::from_secs(300),
                Duration::from_secs(3),
            )),
            tags: vec![("Annotator".into(), "nobody".into())],
        };
        let setup = PgnSetup {
            variant: "Standard",
            foreign_start: None,
            options: &options,
            recorded: &recorded,
        };
        let tags = Tags::for_record(&setup, &occasion, &game);
        let comments = options_in_words(specs, &options, true);
        assert_eq!(comments.len(), specs.len());
        assert!(
            comments[0].starts_with("Draw claims: Threefold repetition and the fifty-move rule"),
            "{comments:?}"
        );
        let text = write_with_comments(&game, &tags, &comments).unwrap();
        let header = "[Event \"Casual Chess game against the engine\"]\n\
                      [Site \"https://example.org/games/abc\"]\n\
                      [Date \"2026.12.07\"]\n\
                      [Round \"-\"]\n\
                      [White \"Anonymous\"]\n\
                      [Black \"Chaturanga level 3\"]\n\
                      [Result \"0-1\"]\n\
                      [UTCDate \"2026.12.07\"]\n\
                      [UTCTime \"17:03:00\"]\n\
                      [Variant \"Standard\"]\n\
                      [TimeControl \"300+3\"]\n\
                      [Termination \"checkmate\"]\n\
                      [RuleOptions \"fide-claims=on\"]\n\
                      [Annotator \"nobody\"]\n\
                      \n\
                      {Draw claims: Threefold repetition and the fifty-move rule are draws a player\n";
        assert!(text.starts_with(header), "{text}");
        assert!(text.ends_with("}\n1. f3 e5 2. g4 Qh4# 0-1\n"), "{text}");
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        // Every comment, whole, once.
        let flat = text.replace('\n', " ");
        for comment in &comments {
            assert_eq!(
                flat.matches(&format!("{{{comment}}}")).count(),
                1,
                "{comment}"
            );
        }
        let parsed = &parse(&text).unwrap()[0];
        for (name, value) in &tags.0 {
            assert_eq!(parsed.tags.get(name), Some(value.as_str()), "{name}");
        }
        assert_eq!(parsed.tags.options(), ["fide-claims=on"]);
        let again: Game<ChessPosition> = replay(parsed, &options).unwrap();
        assert_eq!(again.moves(), game.moves());
        // Nothing known: the roster's unknowns and no clock; a game without a clock says so.
        let unknown = Tags::for_game("chess", &game);
        for (name, value) in [
            ("Event", "?"),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", "-"),
            ("White", "?"),
            ("Black", "?"),
        ] {
            assert_eq!(unknown.get(name), Some(value), "{name}");
        }
        assert_eq!(unknown.get("TimeControl"), None);
        assert_eq!(unknown.get("UTCDate"), None);
        let untimed = Occasion {
            clock: TimeLimit::Unlimited,
            ..Occasion::default()
        };
        assert_eq!(
            Tags::for_record(&setup, &untimed, &game).get("TimeControl"),
            Some("-")
        );
        // Braces in a comment cannot end it early.
        let mut out = String::new();
        write_comments(&mut out, &["a {b} c".to_string()]);
        assert_eq!(out, "{a (b) c}\n");
    }

    /// Seats beyond two follow the roster, whose seventh tag stays `Result`.
    #[test]
    fn three_players_tags() {
        use chaturanga_variants::threeplayer::ThreePlayerPosition;
        let options = RuleOptions::parse::<&str>(ThreePlayerPosition::option_specs(), &[]).unwrap();
        let game = Game::new(ThreePlayerPosition::start_position(&options).unwrap());
        let occasion = Occasion {
            players: vec!["A".into(), "B".into(), "C".into()],
            ..Occasion::default()
        };
        let setup = PgnSetup {
            variant: "threeplayer",
            foreign_start: None,
            options: &options,
            recorded: &[],
        };
        let tags = Tags::for_record(&setup, &occasion, &game);
        let names: Vec<&str> = tags.0.iter().map(|(k, _)| k.as_str()).take(8).collect();
        assert_eq!(
            names,
            [
                "Event", "Site", "Date", "Round", "White", "Black", "Result", "Red"
            ]
        );
        assert_eq!(tags.get("White"), Some("A"));
        assert_eq!(tags.get("Red"), Some("B"));
        assert_eq!(tags.get("Black"), Some("C"));
    }

    #[test]
    fn time_control_texts() {
        use chaturanga_rules::clock::TimeControl;
        use std::time::Duration;
        let s = Duration::from_secs;
        for (control, text) in [
            (TimeControl::fischer(s(300), s(3)), "300+3"),
            (TimeControl::fischer(s(600), Duration::ZERO), "600+0"),
            (
                TimeControl::fischer(s(10), Duration::from_millis(100)),
                "10+0.1",
            ),
            (TimeControl::sessions(40, s(5400)), "40/5400"),
            (TimeControl::byo_yomi(s(600), s(30), 1), "600+0|30"),
            (TimeControl::byo_yomi(s(600), s(30), 3), "600+0|30x3"),
            (TimeControl::per_move(s(30)), "0+0|30"),
            (TimeControl::per_move(s(3 * 86_400)), "0+0|259200"),
        ] {
            assert_eq!(time_control_text(&control), text);
        }
        let mut with_increment = TimeControl::sessions(40, s(5400));
        with_increment.increment = s(30);
        assert_eq!(time_control_text(&with_increment), "40/5400+30");
    }

    #[test]
    fn import_tolerates_comments_variations_and_nags() {
        let text = "[Event \"x\"]\n[Variant \"Standard\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3) 2. Nf3 $1 ; comment\n2... Nc6 3.Bb5 a6 *\n\n[Event \"y\"]\n\n1. d4 1-0\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(games[0].variant(), "chess");
        assert_eq!(games[1].moves, ["d4"]);
        let g: Game<ChessPosition> = replay(&games[0], &options()).unwrap();
        assert_eq!(g.moves().len(), 6);
    }

    #[test]
    fn import_errors() {
        assert!(matches!(parse("[Event x]"), Err(PgnError::Syntax { .. })));
        assert!(matches!(parse("1. e4 {open"), Err(PgnError::Syntax { .. })));
        assert!(matches!(parse("1. e4 )"), Err(PgnError::Syntax { .. })));
        // Found by the records fuzz target: a stray '}' made the reader loop for ever.
        assert!(matches!(parse("1. e4 }e5"), Err(PgnError::Syntax { .. })));
        let bad = parse("1. e4 e5 2. Ke3 *").unwrap();
        let err = replay::<ChessPosition>(&bad[0], &options()).unwrap_err();
        assert!(matches!(err, PgnError::Move { ply: 3, .. }), "{err}");
        assert!(
            err.to_string().starts_with("PGN move 2. Ke3 (ply 3): "),
            "{err}"
        );
        let bad = parse("1. e4 e5 2. Nf3 Nf3 *").unwrap();
        let err = replay::<ChessPosition>(&bad[0], &options()).unwrap_err();
        assert!(
            err.to_string().starts_with("PGN move 2... Nf3 (ply 4): "),
            "{err}"
        );
        let bad_fen = parse("[FEN \"8/8/8 w - - 0 1\"]\n\n*").unwrap();
        assert!(matches!(
            replay::<ChessPosition>(&bad_fen[0], &options()),
            Err(PgnError::Setup(_))
        ));
    }
}
