//! What each viewer is sent of a game: its state, its events, a past position, its record,
//! all rendered from the referee as the viewer may see them (dark chess's fog, hidden moves,
//! secret options). Pure functions of the referee and the instant.

use crate::clock::ClockSpec;
use crate::referee::{Caller, Referee, viewer_of};
use crate::store::{EventRow, GameStatus, SeatKind};
use crate::wire::{
    ActionOffer, Boards, Clocks, FirstMove, LegalMoves, MoveMovers, MoveNotation, MoveNotations,
    MoveTexts, OffersView, SeatClock, SeatView, Shape, StateView, check_cells, options_in_words,
    state_message,
};
use chaturanga_session::{Occasion, RecordFormat, TimeLimit, UtcTime};
use chaturanga_variants::VariantInfo;
use serde_json::{Value, json};
use std::time::Instant;

/// The viewer class of a caller: each seat, then the spectators.
pub fn class_of(referee: &Referee, caller: Caller) -> usize {
    match caller {
        Caller::Seat(s) => s,
        Caller::Spectator => referee.seats().len(),
    }
}

/// The caller of a viewer class.
pub fn caller_of(referee: &Referee, class: usize) -> Caller {
    if class < referee.seats().len() {
        Caller::Seat(class)
    } else {
        Caller::Spectator
    }
}

/// The state as `caller` may see it at `now`, as a JSON value (HTTP answers).
pub fn state(referee: &Referee, caller: Caller, now: Instant) -> Value {
    with_state(referee, caller, now, |state| {
        serde_json::to_value(state).unwrap_or(Value::Null)
    })
}

/// The state message (`{"t": "state", "v": version, "d": state}`) for `caller`.
pub fn state_frame(referee: &Referee, caller: Caller, now: Instant) -> String {
    with_state(referee, caller, now, |state| {
        state_message(referee.version(), state)
    })
}

/// Builds the state as `caller` may see it and hands it to `f` (it borrows the scene, the
/// moves and the legal moves computed here).
fn with_state<R>(
    referee: &Referee,
    caller: Caller,
    now: Instant,
    f: impl FnOnce(&StateView<'_>) -> R,
) -> R {
    let table = referee.table();
    let live = referee.is_live();
    let viewer = viewer_of(live, caller);
    let scene = table.scene(viewer);
    let finished = table.finished();
    let to_move = referee.to_move();
    let seen = table.moves_seen(viewer);
    let last_move = table.last_move(viewer);
    let (status, result, reason, scores) = match (&finished, referee.status()) {
        (_, GameStatus::Aborted) => ("aborted", Some("*"), Some("aborted"), None),
        (Some(f), _) => (
            "finished",
            Some(f.result.as_str()),
            Some(f.reason.as_str()),
            Some(f.quarters.as_slice()),
        ),
        (None, _) => ("ongoing", None, None, None),
    };
    let me = match caller {
        Caller::Seat(me) => Some(me),
        Caller::Spectator => None,
    };
    let moving = me.is_some_and(|me| to_move.contains(&me));
    let legal = match me {
        Some(me) if moving => table.legal_for(me),
        _ => Vec::new(),
    };
    let actions = moving.then(|| {
        let mut actions = table.actions();
        if table.can_claim_draw() {
            actions.push("draw-claim");
        }
        actions
    });
    let claims = me
        .filter(|&me| referee.may_claim(me))
        .map(|_| vec!["claim-victory", "call-draw"]);
    let pending = referee.pending();
    let players = table.players();
    let first_move = referee.first_move_deadline().map(|(seats, at)| FirstMove {
        seats,
        ms: at.saturating_duration_since(now).as_millis() as u64,
    });
    let options = referee.options();
    let state = StateView {
        id: referee.id(),
        variant: table.variant().id,
        options_in_words: options_in_words(
            chaturanga_session::option_specs(table.variant().id).unwrap_or(&[]),
            &options,
        ),
        options,
        version: referee.version(),
        status,
        result,
        reason,
        scores,
        started: referee.started(),
        ply: table.ply(),
        players,
        player_names: (0..players).map(|p| table.player_name(p)).collect(),
        teams: (0..players).map(|p| table.team(p)).collect(),
        side_to_move: table.side_to_move(),
        to_move: &to_move,
        fen: scene.complete.then(|| table.fen()),
        boards: Boards(&scene.boards),
        note: scene.note.as_deref(),
        check: check_cells(&scene.boards),
        last_move: last_move.as_ref().map(Shape),
        moves: MoveTexts(&seen),
        notation: MoveNotation(&seen),
        notations: MoveNotations {
            names: table.notations(),
            moves: &seen,
        },
        movers: MoveMovers(&seen),
        clocks: referee.clocks(now).map(|(control, seats)| Clocks {
            control,
            seats: seats
                .into_iter()
                .map(|t| SeatClock {
                    ms: t.ms,
                    main_ms: t.main_ms,
                    periods: t.periods,
                    period_ms: t.period_ms,
                    running: t.running && live,
                })
                .collect(),
        }),
        first_move,
        seats: referee
            .seats()
            .iter()
            .enumerate()
            .map(|(n, s)| SeatView {
                seat: n,
                kind: s.kind.word(),
                level: s.kind.level(),
                joined: s.kind != SeatKind::Human || s.token_hash.is_some(),
                arrived: s.kind != SeatKind::Human || s.arrived,
                gone: pending.gone.contains(&n),
            })
            .collect(),
        offers: OffersView {
            draw: pending.draw.iter().copied().collect(),
            takeback: pending.takeback,
            action: pending.action.as_ref().map(|offer| ActionOffer {
                by: offer.by,
                action: &offer.action,
                consent: offer.consent,
            }),
            rematch: pending.rematch.iter().copied().collect(),
        },
        rematch: referee.rematch(),
        you: me,
        legal: moving.then_some(LegalMoves(&legal)),
        actions,
        claims,
    };
    f(&state)
}

/// The message for event `e` as viewer class `class` sees it: a bare version where the
/// event's data is another seat's alone while the game goes on.
pub fn event_frame(referee: &Referee, e: &EventRow, class: usize) -> String {
    let hidden = referee.is_live() && e.only_seat.is_some_and(|s| s != class);
    if hidden {
        return json!({ "v": e.v }).to_string();
    }
    // The stored data is JSON already: it goes out as it was written.
    let data = if e.data.is_empty() { "null" } else { &e.data };
    format!(
        r#"{{"t":{},"v":{},"d":{data}}}"#,
        serde_json::to_string(&e.t).unwrap_or_default(),
        e.v
    )
}

/// The position after `ply` moves as `caller` may see it (stepping through a game); `None`
/// past the last move.
pub fn position(referee: &Referee, caller: Caller, ply: usize) -> Option<Value> {
    let (scene, last) = referee
        .table()
        .scene_at(ply, viewer_of(referee.is_live(), caller))?;
    let mut value = json!({
        "ply": ply,
        "boards": Boards(&scene.boards),
        "check": check_cells(&scene.boards),
        "last_move": last.as_ref().map(Shape),
    });
    if let Some(note) = &scene.note {
        value["note"] = json!(note);
    }
    Some(value)
}

/// Why a record is not shown.
#[derive(Debug, PartialEq, Eq)]
pub enum RecordRefusal {
    /// The game hides men from the caller until it is over.
    Hidden,
    /// No such format, or not one of this ruleset's.
    Format(String),
}

/// The game's record in `format` (the ruleset's default without one) with its file extension,
/// where the caller may see the whole game; `base` is the server's address as the request
/// reached it (`https://example.org`), if known, for the record's site, and `lang` (a code of
/// `words::LANGUAGES`) the language of its event.
pub fn record(
    referee: &Referee,
    caller: Caller,
    format: Option<&str>,
    base: Option<&str>,
    lang: &str,
) -> Result<(String, &'static str), RecordRefusal> {
    let table = referee.table();
    if !table.scene(viewer_of(referee.is_live(), caller)).complete {
        return Err(RecordRefusal::Hidden);
    }
    let formats = table.record_formats();
    let format = match format {
        None => formats[0],
        Some(name) => RecordFormat::parse(name).ok_or_else(|| {
            RecordRefusal::Format(format!(
                "unknown record format {:?} (pgn, kif, csa or bpgn)",
                name.chars().take(20).collect::<String>()
            ))
        })?,
    };
    let text = table
        .record(format, &occasion(referee, base, lang))
        .map_err(|e| RecordRefusal::Format(e.to_string()))?;
    Ok((text, format.extension()))
}

/// What the server knows of a game for its records, which the rules do not:
///
/// - the event: `Casual <ruleset> game`, `... against the engine` where an engine holds a
///   seat beside people, `... between engines` where engines hold them all; in language
///   `lang` where the server has it (`Hsziangcsi – barátságos játszma`), with the ruleset's
///   name in that language, English otherwise;
/// - the site: the game's page, `<base>/games/<id>`, or `Chaturanga game <id>` without a
///   base;
/// - the start: when the game was created, as stored;
/// - the players by seat: `Anonymous` for a person (there are no accounts yet), `Chaturanga
///   level N` for the engine; each format puts a seat's name under its own tag (a shogi
///   record's `先手` is the first mover, BPGN's `WhiteB` the second seat);
/// - the clock: the game's time control, or none.
pub fn occasion(referee: &Referee, base: Option<&str>, lang: &str) -> Occasion {
    let seats = referee.seats();
    let engines = seats
        .iter()
        .filter(|seat| matches!(seat.kind, SeatKind::Engine(_)))
        .count();
    let opponents = if engines == 0 {
        Opponents::People
    } else if engines == seats.len() {
        Opponents::Engines
    } else {
        Opponents::Engine
    };
    let event = event(referee.table().variant(), opponents, lang);
    let site = match base {
        Some(base) => format!("{base}/games/{}", referee.id()),
        None => format!("Chaturanga game {}", referee.id()),
    };
    let players = seats
        .iter()
        .map(|seat| match seat.kind {
            SeatKind::Human => "Anonymous".to_string(),
            SeatKind::Engine(level) => format!("Chaturanga level {level}"),
        })
        .collect();
    let clock = match referee.time_control().map(ClockSpec::control) {
        Some(Ok(control)) => TimeLimit::Limited(control),
        // A stored clock is checked when the game is loaded; one that fails is not told.
        Some(Err(_)) => TimeLimit::Unknown,
        None => TimeLimit::Unlimited,
    };
    Occasion {
        event: Some(event),
        site: Some(site),
        started: UtcTime::from_unix_millis(referee.created_ms()),
        players,
        clock,
        tags: Vec::new(),
    }
}

/// Who played a game, as its event says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opponents {
    /// People only.
    People,
    /// People and the engine.
    Engine,
    /// Engines only.
    Engines,
}

/// A record's event: the ruleset's name in `lang` and who played, in a sentence of that
/// language. These few words are the server's, not a ruleset's, so they are here rather
/// than in the rulesets' files of words.
fn event(variant: &VariantInfo, opponents: Opponents, lang: &str) -> String {
    let name = variant.name_in(lang);
    match (lang, opponents) {
        ("hu", Opponents::People) => format!("{name} – barátságos játszma"),
        ("hu", Opponents::Engine) => format!("{name} – barátságos játszma a gép ellen"),
        ("hu", Opponents::Engines) => format!("{name} – barátságos játszma gépek között"),
        (_, Opponents::People) => format!("Casual {name} game"),
        (_, Opponents::Engine) => format!("Casual {name} game against the engine"),
        (_, Opponents::Engines) => format!("Casual {name} game between engines"),
    }
}
