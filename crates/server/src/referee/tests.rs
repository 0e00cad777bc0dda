//! The referee's rules, each driven with made-up instants: nothing sleeps, nothing depends on
//! the machine's speed. Bughouse's live rules (four clocks, one processing step per command,
//! simultaneous events) are here too: the referee is the one live driver of every ruleset.

use super::*;
use crate::store::{GameStatus, SeatKind};
use chaturanga_rules::Reason;

/// What a decision did, once applied.
#[derive(Debug)]
struct Done {
    /// The types of the events stored.
    events: Vec<String>,
    /// The change stored.
    change: Option<Change>,
    /// The command's own refusal.
    refusal: Option<GameError>,
}

/// What the world would give, every byte `byte`.
fn fresh(byte: u8, unix_ms: i64) -> Fresh {
    Fresh {
        id: [byte; 12],
        secrets: [[byte; 32]; Fresh::SECRETS],
        unix_ms,
    }
}

fn s(secs: f64) -> Duration {
    Duration::from_secs_f64(secs)
}

struct Game {
    referee: Referee,
    t0: Instant,
}

impl Game {
    fn new(variant: &str, seats: &[SeatKind], clock: Option<ClockSpec>) -> Game {
        Self::with(NewGame {
            variant: variant.into(),
            options: Vec::new(),
            fen: None,
            clock,
            seats: seats.to_vec(),
            me: None,
            listed: true,
            creator: None,
            owner_hash: None,
        })
    }

    fn with(spec: NewGame) -> Game {
        let t0 = Instant::now();
        let row = new_game(spec, &fresh(7, 1_000)).expect("a game");
        Game {
            referee: Referee::from_row(&row.game, t0).expect("it loads"),
            t0,
        }
    }

    fn at(&self, secs: f64) -> Instant {
        self.t0 + s(secs)
    }

    /// Decides and applies `command` at `secs`.
    fn run(&mut self, command: Command, secs: f64) -> Result<Done, GameError> {
        let decision = self.referee.decide(&command, self.at(secs))?;
        let done = Done {
            events: decision
                .change
                .as_ref()
                .map(|c| c.events.iter().map(|e| e.t.clone()).collect())
                .unwrap_or_default(),
            change: decision.change.clone(),
            refusal: decision.refusal.clone(),
        };
        self.referee.apply(decision);
        Ok(done)
    }

    fn ok(&mut self, command: Command, secs: f64) -> Done {
        let shown = format!("{command:?}");
        self.run(command, secs)
            .unwrap_or_else(|e| panic!("{shown}: {e}"))
    }

    fn refused(&mut self, command: Command, secs: f64) -> GameError {
        let version = self.referee.version();
        let ply = self.referee.table().ply();
        let error = self.run(command, secs).expect_err("the command is refused");
        assert_eq!(
            (self.referee.version(), self.referee.table().ply()),
            (version, ply),
            "a refused command changes nothing"
        );
        error
    }

    fn join(&mut self, seat: usize, secs: f64) {
        self.ok(
            Command::Join {
                seat,
                token_hash: format!("token{seat}"),
            },
            secs,
        );
    }

    fn arrive(&mut self, seat: usize, secs: f64) -> Done {
        self.ok(
            Command::Seen {
                seat,
                socket: false,
            },
            secs,
        )
    }

    /// Claims and comes to every human seat at `secs`.
    fn everyone_here(&mut self, secs: f64) {
        for seat in 0..self.referee.seats().len() {
            let row = &self.referee.seats()[seat];
            if row.kind != SeatKind::Human {
                continue;
            }
            if row.token_hash.is_none() {
                self.join(seat, secs);
            }
            if !self.referee.seats()[seat].arrived {
                self.arrive(seat, secs);
            }
        }
    }

    fn play(&mut self, seat: usize, text: &str, secs: f64) -> Done {
        self.ok(
            Command::Move {
                seat,
                text: text.into(),
                ply: None,
                thought: None,
                measured_lag: None,
            },
            secs,
        )
    }

    fn act(&mut self, seat: usize, action: &str, secs: f64) -> Result<Done, GameError> {
        self.run(
            Command::Act {
                seat,
                action: Action::parse(action),
                fresh: fresh(9, 2_000),
            },
            secs,
        )
    }

    fn tick(&mut self, secs: f64) -> Done {
        self.ok(Command::Tick, secs)
    }

    fn clock(&self, seat: usize, secs: f64) -> SeatTime {
        self.referee.clocks(self.at(secs)).expect("a clock").1[seat]
    }

    fn finished(&self) -> Option<Finished> {
        self.referee.table().finished()
    }
}

const HUMANS: [SeatKind; 2] = [SeatKind::Human, SeatKind::Human];

fn fischer(base: u64, increment: u64) -> Option<ClockSpec> {
    Some(ClockSpec::Fischer { base, increment })
}

// ---- clocks and the first moves ---------------------------------------------------------

#[test]
fn no_clock_runs_before_each_side_has_made_its_first_move() {
    let mut g = Game::new("chess", &HUMANS, fischer(60, 0));
    g.everyone_here(0.0);
    assert!(!g.clock(0, 20.0).running);
    g.play(0, "e2e4", 10.0);
    assert_eq!(g.clock(0, 30.0).ms, 60_000, "White's first move is free");
    assert!(!g.clock(1, 30.0).running, "so is Black's");
    g.play(1, "e7e5", 25.0);
    assert_eq!(g.clock(1, 40.0).ms, 60_000);
    assert!(
        g.clock(0, 40.0).running,
        "White's clock runs from Black's move"
    );
    assert_eq!(g.clock(0, 40.0).ms, 45_000);
    assert_eq!(g.referee.first_move_deadline(), None);
}

#[test]
fn a_side_that_does_not_make_its_first_move_in_time_aborts_the_game() {
    // The "30 s a move" game against the engine: aborted, not lost, at ply 0.
    let mut g = Game::new(
        "chess",
        &[SeatKind::Human, SeatKind::Engine(1)],
        Some(ClockSpec::Move { seconds: 30 }),
    );
    g.everyone_here(0.0);
    let (seats, at) = g.referee.first_move_deadline().expect("a window");
    assert_eq!((seats, at), (vec![0], g.at(30.0)));
    assert_eq!(g.referee.next_deadline(), Some(g.at(30.0)));
    assert!(g.tick(29.9).events.is_empty());
    let done = g.tick(30.0);
    assert_eq!(done.events, vec!["abort"]);
    assert_eq!(g.referee.status(), GameStatus::Aborted);
    let change = done.change.unwrap();
    assert_eq!(change.status, Some(GameStatus::Aborted));
    assert_eq!(change.ending, None, "no result");
    assert!(g.referee.engine_turn().is_none());

    // The second side's window opens with the first side's move.
    let mut g = Game::new("chess", &HUMANS, fischer(300, 3));
    g.everyone_here(0.0);
    g.play(0, "e2e4", 20.0);
    assert_eq!(g.referee.first_move_deadline(), Some((vec![1], g.at(50.0))));
    assert!(g.tick(49.0).events.is_empty());
    assert_eq!(g.tick(50.0).events, vec!["abort"]);
}

#[test]
fn games_without_a_clock_are_never_aborted_by_the_server() {
    let mut g = Game::new("chess", &HUMANS, None);
    g.everyone_here(0.0);
    assert_eq!(g.referee.next_deadline(), None);
    assert!(g.tick(1e6).events.is_empty());
    assert!(g.referee.is_live());
}

#[test]
fn a_seek_nobody_takes_is_aborted_once_its_creator_is_away() {
    let mut g = Game::new("chess", &HUMANS, fischer(180, 2));
    g.join(0, 0.0);
    let waits = lifecycle::SEEK_WAITS.as_secs_f64();
    assert_eq!(g.referee.next_deadline(), Some(g.at(waits)));
    // The creator's page is open: each beat of its socket keeps the seek.
    g.ok(
        Command::Seen {
            seat: 0,
            socket: true,
        },
        waits - 1.0,
    );
    assert!(g.tick(waits).events.is_empty());
    assert_eq!(g.referee.next_deadline(), Some(g.at(2.0 * waits - 1.0)));
    let done = g.tick(2.0 * waits - 1.0);
    assert_eq!(done.events, vec!["abort"]);
    assert_eq!(g.referee.status(), GameStatus::Aborted);
    assert_eq!(done.change.unwrap().ending, None, "no result");
    assert_eq!(
        g.refused(
            Command::Join {
                seat: 1,
                token_hash: "late".into()
            },
            2.0 * waits
        ),
        GameError::Over
    );

    // A claimed seat is not waited for; nor, once it is taken, is anything but the first move.
    let mut g = Game::new("chess", &HUMANS, fischer(180, 2));
    g.join(0, 0.0);
    g.join(1, 60.0);
    let (_, first_move_by) = g
        .referee
        .first_move_deadline()
        .expect("a first move's window");
    assert_eq!(g.referee.next_deadline(), Some(first_move_by));
    assert!(first_move_by < g.at(waits));

    // A game nobody has claimed a seat in waits from its loading; correspondence for days.
    let mut g = Game::new("chess", &HUMANS, None);
    assert_eq!(g.referee.next_deadline(), Some(g.at(waits)));
    assert_eq!(g.tick(waits).events, vec!["abort"]);
    let mut g = Game::new("chess", &HUMANS, Some(ClockSpec::Days { days: 3 }));
    g.join(1, 0.0);
    let days = lifecycle::CORRESPONDENCE_SEEK_WAITS.as_secs_f64();
    assert!(g.tick(days - 1.0).events.is_empty());
    assert_eq!(g.tick(days).events, vec!["abort"]);
}

#[test]
fn engines_wait_until_every_person_has_come() {
    let mut g = Game::new(
        "chess",
        &[SeatKind::Engine(2), SeatKind::Human],
        fischer(300, 0),
    );
    g.join(1, 0.0);
    assert!(g.referee.started());
    assert_eq!(g.referee.engine_turn(), None, "the human has not come");
    assert_eq!(
        g.refused(
            Command::EngineMove {
                seat: 0,
                ply: 0,
                text: "e2e4".into()
            },
            1.0
        ),
        GameError::WaitingForPlayers
    );
    // A player who never comes: the game is aborted a first move's window after it started.
    assert_eq!(g.referee.first_move_deadline(), Some((vec![0], g.at(30.0))));
    let done = g.arrive(1, 5.0);
    assert_eq!(done.events, vec!["arrive"]);
    let turn = g.referee.engine_turn().expect("the engine moves now");
    assert_eq!((turn.seat, turn.ply, turn.level), (0, 0, 2));
    // It paces itself: a thirtieth of its five minutes, at most three seconds, from arrival.
    assert_eq!(turn.not_before, g.at(5.0) + lifecycle::MAX_PACE);
    assert_eq!(
        g.referee.first_move_deadline(),
        None,
        "the engine will move"
    );
    g.ok(
        Command::EngineMove {
            seat: 0,
            ply: 0,
            text: "e2e4".into(),
        },
        8.0,
    );
    assert_eq!(g.referee.first_move_deadline(), Some((vec![1], g.at(38.0))));
    // A second sign of life stores nothing.
    assert!(g.arrive(1, 9.0).change.is_none());
}

#[test]
fn engines_without_people_start_at_once() {
    let g = Game::new("chess", &[SeatKind::Engine(1), SeatKind::Engine(1)], None);
    let turn = g.referee.engine_turn().expect("engine to move");
    assert_eq!(turn.not_before, g.t0, "no clock, no pacing");
}

#[test]
fn a_flag_leaves_its_clock_at_exactly_zero() {
    let mut g = Game::new("chess", &HUMANS, fischer(300, 3));
    g.everyone_here(0.0);
    g.play(0, "e2e4", 1.0);
    g.play(1, "e7e5", 2.0);
    // White's clock runs from 2 s; its flag waits out the grace (the lag quota, at most 2 s).
    let deadline = g.referee.next_deadline().expect("a flag to fall");
    assert!(deadline > g.at(302.0) && deadline <= g.at(304.0));
    let late = deadline.duration_since(g.t0).as_secs_f64();
    assert!(g.tick(late - 0.01).events.is_empty());
    let done = g.tick(late);
    assert_eq!(done.events, vec!["flag", "end"]);
    let finished = g.finished().unwrap();
    assert_eq!(finished.reason, Reason::TimeForfeit);
    assert_eq!(finished.quarters, vec![0, 4]);
    let stored = done.change.unwrap().clock_state.unwrap();
    assert_eq!(stored.main_ms[0], 0, "stored at zero");
    assert_eq!(
        stored.main_ms[1], 300_000,
        "Black's time stays (its free first move earned no increment)"
    );
    let shown = g.clock(0, late + 100.0);
    assert_eq!((shown.ms, shown.main_ms, shown.running), (0, 0, false));
    assert_eq!(g.referee.next_deadline(), None);
}

#[test]
fn a_game_ended_by_resignation_shows_the_clocks_as_they_were_at_the_end() {
    let mut g = Game::new("chess", &HUMANS, fischer(300, 3));
    g.everyone_here(0.0);
    g.play(0, "e2e4", 1.0);
    g.play(1, "e7e5", 2.0);
    // White thinks 40 s, then Black resigns: White's 40 s are charged, with no increment.
    let done = g.act(1, "resign", 42.0).unwrap();
    let stored = done.change.unwrap().clock_state.unwrap();
    assert_eq!(stored.main_ms, vec![260_000, 300_000]);
    let shown = g.clock(0, 100.0);
    assert_eq!((shown.ms, shown.running), (260_000, false));
}

#[test]
fn a_move_after_the_flag_is_refused_and_the_flag_stored() {
    let mut g = Game::new("chess", &HUMANS, Some(ClockSpec::Move { seconds: 10 }));
    g.everyone_here(0.0);
    g.play(0, "e2e4", 1.0);
    g.play(1, "e7e5", 2.0);
    let done = g.play(0, "g1f3", 100.0);
    assert_eq!(done.refusal, Some(GameError::TimeRanOut));
    assert_eq!(done.events, vec!["flag", "end"]);
    assert_eq!(g.referee.table().ply(), 2, "the late move is not played");
    assert_eq!(
        g.refused(
            Command::Move {
                seat: 1,
                text: "g8f6".into(),
                ply: None,
                thought: None,
                measured_lag: None
            },
            101.0
        ),
        GameError::Over
    );
}

#[test]
fn a_move_sent_in_time_that_arrives_late_is_saved_by_its_reported_thinking() {
    let mut g = Game::new("chess", &HUMANS, Some(ClockSpec::Move { seconds: 1 }));
    g.everyone_here(0.0);
    g.play(0, "d2d4", 1.0);
    g.play(1, "d7d5", 2.0);
    // White's second arrives 1.1 s into his turn; he thought 0.9 s: the rest was lag, as
    // the server measured on his connection.
    let saved = g.ok(
        Command::Move {
            seat: 0,
            text: "c2c4".into(),
            ply: Some(2),
            thought: Some(s(0.9)),
            measured_lag: Some(s(0.15)),
        },
        3.1,
    );
    assert_eq!(saved.refusal, None);
    assert!(g.referee.is_live());
    // Black's arrives as late and says nothing: charged the whole time, it is too late.
    let late = g.play(1, "e7e6", 4.2);
    assert_eq!(late.refusal, Some(GameError::TimeRanOut));
    assert_eq!(result_of(&g), (Reason::TimeForfeit, vec![4, 0]));
}

#[test]
fn lag_is_forgiven_only_as_far_as_the_server_measured_it() {
    let base = || {
        let mut g = Game::new("chess", &HUMANS, fischer(60, 0));
        g.everyone_here(0.0);
        g.play(0, "d2d4", 1.0);
        g.play(1, "d7d5", 2.0);
        g
    };
    let white_after = |g: &Game| g.clock(0, 6.0).ms;
    // White's move arrives 3 s into his turn and his client claims he thought no time at all.
    let claim = |measured_lag: Option<Duration>| {
        let mut g = base();
        g.ok(
            Command::Move {
                seat: 0,
                text: "c2c4".into(),
                ply: Some(2),
                thought: Some(Duration::ZERO),
                measured_lag,
            },
            5.0,
        );
        g
    };
    let honest = {
        let mut g = base();
        g.play(0, "c2c4", 5.0);
        white_after(&g)
    };
    // With 50 ms measured, 150 ms is forgiven, not the 3 s claimed; with nothing measured,
    // the margin alone.
    let measured = white_after(&claim(Some(s(0.05))));
    let unmeasured = white_after(&claim(None));
    assert_eq!(measured - honest, 150, "{measured} {honest}");
    assert_eq!(unmeasured - honest, 100, "{unmeasured} {honest}");
}

fn result_of(g: &Game) -> (Reason, Vec<u8>) {
    let f = g.finished().expect("the game is over");
    (f.reason, f.quarters)
}

#[test]
fn byo_yomi_is_shown_as_main_time_and_periods() {
    let mut g = Game::new(
        "shogi",
        &HUMANS,
        Some(ClockSpec::Byoyomi {
            base: 10,
            period: 30,
            periods: 3,
        }),
    );
    g.everyone_here(0.0);
    g.play(0, "7g7f", 1.0);
    g.play(1, "3c3d", 2.0);
    // Sente's clock runs from 2 s: 35 s later main time is spent, 5 s of the first period left.
    let shown = g.clock(0, 37.0);
    assert_eq!(
        (shown.main_ms, shown.periods, shown.period_ms),
        (0, 3, Some(5_000))
    );
    assert_eq!(shown.ms, 65_000);
}

// ---- offers and actions ---------------------------------------------------------------

#[test]
fn one_open_offer_per_seat_and_kind_and_no_answer_to_what_nobody_offered() {
    let mut g = Game::new("chess", &HUMANS, None);
    g.everyone_here(0.0);
    for action in [
        "draw-accept",
        "draw-decline",
        "takeback-accept",
        "takeback-decline",
    ] {
        assert!(
            matches!(g.act(1, action, 1.0), Err(GameError::NoOffer(_))),
            "{action}"
        );
    }
    assert_eq!(
        g.act(0, "action-accept", 1.0).err(),
        Some(GameError::NoOffer("action"))
    );
    assert_eq!(
        g.act(0, "draw-offer", 2.0).unwrap().events,
        vec!["draw-offer"]
    );
    let repeat = g.act(0, "draw-offer", 3.0).unwrap();
    assert!(repeat.change.is_none(), "a repeated offer stores nothing");
    assert_eq!(g.referee.version(), 6);
    assert_eq!(
        g.act(1, "draw-decline", 4.0).unwrap().events,
        vec!["draw-decline"]
    );
    assert!(g.referee.pending().draw.is_empty());
    // A takeback before a move of one's own, and the offerer accepting his own.
    assert_eq!(
        g.act(0, "takeback-offer", 5.0).err(),
        Some(GameError::NoMoveToTakeBack)
    );
    g.play(0, "e2e4", 6.0);
    assert_eq!(
        g.act(0, "takeback-offer", 7.0).unwrap().events,
        vec!["takeback-offer"]
    );
    assert!(g.act(0, "takeback-offer", 7.5).unwrap().change.is_none());
    assert_eq!(
        g.act(0, "takeback-accept", 8.0).err(),
        Some(GameError::OwnOffer("takeback"))
    );
    let done = g.act(1, "takeback-accept", 9.0).unwrap();
    assert_eq!(done.events, vec!["takeback"]);
    assert_eq!(done.change.unwrap().truncate_to, Some(0));
    assert_eq!(g.referee.table().ply(), 0);
}

#[test]
fn actions_are_rate_limited_per_seat() {
    let mut g = Game::new("chess", &HUMANS, None);
    g.everyone_here(0.0);
    for i in 0..lifecycle::ACTION_BURST {
        let action = if i % 2 == 0 {
            "draw-offer"
        } else {
            "draw-decline"
        };
        g.act(0, action, 1.0).unwrap();
    }
    assert!(matches!(
        g.act(0, "draw-offer", 1.0),
        Err(GameError::RateLimited(_))
    ));
    // The other seat has its own allowance; this one gets one back after the refill.
    g.act(1, "draw-offer", 1.0).unwrap();
    g.act(
        0,
        "draw-decline",
        1.0 + lifecycle::ACTION_REFILL.as_secs_f64(),
    )
    .unwrap();
}

#[test]
fn giving_up_before_every_seat_is_claimed_aborts_without_a_result() {
    for action in ["resign", "draw-offer", "abort"] {
        let mut g = Game::new("chess", &HUMANS, fischer(300, 0));
        g.join(0, 0.0);
        g.arrive(0, 0.0);
        let done = g.act(0, action, 1.0).unwrap();
        assert_eq!(done.events, vec!["abort"], "{action}");
        let change = done.change.unwrap();
        assert_eq!(change.status, Some(GameStatus::Aborted));
        assert_eq!(change.ending, None);
        assert!(g.finished().is_none());
    }
    let mut g = Game::new("chess", &HUMANS, None);
    g.join(0, 0.0);
    assert_eq!(
        g.act(0, "takeback-offer", 1.0).err(),
        Some(GameError::WaitingForSeats(vec![1]))
    );
}

#[test]
fn abort_only_before_every_side_has_moved() {
    let mut g = Game::new("chess", &HUMANS, None);
    g.everyone_here(0.0);
    g.play(0, "e2e4", 1.0);
    g.play(1, "e7e5", 2.0);
    assert_eq!(
        g.act(0, "abort", 3.0).err(),
        Some(GameError::TooLateToAbort)
    );
    let mut g = Game::new("chess", &HUMANS, None);
    g.everyone_here(0.0);
    g.play(0, "e2e4", 1.0);
    assert_eq!(g.act(1, "abort", 3.0).unwrap().events, vec!["abort"]);
}

#[test]
fn a_takeback_of_a_first_move_opens_its_window_again() {
    let mut g = Game::new(
        "chess",
        &[SeatKind::Human, SeatKind::Engine(1)],
        fischer(300, 0),
    );
    g.everyone_here(0.0);
    g.play(0, "e2e4", 10.0);
    g.ok(
        Command::EngineMove {
            seat: 1,
            ply: 1,
            text: "e7e5".into(),
        },
        15.0,
    );
    assert_eq!(g.referee.first_move_deadline(), None);
    // The engine agrees at once; White's first move is gone, and its window starts anew.
    assert_eq!(
        g.act(0, "takeback-offer", 50.0).unwrap().events,
        vec!["takeback"]
    );
    assert_eq!(g.referee.table().ply(), 0);
    assert_eq!(g.referee.first_move_deadline(), Some((vec![0], g.at(80.0))));
    assert!(!g.clock(0, 60.0).running);
}

#[test]
fn stale_and_misdirected_moves_are_refused() {
    let mut g = Game::new("chess", &HUMANS, None);
    g.join(0, 0.0);
    assert_eq!(
        g.refused(
            Command::Move {
                seat: 0,
                text: "e2e4".into(),
                ply: None,
                thought: None,
                measured_lag: None
            },
            0.0
        ),
        GameError::WaitingForSeats(vec![1])
    );
    g.everyone_here(0.0);
    let stale = Command::Move {
        seat: 0,
        text: "e2e4".into(),
        ply: Some(1),
        thought: None,
        measured_lag: None,
    };
    assert_eq!(
        g.refused(stale, 1.0),
        GameError::StalePly { sent: 1, now: 0 }
    );
    let theirs = Command::Move {
        seat: 1,
        text: "e7e5".into(),
        ply: Some(0),
        thought: None,
        measured_lag: None,
    };
    assert!(matches!(g.refused(theirs, 1.0), GameError::NotYourTurn(_)));
    let illegal = Command::Move {
        seat: 0,
        text: "e2e5".into(),
        ply: Some(0),
        thought: None,
        measured_lag: None,
    };
    assert!(matches!(g.refused(illegal, 1.0), GameError::Rules(_)));
    assert_eq!(
        g.refused(
            Command::Join {
                seat: 1,
                token_hash: "x".into()
            },
            1.0
        ),
        GameError::SeatTaken(1)
    );
    let mut e = Game::new("chess", &[SeatKind::Human, SeatKind::Engine(3)], None);
    assert_eq!(
        e.refused(
            Command::Join {
                seat: 1,
                token_hash: "x".into()
            },
            0.0
        ),
        GameError::EngineSeat(1)
    );
    e.everyone_here(0.0);
    assert_eq!(
        e.refused(
            Command::Move {
                seat: 1,
                text: "e7e5".into(),
                ply: None,
                thought: None,
                measured_lag: None
            },
            0.0
        ),
        GameError::EngineMovesItself
    );
}

#[test]
fn deciding_changes_nothing_until_the_decision_is_applied() {
    // What the game's task relies on: a store that fails leaves the game as it was, because
    // the decision it could not store is never applied.
    let mut g = Game::new("chess", &HUMANS, fischer(60, 0));
    g.everyone_here(0.0);
    let before = (
        g.referee.version(),
        g.referee.table().fen(),
        g.referee.to_move(),
    );
    let decision = g
        .referee
        .decide(
            &Command::Move {
                seat: 0,
                text: "e4".into(),
                ply: Some(0),
                thought: None,
                measured_lag: None,
            },
            g.at(1.0),
        )
        .unwrap();
    assert_eq!(decision.change.as_ref().unwrap().moves.len(), 1);
    drop(decision);
    let after = (
        g.referee.version(),
        g.referee.table().fen(),
        g.referee.to_move(),
    );
    assert_eq!(before, after);
}

#[test]
fn a_finished_position_is_refused_at_creation() {
    let make = |fen: &str| {
        new_game(
            NewGame {
                variant: "chess".into(),
                options: Vec::new(),
                fen: Some(fen.into()),
                clock: None,
                seats: HUMANS.to_vec(),
                me: None,
                listed: true,
                creator: None,
                owner_hash: None,
            },
            &fresh(1, 0),
        )
    };
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    assert!(matches!(make(mated), Err(GameError::FinishedPosition(_))));
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    assert!(matches!(
        make(stalemate),
        Err(GameError::FinishedPosition(_))
    ));
    assert!(make("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").is_ok());
}

// ---- rematches --------------------------------------------------------------------------

#[test]
fn a_rematch_is_an_offer_and_moves_everyone_to_a_game_with_the_colours_turned() {
    let mut g = Game::with(NewGame {
        variant: "chess".into(),
        options: vec!["chess960=on".into()],
        fen: None,
        clock: fischer(180, 2),
        seats: HUMANS.to_vec(),
        me: Some((0, "token0".into())),
        listed: false,
        creator: None,
        owner_hash: None,
    });
    g.join(1, 0.0);
    assert_eq!(
        g.act(0, "rematch-offer", 1.0).err(),
        Some(GameError::NotOver)
    );
    g.act(0, "resign", 2.0).unwrap();
    assert_eq!(
        g.act(1, "rematch-accept", 3.0).err(),
        Some(GameError::NoOffer("rematch"))
    );
    assert_eq!(
        g.act(1, "rematch-offer", 4.0).unwrap().events,
        vec!["rematch-offer"]
    );
    assert!(g.act(1, "rematch-offer", 4.5).unwrap().change.is_none());
    let done = g.act(0, "rematch-accept", 5.0).unwrap();
    assert_eq!(done.events, vec!["rematch"]);
    let change = done.change.unwrap();
    let event: serde_json::Value = serde_json::from_str(&change.events[0].data).unwrap();
    let next = change
        .rematch
        .expect("the new game, in the same change")
        .game;
    assert_eq!(event["game"], next.id.as_str());
    assert_eq!(event["seats"], serde_json::json!([1, 0]));
    assert_eq!(g.referee.rematch(), Some(next.id.as_str()));
    // Same ruleset, options, clock and listing; each player's token on the other colour.
    assert_eq!(next.variant, "chess");
    assert_eq!(next.options, vec!["chess960=on".to_string()]);
    assert_eq!(next.clock, fischer(180, 2));
    assert!(!next.listed);
    assert_eq!(next.seats[0].token_hash.as_deref(), Some("token1"));
    assert_eq!(next.seats[1].token_hash.as_deref(), Some("token0"));
    assert!(next.seats.iter().all(|s| !s.arrived));
    assert!(matches!(
        g.act(1, "rematch-offer", 6.0),
        Err(GameError::RematchMade(_))
    ));

    // Declined, the offer is gone.
    let mut g = Game::new("chess", &HUMANS, None);
    g.everyone_here(0.0);
    g.act(0, "resign", 1.0).unwrap();
    g.act(0, "rematch-offer", 2.0).unwrap();
    assert_eq!(
        g.act(1, "rematch-decline", 3.0).unwrap().events,
        vec!["rematch-decline"]
    );
    assert!(g.referee.pending().rematch.is_empty());
}

// ---- secret options ---------------------------------------------------------------------

#[test]
fn a_secret_is_a_fresh_key_shown_only_once_the_game_is_over() {
    let spec = NewGame {
        variant: "chex".into(),
        options: Vec::new(),
        fen: None,
        clock: None,
        seats: HUMANS.to_vec(),
        me: None,
        listed: true,
        creator: None,
        owner_hash: None,
    };
    let mut given = fresh(3, 1_000);
    given.secrets[0] = std::array::from_fn(|i| (i * 8) as u8);
    let row = new_game(spec.clone(), &given).unwrap();
    // The key is the fresh bytes given for it, in full, as 64 hex digits.
    let key = "0008101820283038404850586068707880889098a0a8b0b8c0c8d0d8e0e8f0f8";
    assert_eq!(row.game.options, vec![format!("draw-seed={key}")]);
    // The game's id is made of the id's bytes alone.
    let mut other = given;
    other.secrets[0][0] ^= 1;
    let row_other = new_game(spec, &other).unwrap();
    assert_eq!(row_other.game.id, row.game.id);
    assert_ne!(row_other.game.options, row.game.options);

    let t0 = Instant::now();
    let mut g = Game {
        referee: Referee::from_row(&row.game, t0).expect("it loads"),
        t0,
    };
    g.everyone_here(0.0);
    assert!(g.referee.options().is_empty());
    g.act(0, "resign", 1.0).unwrap();
    assert_eq!(g.referee.options(), vec![format!("draw-seed={key}")]);
    // A rematch draws a new key from its own fresh bytes (every byte 9).
    g.act(0, "rematch-offer", 2.0).unwrap();
    let next = g.act(1, "rematch-accept", 3.0).unwrap();
    let next = next.change.unwrap().rematch.unwrap().game;
    assert_eq!(next.options, vec![format!("draw-seed={}", "09".repeat(32))]);
}

#[test]
fn every_ruleset_s_secrets_get_keys_of_their_own() {
    for info in chaturanga_variants::CATALOGUE
        .iter()
        .filter(|v| v.implemented)
    {
        let secrets = secret_option_specs(info.id).unwrap();
        assert!(secrets.len() <= Fresh::SECRETS, "{}: {secrets:?}", info.id);
    }
    assert_eq!(secret_option_specs("chex").unwrap(), ["draw-seed"]);
}

#[test]
fn a_rematch_against_the_engine_is_made_at_once_and_bughouse_keeps_partners() {
    let mut g = Game::new("chess", &[SeatKind::Human, SeatKind::Engine(4)], None);
    g.everyone_here(0.0);
    g.act(0, "resign", 1.0).unwrap();
    let done = g.act(0, "rematch-offer", 2.0).unwrap();
    let next = done.change.unwrap().rematch.unwrap().game;
    assert_eq!(next.seats[0].kind, SeatKind::Engine(4));
    assert_eq!(next.seats[1].token_hash.as_deref(), Some("token0"));

    // Bughouse: each player keeps his board and partner and takes the other colour.
    let mut g = Game::new("bughouse", &[SeatKind::Human; 4], None);
    g.everyone_here(0.0);
    g.act(0, "resign", 1.0).unwrap();
    for seat in 0..3 {
        g.act(seat, "rematch-offer", 2.0).unwrap();
    }
    let done = g.act(3, "rematch-accept", 3.0).unwrap();
    let event: serde_json::Value =
        serde_json::from_str(&done.change.as_ref().unwrap().events[0].data).unwrap();
    assert_eq!(event["seats"], serde_json::json!([2, 3, 0, 1]));
    let next = done.change.unwrap().rematch.unwrap().game;
    assert_eq!(next.seats[2].token_hash.as_deref(), Some("token0"));
    assert_eq!(
        next.clock,
        fischer(180, 0),
        "bughouse's own clock (3+0) when none was given"
    );
}

// ---- abandonment ------------------------------------------------------------------------

#[test]
fn a_player_gone_long_enough_lets_the_others_claim_the_game() {
    let mut g = Game::new("chess", &HUMANS, fischer(180, 2));
    g.everyone_here(0.0);
    for seat in 0..2 {
        g.ok(Command::Seen { seat, socket: true }, 0.0);
    }
    g.play(0, "e2e4", 1.0);
    g.play(1, "e7e5", 2.0);
    assert_eq!(
        g.act(0, "claim-victory", 3.0).err(),
        Some(GameError::NotAbandoned)
    );
    // White keeps its socket; Black's goes silent at 2 s (its move) and is gone 20 s later.
    for t in [10.0, 20.0, 30.0] {
        g.ok(
            Command::Seen {
                seat: 0,
                socket: true,
            },
            t,
        );
    }
    assert!(g.tick(21.9).events.is_empty());
    assert_eq!(g.tick(22.0).events, vec!["gone"]);
    assert!(g.referee.may_claim(0) && !g.referee.may_claim(1));
    // Back before the claim: the claim is gone.
    assert_eq!(g.arrive(1, 25.0).events, vec!["back"]);
    assert_eq!(
        g.act(0, "call-draw", 26.0).err(),
        Some(GameError::NotAbandoned)
    );
    assert_eq!(g.tick(45.0).events, vec!["gone"]);
    let done = g.act(0, "claim-victory", 46.0).unwrap();
    assert_eq!(done.events, vec!["claim", "end"]);
    let finished = g.finished().unwrap();
    assert_eq!(
        (finished.reason, finished.quarters),
        (Reason::Abandonment, vec![4, 0])
    );
}

#[test]
fn signs_of_life_matter_until_arrival_and_where_a_player_may_be_gone() {
    let mut g = Game::new("chess", &HUMANS, None);
    g.everyone_here(0.0);
    assert!(
        !g.referee.wants_signs_of_life(0),
        "no clock: arrival was all"
    );
    let mut g = Game::new("chess", &HUMANS, fischer(180, 2));
    g.join(0, 0.0);
    g.join(1, 0.0);
    assert!(g.referee.wants_signs_of_life(0));
    g.arrive(0, 0.0);
    assert!(
        g.referee.wants_signs_of_life(0),
        "a real-time clock: absence counts"
    );
    let mut g = Game::new("chess", &HUMANS, Some(ClockSpec::Days { days: 1 }));
    g.everyone_here(0.0);
    assert!(
        !g.referee.wants_signs_of_life(1),
        "correspondence: the days decide"
    );
}

#[test]
fn players_without_a_socket_and_games_in_their_opening_are_never_gone() {
    let mut g = Game::new("chess", &HUMANS, fischer(180, 2));
    g.everyone_here(0.0);
    g.ok(
        Command::Seen {
            seat: 1,
            socket: true,
        },
        0.0,
    );
    // Before every side has moved, the first-move window rules, not abandonment.
    assert!(g.tick(20.0).events.is_empty());
    g.play(0, "e2e4", 21.0);
    g.play(1, "e7e5", 22.0);
    // White plays by HTTP only: never gone, however long it is silent.
    let done = g.tick(60.0);
    assert_eq!(done.events, vec!["gone"]);
    assert_eq!(
        g.referee.pending().gone.iter().copied().collect::<Vec<_>>(),
        vec![1]
    );
    // Call a draw: both score half.
    g.act(0, "call-draw", 61.0).unwrap();
    let finished = g.finished().unwrap();
    assert_eq!(
        (finished.reason, finished.quarters),
        (Reason::Abandonment, vec![2, 2])
    );
}

// ---- replicas ---------------------------------------------------------------------------

#[test]
fn a_replica_catches_up_with_the_moves_added_and_with_a_takeback() {
    let mut g = Game::new("chess", &HUMANS, fischer(300, 0));
    g.everyone_here(0.0);
    let row_at = |g: &Game, moves: &[&str]| {
        let mut row = new_game(
            NewGame {
                variant: "chess".into(),
                options: Vec::new(),
                fen: None,
                clock: fischer(300, 0),
                seats: HUMANS.to_vec(),
                me: None,
                listed: true,
                creator: None,
                owner_hash: None,
            },
            &fresh(7, 1_000),
        )
        .unwrap()
        .game;
        row.version = g.referee.version() + 10;
        row.moves = moves
            .iter()
            .enumerate()
            .map(|(i, m)| StoredMove::new(*m, i % 2))
            .collect();
        row
    };
    let row = row_at(&g, &["e2e4", "e7e5"]);
    g.referee.catch_up(&row, g.at(1.0)).unwrap();
    assert_eq!(g.referee.table().ply(), 2);
    let row = row_at(&g, &["e2e4", "e7e5", "g1f3"]);
    g.referee.catch_up(&row, g.at(2.0)).unwrap();
    assert_eq!(g.referee.table().ply(), 3);
    // A takeback and another move: rebuilt.
    let row = row_at(&g, &["e2e4", "c7c5"]);
    g.referee.catch_up(&row, g.at(3.0)).unwrap();
    assert_eq!(
        g.referee.table().moves_seen(Viewer::Arbiter)[1]
            .text
            .as_deref(),
        Some("c7c5")
    );
}

// ---- bughouse: four clocks, one step per command -----------------------------------------
//
// Seats: 0 A-White, 1 B-White, 2 A-Black, 3 B-Black; team 0 = seats 0 and 3. The four clocks
// start together once every player has come; a flag falls after its grace (the lag quota, 2 s
// at 3+0), so a flag "at 180 s" falls at 182 s here.

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
const TEAM_0_WINS: [u8; 4] = [4, 0, 0, 4];
const TEAM_1_WINS: [u8; 4] = [0, 4, 4, 0];
/// The grace of a 3+0 or 1+0 flag.
const GRACE: f64 = 2.0;
/// Board A: Black to move; after a quiet reply White mates with `N@f7` (smothered king).
const SMOTHER: &str = "6rk/p5pp/8/8/8/8/8/4K3[N] b - - 0 1";

fn bughouse(options: &[&str], fen: Option<String>, clock: Option<ClockSpec>) -> Game {
    let mut g = Game::with(NewGame {
        variant: "bughouse".into(),
        options: options.iter().map(|o| o.to_string()).collect(),
        fen,
        clock,
        seats: vec![SeatKind::Human; 4],
        me: None,
        listed: true,
        creator: None,
        owner_hash: None,
    });
    g.everyone_here(0.0);
    g
}

fn boards(a: &str, b: &str) -> Option<String> {
    Some(format!("A:{a} | B:{b}"))
}

fn result(g: &Game) -> (Reason, Vec<u8>) {
    let f = g.finished().expect("the game is over");
    (f.reason, f.quarters)
}

#[test]
fn bughouse_clocks_start_together_once_every_player_has_come() {
    let mut g = Game::with(NewGame {
        variant: "bughouse".into(),
        options: vec!["clock=5+3".into()],
        fen: None,
        clock: None,
        seats: vec![
            SeatKind::Human,
            SeatKind::Engine(1),
            SeatKind::Engine(1),
            SeatKind::Engine(1),
        ],
        me: None,
        listed: true,
        creator: None,
        owner_hash: None,
    });
    g.join(0, 0.0);
    assert!(
        g.referee.engine_turn().is_none(),
        "engines wait for the person"
    );
    assert!(!g.clock(1, 5.0).running, "B-White's clock waits too");
    g.arrive(0, 10.0);
    assert!(g.clock(0, 10.0).running && g.clock(1, 10.0).running);
    assert!(!g.clock(2, 10.0).running);
    assert_eq!(g.clock(1, 20.0).ms, 290_000, "runs from the arrival");
    let turn = g.referee.engine_turn().expect("B-White's engine");
    assert_eq!(turn.seat, 1);
    assert_eq!(turn.not_before, g.at(10.0) + lifecycle::MAX_PACE, "paced");
    g.play(0, "e2e4", 12.0);
    assert_eq!(g.referee.to_move(), vec![1, 2]);
    assert_eq!(g.clock(0, 50.0).ms, 301_000, "increment added");
    assert_eq!(g.clock(2, 50.0).ms, 262_000);
}

#[test]
fn bughouse_takes_its_own_clock_from_its_options() {
    let g = bughouse(&["clock=7+11"], None, None);
    assert_eq!(g.clock(0, 0.0).ms, 420_000);
    let given = bughouse(&["clock=7+11"], None, fischer(60, 0));
    assert_eq!(
        given.clock(0, 0.0).ms,
        60_000,
        "a clock given with the game wins"
    );
}

#[test]
fn bughouse_scenario_10_a_flag_on_board_b_ends_both_boards() {
    let mut g = bughouse(&[], None, None);
    g.play(0, "e2e4", 1.0);
    g.play(2, "e7e5", 2.0);
    assert!(g.tick(180.0 + GRACE - 0.001).events.is_empty());
    assert_eq!(g.tick(180.0 + GRACE).events, vec!["flag", "end"]);
    assert_eq!(result(&g), (Reason::TimeForfeit, TEAM_0_WINS.to_vec()));
    assert_eq!(
        g.refused(
            Command::Move {
                seat: 0,
                text: "g1f3".into(),
                ply: None,
                thought: None,
                measured_lag: None
            },
            185.0
        ),
        GameError::Over
    );
    assert!(g.referee.to_move().is_empty());
}

#[test]
fn bughouse_a_move_after_the_movers_flag_fell_is_void() {
    let mut g = bughouse(&[], None, None);
    g.play(1, "d2d4", 0.5);
    let done = g.play(0, "e2e4", 180.0 + GRACE);
    assert_eq!(done.refusal, Some(GameError::TimeRanOut));
    assert_eq!(result(&g), (Reason::TimeForfeit, TEAM_1_WINS.to_vec()));
    assert_eq!(g.referee.table().ply(), 1, "the late move is not played");
}

#[test]
fn bughouse_flags_of_opposite_teams_in_one_step_draw() {
    let mut g = bughouse(&[], None, None);
    // Neither White moves; both flags are seen in one step.
    g.tick(200.0);
    assert_eq!(result(&g), (Reason::Simultaneous, vec![2; 4]));
    // Two flags of one team lose for it.
    let mut g = bughouse(&[], None, None);
    g.play(1, "e2e4", 0.0);
    g.tick(200.0);
    assert_eq!(result(&g), (Reason::TimeForfeit, TEAM_1_WINS.to_vec()));
}

#[test]
fn bughouse_mate_and_a_flag_of_the_mating_team_in_one_step_draw() {
    let mut g = bughouse(&[], boards(SMOTHER, START), None);
    g.play(1, "e2e4", 0.0); // B-Black (team 0) runs from 0
    g.play(2, "a7a6", 3.0); // A-White (team 0) runs from 3
    g.play(0, "N@f7", 180.0 + GRACE + 0.5);
    assert_eq!(result(&g), (Reason::Simultaneous, vec![2; 4]));

    let mut g = bughouse(&[], boards(SMOTHER, START), None);
    g.play(1, "e2e4", 0.0);
    g.play(2, "a7a6", 1.0);
    g.play(0, "N@f7", 179.9);
    assert_eq!(
        result(&g),
        (Reason::Checkmate, TEAM_0_WINS.to_vec()),
        "the mate before the flag wins"
    );
    assert!(g.tick(300.0).events.is_empty(), "no flag after the end");

    // A mate, and a flag of the mated team in the same step: that team loses, by mate.
    let mut g = bughouse(&[], boards(SMOTHER, START), None);
    g.play(2, "a7a6", 3.0);
    g.play(0, "N@f7", 180.0 + GRACE + 0.5);
    assert_eq!(result(&g), (Reason::Checkmate, TEAM_0_WINS.to_vec()));
}

#[test]
fn bughouse_a_flag_loses_even_with_bare_kings_and_a_waiting_player_s_clock_runs() {
    let mut g = bughouse(
        &[],
        boards("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", START),
        fischer(60, 0),
    );
    g.play(1, "e2e4", 0.0);
    g.play(3, "e7e5", 30.0);
    g.tick(60.0 + GRACE);
    assert_eq!(result(&g), (Reason::TimeForfeit, TEAM_1_WINS.to_vec()));

    // Scenario 6's board: A-White waits in check with no move; his clock keeps running.
    let mut g = bughouse(
        &[],
        boards("4k3/8/8/8/8/8/5PPP/r5K1[] w - - 0 1", START),
        fischer(60, 0),
    );
    assert!(g.referee.table().legal_for(0).is_empty());
    assert!(g.clock(0, 30.0).running);
    assert_eq!(g.clock(0, 30.0).ms, 30_000);
    g.play(1, "e2e4", 2.0);
    g.tick(60.0 + GRACE);
    assert_eq!(result(&g), (Reason::TimeForfeit, TEAM_1_WINS.to_vec()));
}

#[test]
fn bughouse_resignation_agreement_and_a_resignation_beside_a_flag() {
    let mut g = bughouse(&[], None, None);
    g.act(3, "resign", 3.0).unwrap();
    assert_eq!(result(&g), (Reason::Resignation, TEAM_1_WINS.to_vec()));

    let mut g = bughouse(&[], None, None);
    for seat in 0..3 {
        g.act(seat, "draw-offer", 1.0).unwrap();
    }
    g.play(0, "e2e4", 2.0);
    assert!(
        g.referee.pending().draw.is_empty(),
        "a move cancels the offers"
    );
    for seat in 0..4 {
        g.act(seat, "draw-offer", 4.0).unwrap();
    }
    assert_eq!(result(&g), (Reason::Agreement, vec![2; 4]));

    // A resignation and the other team's flag in one step: drawn.
    let mut g = bughouse(&[], None, None);
    g.play(0, "e2e4", 0.0); // B-White (team 1) runs from 0
    g.act(0, "resign", 180.0 + GRACE).unwrap();
    assert_eq!(result(&g), (Reason::Simultaneous, vec![2; 4]));
}

#[test]
fn turn_based_bughouse_has_its_slot_deadline_as_a_clock_and_draws_by_repetition() {
    let mut g = bughouse(&["timing=turn-based", "slot-deadline=10s"], None, None);
    assert_eq!(g.referee.to_move(), vec![0]);
    assert_eq!(
        g.referee.clocks(g.t0).unwrap().0,
        &ClockSpec::Move { seconds: 10 }
    );
    let plies = [
        (0, "g1f3"),
        (1, "g1f3"),
        (2, "g8f6"),
        (3, "g8f6"),
        (0, "f3g1"),
        (1, "f3g1"),
        (2, "f6g8"),
        (3, "f6g8"),
    ];
    let mut t = 0.0;
    'cycles: for _ in 0..2 {
        for (seat, text) in plies {
            t += 1.0;
            g.play(seat, text, t);
            if g.finished().is_some() {
                break 'cycles;
            }
        }
    }
    assert_eq!(result(&g).0, Reason::ThreefoldRepetition);
    assert_eq!(g.referee.table().ply(), 16);

    // Every seat has moved: a slot missed is a flag for the team.
    let mut g = bughouse(&["timing=turn-based", "slot-deadline=10s"], None, None);
    for (i, (seat, text)) in plies[..4].iter().enumerate() {
        g.play(*seat, text, 1.0 + i as f64);
    }
    // Seat 0's slot began at 4 s: ten seconds, and the grace of a per-move clock.
    let deadline = g.referee.next_deadline().unwrap();
    assert!(deadline > g.at(14.0) && deadline <= g.at(16.0));
    g.tick(20.0);
    assert_eq!(result(&g), (Reason::TimeForfeit, TEAM_1_WINS.to_vec()));
}
