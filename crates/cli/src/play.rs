//! The engine on the command line: `search` (one position, UCI-like output), `play` (a game
//! in the terminal against the engine or between people) and the search benchmark.

use crate::cli::{GameArgs, SearchArgs};
use crate::commands::{record_text, setup};
use crate::error::CliError;
use crate::reader::read_line;
use crate::screen::{self, Look, Seat};
use chaturanga_engine::{Engine, Limits, Sampling, Score, SearchInfo};
use chaturanga_notation::san;
use chaturanga_rules::scene::{MoveShape, Viewer};
use chaturanga_rules::{Game, PieceStyle, Position, Reason, RuleOptions, Ruleset, Status};
use chaturanga_session::{Hosted, RecordFormat, Table, read_move};
use chaturanga_variants::{VariantInfo, Visitor, visit};
use std::io::{BufRead, Read, Write};
use std::time::{Duration, Instant};

/// Transposition table of the command-line engine, in MiB.
const HASH_MB: usize = 64;
/// Time per move of `search` when no limit is given.
const SEARCH_DEFAULT_TIME: Duration = Duration::from_secs(1);
/// Time per engine move of `play` when no limit is given.
const PLAY_DEFAULT_TIME: Duration = Duration::from_secs(2);
/// Longest input line accepted by `play`; longer lines are rejected whole.
const MAX_LINE: u64 = 1_000;
/// Longest PV shown in a thinking line.
const MAX_PV_SHOWN: usize = 12;

/// The engine limits of command-line bounds, with `default_time` when none is given.
fn limits_of(args: &SearchArgs, default_time: Duration) -> Limits {
    Limits {
        depth: args.depth,
        nodes: args.nodes,
        move_time: if args.is_unbounded() {
            Some(default_time)
        } else {
            args.time
        },
        ..Limits::default()
    }
}

/// A move as people read it: SAN where the ruleset has it and its men are chess men, else
/// its coordinate text. SAN is the chess family's notation: shogi and xiangqi players (and
/// their programs, USI and UCCI) write moves as cells (`7g7f`, `P*7e`), not `P7f`, `P@7e`.
fn move_label<P: Position>(position: &P, mv: P::Move) -> String {
    if position.legend().style != PieceStyle::Western {
        return position.move_text(mv);
    }
    san::to_san(position, mv).unwrap_or_else(|_| position.move_text(mv))
}

/// A line of moves from `position`, each in its readable form.
fn line_label<P: Position>(position: &P, line: &[P::Move]) -> String {
    let mut current = position.clone();
    let mut words = Vec::new();
    let mut legal = Vec::new();
    for &mv in line.iter().take(MAX_PV_SHOWN) {
        // A line may end in moves of another position (a stopped search): stop there.
        legal.clear();
        current.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        words.push(move_label(&current, mv));
        current.play_unchecked(mv);
    }
    if line.len() > MAX_PV_SHOWN {
        words.push("…".to_string());
    }
    words.join(" ")
}

/// A score as UCI writes it (`cp 35`, `mate 3`, `mate -2`).
fn uci_score(score: Score) -> String {
    match (score, score.mate_in_moves()) {
        (_, Some(moves)) => format!("mate {moves}"),
        (Score::Centipawns(cp), None) => format!("cp {cp}"),
        (Score::Win { plies }, None) => format!("mate {plies}"),
    }
}

/// `search`: UCI-like `info` lines after each iteration, then `bestmove`.
pub fn search(
    variant: &str,
    game: GameArgs,
    limits: SearchArgs,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let text = visit(variant, SearchOnce { game, limits })??;
    write!(out, "{text}")?;
    Ok(())
}

struct SearchOnce {
    game: GameArgs,
    limits: SearchArgs,
}

impl Visitor for SearchOnce {
    type Output = Result<String, CliError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        let table = setup::<P>(info, &self.game)?;
        let game = table.game();
        if let Status::Over(outcome) = game.status() {
            return Err(CliError::GameOver(outcome));
        }
        let mut engine = Engine::<P>::new(HASH_MB);
        let mut text = String::new();
        // Through the player's view where the ruleset hides information (the line is then
        // the move alone).
        let result = engine.search_hidden(
            game,
            &limits_of(&self.limits, SEARCH_DEFAULT_TIME),
            &Sampling::default(),
            &mut |info: &SearchInfo<P::Move>| {
                let pv: Vec<String> = info
                    .pv
                    .iter()
                    .scan(game.position().clone(), |at, &mv| {
                        // Only the legal start of the line (see `line_label`).
                        let mut legal = Vec::new();
                        at.legal_moves(&mut legal);
                        if !legal.contains(&mv) {
                            return None;
                        }
                        let text = at.move_text(mv);
                        at.play_unchecked(mv);
                        Some(text)
                    })
                    .collect();
                text.push_str(&format!(
                    "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}\n",
                    info.depth,
                    info.seldepth,
                    uci_score(info.score),
                    info.nodes,
                    info.nodes_per_second(),
                    info.elapsed.as_millis(),
                    info.hashfull,
                    pv.join(" ")
                ));
            },
        );
        match result.best {
            Some(mv) => text.push_str(&format!("bestmove {}\n", game.position().move_text(mv))),
            None => text.push_str("bestmove (none)\n"),
        }
        Ok(text)
    }
}

/// Whether a player may be unable to see what another sees (Dark Chess): then a person is
/// shown only his own view, and neither the engine's moves nor the record are shown while the
/// game is on. Where what is hidden is hidden from everyone alike (Chex's draw order), every
/// player has the same view, and the board, the moves and the record are public.
fn private_views<P: Position>(position: &P) -> bool {
    let first = position.player_view(0);
    first.is_some() && (1..position.players()).any(|p| position.player_view(p) != first)
}

/// Runs `play`: a game in the terminal, reading commands and moves from `input`; `flip`
/// turns the boards half round from where they face the person playing.
pub fn play(
    variant: &str,
    game: GameArgs,
    limits: SearchArgs,
    engine_plays: Option<String>,
    flip: bool,
    input_lines: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    visit(
        variant,
        PlaySession {
            game,
            limits: limits_of(&limits, PLAY_DEFAULT_TIME),
            engine_plays,
            flip,
            input: input_lines,
            out,
        },
    )?
}

struct PlaySession<'a> {
    game: GameArgs,
    limits: Limits,
    engine_plays: Option<String>,
    flip: bool,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

/// Which players the engine moves for, from `--engine-plays`.
fn engine_seats<P: Position>(position: &P, text: Option<&str>) -> Result<Vec<bool>, CliError> {
    let players = position.players();
    let Some(text) = text else {
        let human = position.side_to_move();
        return Ok((0..players).map(|p| p != human).collect());
    };
    let mut seats = vec![false; players];
    let ordinals = ["first", "second", "third", "fourth"];
    for word in text.split(',').map(|w| w.trim().to_ascii_lowercase()) {
        match word.as_str() {
            "none" => {}
            "all" | "both" => seats.iter_mut().for_each(|s| *s = true),
            _ => {
                let seat = (0..players).find(|&p| {
                    position.player_name(p) == word || ordinals.get(p) == Some(&word.as_str())
                });
                match seat {
                    Some(p) => seats[p] = true,
                    None => {
                        let mut known: Vec<&str> = vec!["none", "all"];
                        known.extend((0..players).map(|p| position.player_name(p)));
                        known.extend(&ordinals[..players.min(ordinals.len())]);
                        return Err(CliError::NoPlayerNamed { word, known });
                    }
                }
            }
        }
    }
    Ok(seats)
}

const PLAY_HELP: &str = "\
commands:
  <move>        a move: its cells (e2e4; any case, `-` and `x` may be written), with the
                piece a man promotes to (e7e8q) or `+` (shogi: 7c7b+), a drop as piece@cell
                or piece*cell (P@e4, P*5e), SAN (Nf3, O-O) where the ruleset has it, or the
                ruleset's own notation (xiangqi's WXF, shogi's KIF and CSA); the parts of a
                turn of several moves may be given at once, separated by `;`
  go            the engine moves for the player to move
  undo          take back to your previous turn (the engine's reply too)
  resign        give up the game; with three players `resign PLAYER`, in favour of PLAYER,
                which the third player must agree to (else the game goes on)
  draw          claim a draw the rules allow now (repetition, move-count rules); in a
                live Chex game, where no draw is claimed, the draw of a man from the stack
  moves         the legal moves
  board         the position again
  flip          turn the board half round (and back)
  legend        the pieces: how each is shown, its name and how it moves
  fen           the position as FEN
  pgn           the game so far as a record
  save FILE     write the game to FILE (KIF or CSA when FILE ends in .kif or .csa, the
                ruleset's own record where it has one (bughouse: BPGN), else PGN)
  help          this text
  quit          leave

on the board: [x] the last move, (x) a royal man in check, ? a cell you cannot see into";

/// Examples of moves the player to move could type now, in every way the ruleset reads
/// them, taken from the legal moves.
fn move_examples<P: Position>(position: &P) -> String {
    let mut legal = Vec::new();
    position.legal_moves(&mut legal);
    let shapes: Vec<_> = legal.iter().map(|&m| (m, position.move_shape(m))).collect();
    let mut lines = Vec::new();
    let mut add = |text: String, what: &str| lines.push(format!("  {text:<14}{what}"));
    // A plain move of the man the player has most of (a pawn, mostly), else any move.
    let scene = position.scene(Viewer::Arbiter);
    let mover = position.side_to_move();
    let man_on = |label: &str| {
        scene
            .boards
            .iter()
            .flat_map(|b| &b.men)
            .find(|m| m.cell == label && m.owner == mover)
            .map(|m| m.piece.clone())
    };
    let how_many = |piece: &Option<String>| {
        scene
            .boards
            .iter()
            .flat_map(|b| &b.men)
            .filter(|m| m.owner == mover && Some(&m.piece) == piece.as_ref())
            .count()
    };
    let plain = |s: &MoveShape| {
        s.from.is_some()
            && s.to.is_some()
            && s.promotion.is_none()
            && s.split.is_none()
            && s.via.is_empty()
    };
    let mut best: Option<(usize, P::Move)> = None;
    for (mv, shape) in &shapes {
        if plain(shape) {
            let count = how_many(&shape.from.as_deref().and_then(man_on));
            if best.is_none_or(|(c, _)| count > c) {
                best = Some((count, *mv));
            }
        }
    }
    let first = best
        .map(|(_, mv)| mv)
        .or_else(|| shapes.first().map(|(m, _)| *m));
    if let Some(mv) = first {
        let text = position.move_text(mv);
        let what = if position.move_shape(mv).from.is_some() {
            "the cells, from and to"
        } else {
            "a move"
        };
        add(text.clone(), what);
        let other_case = if text.to_lowercase() != text {
            text.to_lowercase()
        } else {
            text.to_uppercase()
        };
        if other_case != text {
            add(other_case, "the same in other letters");
        }
        // SAN where moves are shown so (and a hidden game's SAN tells no check).
        let written = move_label(position, mv);
        if position.player_view(0).is_none() && written != text {
            add(written, "SAN");
        }
        for &notation in position.notations() {
            if let Some(written) = position.write_move(notation, mv) {
                add(written, notation);
            }
        }
        let mut after = position.clone();
        after.play_unchecked(mv);
        if after.side_to_move() == position.side_to_move() && after.count_legal_moves() > 0 {
            let mut next = Vec::new();
            after.legal_moves(&mut next);
            if let Some(&second) = next.first() {
                add(
                    format!("{text};{}", after.move_text(second)),
                    "a whole turn: its parts, separated by ;",
                );
            }
        }
    }
    if let Some(&(mv, ref shape)) = shapes
        .iter()
        .find(|(m, s)| s.drop.is_some() && Some(*m) != first)
    {
        let text = position.move_text(mv);
        let other = if text.contains('@') {
            text.replacen('@', "*", 1)
        } else {
            text.replacen('*', "@", 1)
        };
        add(
            text,
            &format!(
                "a drop of {} (also {other})",
                shape.drop.as_deref().unwrap_or("a man")
            ),
        );
    }
    if let Some(&(mv, _)) = shapes
        .iter()
        .find(|(m, s)| Some(*m) != first && s.promotion.is_some())
    {
        add(position.move_text(mv), "a promotion");
    }
    if let Some(&(mv, _)) = shapes
        .iter()
        .find(|(m, s)| Some(*m) != first && s.split.is_some())
    {
        add(position.move_text(mv), "a split: how many men move");
    }
    if let Some(&(mv, ref shape)) = shapes.iter().find(|(_, s)| !s.via.is_empty()) {
        add(
            position.move_text(mv),
            &format!("a move through {}", shape.via.join(", ")),
        );
    }
    let mut parts: Vec<&str> = shapes.iter().filter_map(|(_, s)| s.part).collect();
    parts.sort_unstable();
    parts.dedup();
    // The part of the turn due goes in the heading, so the first line below is a move.
    let part = if parts.is_empty() {
        String::new()
    } else {
        format!("; this part of the turn: the {}", parts.join(" or the "))
    };
    let mut out = format!(
        "moves {} could type now ({} legal{part}):\n",
        position.player_name(position.side_to_move()),
        legal.len()
    );
    for line in lines {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// What one input line asks for.
enum Request {
    Quit,
    Nothing,
    Text(String),
}

/// Reads one line of at most [`MAX_LINE`] bytes; longer lines are skipped and reported.
fn read_request(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Request, CliError> {
    let mut buffer = Vec::new();
    let read = input.take(MAX_LINE).read_until(b'\n', &mut buffer)?;
    if read == 0 {
        return Ok(Request::Quit);
    }
    if !buffer.ends_with(b"\n") && read as u64 == MAX_LINE {
        // Drop the rest of the overlong line without keeping it in memory.
        let mut rest = Vec::new();
        while input.take(MAX_LINE).read_until(b'\n', &mut rest)? > 0 {
            if rest.ends_with(b"\n") {
                break;
            }
            rest.clear();
        }
        writeln!(out, "error: line longer than {MAX_LINE} bytes ignored")?;
        return Ok(Request::Nothing);
    }
    match String::from_utf8(buffer) {
        Ok(text) if text.trim().is_empty() => Ok(Request::Nothing),
        Ok(text) => Ok(Request::Text(text.trim().to_string())),
        Err(_) => {
            writeln!(out, "error: the line is not UTF-8 text")?;
            Ok(Request::Nothing)
        }
    }
}

/// Who sees the board and from where: the viewer whose scene is drawn, and the player at
/// the bottom.
fn viewpoint<P: Position>(game: &Game<P>, seats: &[bool], flip: bool) -> (Viewer, Seat) {
    let position = game.position();
    let humans: Vec<usize> = (0..seats.len()).filter(|&p| !seats[p]).collect();
    let to_move = position.side_to_move();
    // Private views: a person sees only his own view (the player to move, or the person
    // playing the engine); engine against engine, and a finished game, show everything.
    let private = private_views(position) && matches!(game.status(), Status::Ongoing { .. });
    let viewer = if !private {
        Viewer::Arbiter
    } else if !seats[to_move] {
        Viewer::Player(to_move)
    } else {
        humans
            .first()
            .map_or(Viewer::Arbiter, |&p| Viewer::Player(p))
    };
    let player = match (viewer, humans.as_slice()) {
        (Viewer::Player(p), _) => p,
        (_, [only]) => *only,
        _ => 0,
    };
    (viewer, Seat { player, flip })
}

/// The board as the person sees it, and who is to move.
fn screen_text<P: Ruleset>(
    table: &Hosted<P>,
    legend: &chaturanga_rules::Legend,
    viewer: Viewer,
    seat: Seat,
) -> String {
    let game = table.game();
    let position = game.position();
    let look = Look {
        legend,
        names: (0..position.players())
            .map(|p| position.player_name(p))
            .collect(),
        teams: (0..position.players()).map(|p| position.team(p)).collect(),
    };
    let scene = position.scene(viewer);
    let last = table.last_move(viewer).map(|shape| {
        let before = &game.positions()[game.moves().len() - 1];
        screen::carry_shape(shape, &before.scene(viewer), &scene)
    });
    let mut out = screen::draw(&scene, &look, seat, last.as_ref());
    if let Some(seen) = table.last_move_seen(viewer) {
        let mover = position.player_name(seen.mover);
        // A move the viewer sees is labelled as `moves` lists them (where everything is
        // public; else as the viewer may know it).
        let ply = game.moves().len() - 1;
        let label = match seen.text {
            Some(_) if !private_views(position) => {
                Some(move_label(&game.positions()[ply], game.moves()[ply]))
            }
            text => seen.shown.or(text),
        };
        match label {
            Some(text) => out.push_str(&format!("last move: {text} ({mover})\n")),
            None => out.push_str(&format!("last move: {mover} has moved (unseen)\n")),
        }
    }
    match game.status() {
        Status::Over(outcome) => out.push_str(&format!("game over: {outcome}\n")),
        Status::Ongoing { .. } => {
            let to_move = position.side_to_move();
            // Parts of the turn already played by the player to move, and the part due
            // where the legal moves name it (Avalanche's push).
            let played = (0..game.moves().len())
                .rev()
                .take_while(|&i| game.positions()[i].side_to_move() == to_move)
                .count();
            let mut due: Vec<&str> = game
                .legal_moves()
                .into_iter()
                .filter_map(|mv| position.move_shape(mv).part)
                .collect();
            due.sort_unstable();
            due.dedup();
            let mut line = format!("{} to move", position.player_name(to_move));
            match (played, due.as_slice()) {
                (0, _) => {}
                (n, [part]) => line.push_str(&format!(" (part {} of the turn: the {part})", n + 1)),
                (n, _) => line.push_str(&format!(" (part {} of the turn)", n + 1)),
            }
            if position.is_check() {
                line.push_str(", in check");
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

impl<'a> Visitor for PlaySession<'a> {
    type Output = Result<(), CliError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        let PlaySession {
            game: args,
            limits,
            engine_plays,
            mut flip,
            input,
            out,
        } = self;
        let mut table = setup::<P>(info, &args)?;
        let seats = engine_seats(table.game().position(), engine_plays.as_deref())?;
        let mut engine = Engine::<P>::new(HASH_MB);
        let legend = table.game().position().legend();
        {
            let position = table.game().position();
            let (viewer, _) = viewpoint(table.game(), &seats, flip);
            let look = Look {
                legend: &legend,
                names: (0..position.players())
                    .map(|p| position.player_name(p))
                    .collect(),
                teams: (0..position.players()).map(|p| position.team(p)).collect(),
            };
            writeln!(
                out,
                "{} ({}); men: {}; type `help` for the commands, `legend` for the pieces",
                info.name,
                info.id,
                screen::owners_key(&position.scene(viewer), &look)
            )?;
        }
        let mut show_board = true;
        loop {
            let game = table.game();
            let status = game.status();
            let (viewer, seat) = viewpoint(game, &seats, flip);
            if show_board {
                writeln!(
                    out,
                    "\n{}",
                    screen_text(&table, &legend, viewer, seat).trim_end()
                )?;
                show_board = false;
            }
            let to_move = game.position().side_to_move();
            if matches!(status, Status::Ongoing { .. }) && seats[to_move] {
                if !engine_move(&mut engine, &mut table, &limits, out)? {
                    // Only repetitions the rules forbid are left: nothing the engine may play.
                    writeln!(out, "error: the engine has no move it may play here")?;
                    break;
                }
                show_board = true;
                continue;
            }
            write!(out, "{}> ", game.position().player_name(to_move))?;
            out.flush()?;
            let text = match read_request(input, out)? {
                Request::Quit => break,
                Request::Nothing => continue,
                Request::Text(text) => text,
            };
            let game = table.game();
            let (word, rest) = text.split_once(' ').unwrap_or((&text, ""));
            match word {
                "quit" | "exit" => break,
                "help" => {
                    writeln!(out, "{PLAY_HELP}")?;
                    if matches!(status, Status::Ongoing { .. }) {
                        write!(out, "\n{}", move_examples(game.position()))?;
                    }
                }
                "board" => show_board = true,
                "flip" => {
                    flip = !flip;
                    show_board = true;
                }
                "legend" => {
                    let position = game.position();
                    let look = Look {
                        legend: &legend,
                        names: (0..position.players())
                            .map(|p| position.player_name(p))
                            .collect(),
                        teams: (0..position.players()).map(|p| position.team(p)).collect(),
                    };
                    write!(
                        out,
                        "{}",
                        screen::legend_text(&position.scene(viewer), &look)
                    )?;
                }
                "fen" => match game
                    .position()
                    .player_view(to_move)
                    .filter(|_| private_views(game.position()))
                {
                    // Private views: the fog FEN of the player to move.
                    Some(view) => writeln!(out, "{}", view.lines().next().unwrap_or(""))?,
                    None => writeln!(out, "{}", game.position().fen())?,
                },
                "moves" => {
                    let position = game.position();
                    let labels: Vec<String> = game
                        .legal_moves()
                        .into_iter()
                        .map(|mv| move_label(position, mv))
                        .collect();
                    writeln!(out, "{}", labels.join(" "))?;
                }
                "pgn" | "save"
                    if private_views(game.position())
                        && matches!(status, Status::Ongoing { .. }) =>
                {
                    writeln!(
                        out,
                        "error: the record shows hidden moves; it is given when the game is over"
                    )?;
                }
                "pgn" => match record_text(&table, RecordFormat::Pgn) {
                    Ok((text, _)) => write!(out, "{text}")?,
                    Err(e) => writeln!(out, "error: {e}")?,
                },
                "save" => {
                    let path = rest.trim();
                    let message = save(&table, path);
                    writeln!(out, "{message}")?;
                }
                "undo" => {
                    if undo_turn(&mut table, &seats) {
                        show_board = true;
                    } else {
                        writeln!(out, "error: nothing to take back")?;
                    }
                }
                "go" if matches!(status, Status::Ongoing { .. }) => {
                    if engine_move(&mut engine, &mut table, &limits, out)? {
                        show_board = true;
                    } else {
                        writeln!(out, "error: the engine has no move it may play here")?;
                    }
                }
                // A resignation that names the player it favours (three-player chess) is one
                // of the ruleset's actions, `resign PLAYER`, taken below.
                "resign"
                    if matches!(status, Status::Ongoing { .. })
                        && !table.actions().contains(&text.as_str()) =>
                {
                    let named: Vec<&str> = table
                        .actions()
                        .into_iter()
                        .filter(|a| a.starts_with("resign "))
                        .collect();
                    if !named.is_empty() {
                        writeln!(
                            out,
                            "error: name the player you resign in favour of: {}",
                            named.join(", ")
                        )?;
                    } else if table.players() == 2 {
                        let team = table.team(to_move);
                        table.end(Some(team), Reason::Resignation);
                        show_board = true;
                    } else {
                        writeln!(out, "error: this ruleset has no resignation")?;
                    }
                }
                // Where `draw` is also a move (a live Chex game's draw from the stack), it
                // is the move unless a draw can be claimed (Chex has no claims).
                "draw" if read_move(game.position(), &text).is_err() || table.can_claim_draw() => {
                    if table.claim_draw() {
                        show_board = true;
                    } else {
                        writeln!(out, "error: no draw can be claimed now")?;
                    }
                }
                _ if matches!(status, Status::Over(_)) => writeln!(
                    out,
                    "error: the game is over; `undo`, `save FILE`, `pgn` or `quit`"
                )?,
                _ if table.actions().contains(&text.as_str()) => {
                    match take_action(&mut table, &text, &seats, input, out)? {
                        ActionResult::Done => show_board = true,
                        ActionResult::Refused => {}
                        ActionResult::Quit => break,
                    }
                }
                // A move, or the parts of a turn, in any way the reader takes them.
                _ => match read_line(game.position(), viewer, &text) {
                    Ok(moves) => {
                        let mut at = game.position().clone();
                        let texts: Vec<String> = moves
                            .iter()
                            .map(|&mv| {
                                let text = at.move_text(mv);
                                at.play_unchecked(mv);
                                text
                            })
                            .collect();
                        for text in texts {
                            if let Err(e) = table.play(&text) {
                                writeln!(out, "error: {e}")?;
                                break;
                            }
                        }
                        show_board = true;
                    }
                    Err(e) => writeln!(out, "error: {e}; `moves` lists the legal moves")?,
                },
            }
        }
        Ok(())
    }
}

/// What came of an action the player to move asked for.
enum ActionResult {
    /// It was taken (the game is over).
    Done,
    /// It was refused by the player whose consent it needs, or is not possible.
    Refused,
    /// The input ended while a player was asked for his consent.
    Quit,
}

/// Evaluation (centipawns, from its own point of view) from which the engine, asked to agree
/// to an action that gives it half a point, plays on instead: about a minor piece ahead.
const CONSENT_MARGIN: i32 = 300;

/// Whether the engine, playing `player`, agrees to another player's `action`: when it gives
/// the engine a win, or half a point and the engine is not clearly ahead.
fn engine_consents<P: Ruleset>(table: &Hosted<P>, action: &str, player: usize) -> bool {
    let Some(outcome) = table.action_outcome(action) else {
        return false;
    };
    match outcome.quarters.get(player) {
        Some(&share) if share >= 4 => true,
        Some(&share) if share >= 2 => table.game().position().evaluate(player) < CONSENT_MARGIN,
        _ => false,
    }
}

/// Takes one of the position's actions for the player to move, first asking the player
/// whose consent it needs ([`Position::action_consent`]): the engine if it plays him, else
/// the person, at his own prompt. A refused action has no effect.
fn take_action<P: Ruleset>(
    table: &mut Hosted<P>,
    action: &str,
    seats: &[bool],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<ActionResult, CliError> {
    let mover = table.player_name(table.side_to_move());
    if let Some(judge) = table.action_consent(action) {
        let name = table.player_name(judge);
        let agreed = if seats.get(judge).copied().unwrap_or(false) {
            engine_consents(table, action, judge)
        } else {
            writeln!(
                out,
                "{mover} asks {name} to agree to `{action}` (yes or no)"
            )?;
            loop {
                write!(out, "{name}> ")?;
                out.flush()?;
                match read_request(input, out)? {
                    Request::Quit => return Ok(ActionResult::Quit),
                    Request::Nothing => {}
                    Request::Text(answer) => match answer.as_str() {
                        "yes" | "y" => break true,
                        "no" | "n" => break false,
                        _ => writeln!(out, "error: answer yes or no")?,
                    },
                }
            }
        };
        if !agreed {
            writeln!(
                out,
                "{name} does not agree to `{action}`: the game goes on, {mover} to move"
            )?;
            return Ok(ActionResult::Refused);
        }
        writeln!(out, "{name} agrees to `{action}`")?;
    }
    match table.perform(action) {
        Ok(_) => Ok(ActionResult::Done),
        Err(e) => {
            writeln!(out, "error: {e}")?;
            Ok(ActionResult::Refused)
        }
    }
}

/// The engine thinks, showing each iteration, and plays its move; false when it has none.
fn engine_move<P: Ruleset>(
    engine: &mut Engine<P>,
    table: &mut Hosted<P>,
    limits: &Limits,
    out: &mut dyn Write,
) -> Result<bool, CliError> {
    let root = table.game().position().clone();
    // With private views the engine's line and move would show what the person may not
    // see: only its search figures and the fact that it moved are shown.
    let hidden = private_views(&root);
    let mut shown = Ok(());
    // Under hidden information (private or not) the engine searches positions drawn from its
    // player's view, never the true one.
    let result = engine.search_hidden(
        table.game(),
        limits,
        &Sampling::default(),
        &mut |info: &SearchInfo<P::Move>| {
            if shown.is_ok() {
                shown = writeln!(
                    out,
                    "  depth {:>2}  score {:>8}  nodes {:>10}  nps {:>9}  time {:>6.2}s  {}",
                    info.depth,
                    info.score.to_string(),
                    info.nodes,
                    info.nodes_per_second(),
                    info.elapsed.as_secs_f64(),
                    if hidden {
                        String::new()
                    } else {
                        line_label(&root, &info.pv)
                    }
                )
                .and_then(|()| out.flush());
            }
        },
    );
    shown?;
    let Some(mv) = result.best else {
        return Ok(false);
    };
    let label = move_label(&root, mv);
    table.play(&root.move_text(mv))?;
    let name = root.player_name(root.side_to_move());
    if hidden {
        writeln!(out, "{name} has moved")?;
    } else {
        writeln!(out, "{name} plays {label}")?;
    }
    Ok(true)
}

/// Takes back moves until a person is to move again, having taken back at least one of
/// that person's moves (so the engine does not answer at once with the same move).
fn undo_turn<P: Ruleset>(table: &mut Hosted<P>, seats: &[bool]) -> bool {
    let ply = |t: &Hosted<P>| t.game().moves().len();
    // The player who made the last move.
    let last_mover = |t: &Hosted<P>| t.game().positions()[ply(t) - 1].side_to_move();
    if ply(table) == 0 || !seats.iter().any(|&engine| !engine) {
        return table.undo();
    }
    // Take back through the engine's replies to the last move a person made.
    while ply(table) > 0 && seats[last_mover(table)] {
        table.undo();
    }
    if ply(table) == 0 {
        return false;
    }
    table.undo();
    // A compound turn is taken back whole.
    while ply(table) > 0
        && table.side_to_move() == last_mover(table)
        && !table.game().position().repetition_point()
    {
        table.undo();
    }
    true
}

/// Writes the game to `path`, in the format its extension names; returns the message to show.
fn save<P: Ruleset>(table: &Hosted<P>, path: &str) -> String {
    crate::records::save(table, path)
}

/// One ruleset's search benchmark: depth, nodes, seconds, best move.
pub struct SearchBench {
    /// Fixed depth for every ruleset instead of its default.
    pub depth: Option<u32>,
}

impl Visitor for SearchBench {
    type Output = Result<(u32, u64, f64, String), CliError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        let options = RuleOptions::parse::<&str>(P::option_specs(), &[])?;
        let start = P::start_position(&options)?;
        let depth = self.depth.unwrap_or(info.bench_search_depth);
        let game = Game::new(start);
        // A fresh engine each time: the node count depends on nothing but the code.
        let mut engine = Engine::<P>::new(16);
        let t = Instant::now();
        let result = engine.search(&game, &Limits::depth(depth), &mut |_| {});
        let best = result
            .best
            .map_or_else(|| "(none)".to_string(), |m| game.position().move_text(m));
        Ok((depth, result.nodes, t.elapsed().as_secs_f64(), best))
    }
}
