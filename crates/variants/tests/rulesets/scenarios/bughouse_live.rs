//! The live bughouse driver (`bughouse_live`): four clocks in real time, slot deadlines in the
//! turn-based mode, flag falls, simultaneous events, resignation and agreement. Every time is an
//! injected timestamp, so nothing sleeps and nothing depends on the machine's speed.

use chaturanga_rules::clock::TimeControl;
use chaturanga_rules::outcome::Reason;
use chaturanga_rules::{OptionError, RuleOptions, Ruleset};
use chaturanga_variants::bughouse::{BughousePosition, Timing};
use chaturanga_variants::bughouse_live::{LiveError, LiveGame};
use std::time::Duration;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
/// Seats: 0 A-White, 1 B-White, 2 A-Black, 3 B-Black; team 1 = seats 0 and 3.
const TEAM_1_WINS: [u8; 4] = [4, 0, 0, 4];
const TEAM_2_WINS: [u8; 4] = [0, 4, 4, 0];

fn s(secs: f64) -> Duration {
    Duration::from_secs_f64(secs)
}

fn options(items: &[&str]) -> RuleOptions {
    RuleOptions::parse(BughousePosition::option_specs(), items).unwrap()
}

fn live(items: &[&str]) -> LiveGame {
    LiveGame::new(&options(items)).unwrap()
}

fn from_boards(a: &str, b: &str, timing: Timing, control: &str) -> LiveGame {
    let p = BughousePosition::from_fen(&format!("A:{a} | B:{b}"), timing).unwrap();
    LiveGame::from_position(p, TimeControl::parse(control).unwrap(), s(10.0))
}

#[test]
fn both_white_clocks_start_at_once_and_moves_switch_them() {
    let mut g = live(&["clock=5+3"]);
    assert_eq!(g.running(), vec![0, 1], "A-White and B-White");
    assert_eq!(g.remaining(0, s(10.0)).unwrap(), s(290.0));
    assert_eq!(g.remaining(2, s(10.0)).unwrap(), s(300.0), "A-Black waits");
    assert_eq!(g.play(0, "e2e4", s(10.0)).unwrap(), None);
    assert_eq!(g.running(), vec![2, 1]);
    assert_eq!(
        g.remaining(0, s(50.0)).unwrap(),
        s(293.0),
        "increment added"
    );
    assert_eq!(
        g.remaining(2, s(50.0)).unwrap(),
        s(260.0),
        "runs since 10 s"
    );
    assert_eq!(g.remaining(1, s(50.0)).unwrap(), s(250.0), "runs since 0 s");
    assert_eq!(g.moves().len(), 1);
    assert_eq!(g.moves()[0].clock, Some(s(293.0)));
    assert_eq!(g.next_flag(), Some(s(300.0)), "B-White's flag first");
}

#[test]
fn any_minutes_plus_seconds_control() {
    let g = live(&["clock=7+11"]);
    assert_eq!(
        g.control(),
        TimeControl::fischer(Duration::from_secs(420), Duration::from_secs(11))
    );
    assert_eq!(live(&[]).control().base, Duration::from_secs(180), "3+0");
    for bad in ["clock=7", "clock=0+0", "clock=+5", "slot-deadline=soon"] {
        assert!(
            matches!(
                RuleOptions::parse(BughousePosition::option_specs(), &[bad]),
                Err(OptionError::BadValue { .. })
            ),
            "{bad}"
        );
    }
    options(&["slot-deadline=90s"]);
}

#[test]
fn scenario_10_flag_on_board_b_ends_both_boards() {
    let mut g = live(&[]);
    g.play(0, "e2e4", s(1.0)).unwrap();
    g.play(0, "e7e5", s(2.0)).unwrap();
    assert_eq!(g.tick(s(179.999)).unwrap(), None);
    let o = g.tick(s(180.0)).unwrap().expect("B-White's flag fell");
    assert_eq!(o.reason, Reason::TimeForfeit);
    assert_eq!(o.quarters, TEAM_1_WINS, "team 2 (B-White, A-Black) loses");
    assert_eq!(g.outcome(), Some(&o));
    assert!(matches!(
        g.play(0, "g1f3", s(181.0)),
        Err(LiveError::GameOver(_))
    ));
    assert!(matches!(
        g.play(1, "e2e4", s(181.0)),
        Err(LiveError::GameOver(_))
    ));
    assert!(g.running().is_empty());
}

#[test]
fn a_move_after_the_movers_flag_fell_is_void() {
    let mut g = live(&[]);
    g.play(1, "d2d4", s(0.5)).unwrap();
    let o = g.play(0, "e2e4", s(180.0)).unwrap().expect("flag");
    assert_eq!(o.reason, Reason::TimeForfeit);
    assert_eq!(o.quarters, TEAM_2_WINS, "A-White's team loses");
    assert_eq!(g.moves().len(), 1, "the late move is not played");
}

#[test]
fn two_flags_of_opposite_teams_in_one_step_draw() {
    let mut g = live(&[]);
    // Neither White moves; both flags are seen at the same tick.
    let o = g.tick(s(200.0)).unwrap().unwrap();
    assert_eq!(o.reason, Reason::Simultaneous);
    assert_eq!(o.quarters, vec![2; 4]);
}

#[test]
fn two_flags_of_one_team_lose_for_it() {
    let mut g = live(&[]);
    // B-White moves at once, so B-Black's clock runs from 0 like A-White's: both team 1.
    g.play(1, "e2e4", s(0.0)).unwrap();
    let o = g.tick(s(180.0)).unwrap().unwrap();
    assert_eq!(o.reason, Reason::TimeForfeit);
    assert_eq!(o.quarters, TEAM_2_WINS);
}

#[test]
fn flags_in_different_steps_are_decided_in_order() {
    let mut g = live(&[]);
    g.play(1, "e2e4", s(1.0)).unwrap();
    // A-White falls at 180, B-Black at 181: a tick at 180.5 sees only the first.
    let o = g.tick(s(180.5)).unwrap().unwrap();
    assert_eq!(o.quarters, TEAM_2_WINS);
    assert!(g.tick(s(181.0)).is_err(), "the game is over");
}

/// Board A: Black to move; after a quiet reply White mates with `N@f7` (smothered king).
const SMOTHER: &str = "6rk/p5pp/8/8/8/8/8/4K3[N] b - - 0 1";

#[test]
fn mate_and_a_flag_of_the_mating_team_in_one_step_draw() {
    let mut g = from_boards(SMOTHER, START, Timing::RealTime, "3+0");
    g.play(1, "e2e4", s(0.0)).unwrap(); // B-Black (team 1) runs from 0
    g.play(0, "a7a6", s(1.0)).unwrap(); // A-White (team 1) runs from 1
    let o = g.play(0, "N@f7", s(180.5)).unwrap().unwrap();
    assert_eq!(
        o.reason,
        Reason::Simultaneous,
        "mate by team 1, flag of team 1"
    );
    assert_eq!(o.quarters, vec![2; 4]);
}

#[test]
fn mate_before_the_flag_wins() {
    let mut g = from_boards(SMOTHER, START, Timing::RealTime, "3+0");
    g.play(1, "e2e4", s(0.0)).unwrap();
    g.play(0, "a7a6", s(1.0)).unwrap();
    let o = g.play(0, "N@f7", s(179.9)).unwrap().unwrap();
    assert_eq!(o.reason, Reason::Checkmate);
    assert_eq!(o.quarters, TEAM_1_WINS, "A-Black is mated: team 2 loses");
    assert!(g.tick(s(200.0)).is_err(), "no flag after the end");
}

#[test]
fn mate_and_a_flag_of_the_mated_team_lose_for_that_team() {
    let mut g = from_boards(SMOTHER, START, Timing::RealTime, "3+0");
    g.play(0, "a7a6", s(1.0)).unwrap();
    // B-White (team 2) never moves and falls at 180; A-Black (team 2) is mated in that step.
    let o = g.play(0, "N@f7", s(180.5)).unwrap().unwrap();
    assert_eq!(o.reason, Reason::Checkmate);
    assert_eq!(o.quarters, TEAM_1_WINS);
}

#[test]
fn a_flag_loses_even_with_bare_kings() {
    let mut g = from_boards(
        "4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
        START,
        Timing::RealTime,
        "1+0",
    );
    g.play(1, "e2e4", s(0.0)).unwrap();
    g.play(1, "e7e5", s(30.0)).unwrap();
    let o = g.tick(s(60.0)).unwrap().unwrap();
    assert_eq!(
        o.reason,
        Reason::TimeForfeit,
        "no insufficient-material exception"
    );
    assert_eq!(o.quarters, TEAM_2_WINS, "A-White's team loses");
}

#[test]
fn a_waiting_players_clock_runs() {
    // Scenario 6's board: A-White waits in check; his clock keeps running.
    let mut g = from_boards(
        "4k3/8/8/8/8/8/5PPP/r5K1[] w - - 0 1",
        START,
        Timing::RealTime,
        "1+0",
    );
    assert!(g.play(0, "g1f1", s(1.0)).is_err(), "no legal move");
    assert_eq!(g.remaining(0, s(30.0)).unwrap(), s(30.0));
    g.play(1, "e2e4", s(2.0)).unwrap();
    let o = g.tick(s(60.0)).unwrap().unwrap();
    assert_eq!(o.quarters, TEAM_2_WINS);
    assert_eq!(o.reason, Reason::TimeForfeit);
}

#[test]
fn refused_calls_change_nothing() {
    let mut g = live(&[]);
    g.play(0, "e2e4", s(5.0)).unwrap();
    let before = (g.now(), g.moves().len(), g.running());
    assert!(matches!(
        g.play(0, "e7e5", s(4.0)),
        Err(LiveError::TimeWentBack { .. })
    ));
    assert!(matches!(
        g.play(2, "e7e5", s(6.0)),
        Err(LiveError::NoSuch(_))
    ));
    assert!(matches!(g.play(0, "e7e4", s(6.0)), Err(LiveError::Move(_))));
    assert!(matches!(g.play(0, "", s(6.0)), Err(LiveError::Move(_))));
    assert!(matches!(g.resign(4, s(6.0)), Err(LiveError::NoSuch(_))));
    assert!(matches!(g.remaining(9, s(6.0)), Err(LiveError::NoSuch(_))));
    assert_eq!((g.now(), g.moves().len(), g.running()), before);
}

#[test]
fn resignation_and_agreement() {
    let mut g = live(&[]);
    let o = g.resign(3, s(3.0)).unwrap().unwrap();
    assert_eq!(o.reason, Reason::Resignation);
    assert_eq!(o.quarters, TEAM_2_WINS, "B-Black is team 1");

    let mut g = live(&[]);
    for seat in 0..3 {
        assert_eq!(g.agree_draw(seat, s(1.0)).unwrap(), None);
    }
    g.play(0, "e2e4", s(2.0)).unwrap();
    assert_eq!(
        g.agree_draw(3, s(3.0)).unwrap(),
        None,
        "a move cancels agreement"
    );
    for seat in 0..3 {
        g.agree_draw(seat, s(4.0)).unwrap();
    }
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, Reason::Agreement);
    assert_eq!(o.quarters, vec![2; 4]);

    // A resignation and the other team's flag in one step: simultaneous, drawn.
    let mut g = live(&[]);
    g.play(0, "e2e4", s(0.0)).unwrap(); // B-White (team 2) runs from 0
    let o = g.resign(0, s(180.0)).unwrap().unwrap();
    assert_eq!(o.reason, Reason::Simultaneous);
}

#[test]
fn turn_based_slot_deadline() {
    let mut g = live(&["timing=turn-based", "slot-deadline=10s"]);
    assert_eq!(g.running(), vec![0]);
    assert!(matches!(
        g.play(1, "e2e4", s(1.0)),
        Err(LiveError::NotThisSlot { board: 1, slot: 0 })
    ));
    g.play(0, "e2e4", s(5.0)).unwrap();
    assert_eq!(g.running(), vec![1]);
    assert_eq!(g.remaining(1, s(9.0)).unwrap(), s(6.0));
    assert_eq!(g.next_flag(), Some(s(15.0)));
    assert_eq!(g.tick(s(14.9)).unwrap(), None);
    let o = g.tick(s(15.0)).unwrap().unwrap();
    assert_eq!(o.reason, Reason::TimeForfeit);
    assert_eq!(
        o.quarters, TEAM_1_WINS,
        "B-White missed the deadline: team 2 loses"
    );
}

#[test]
fn turn_based_repetition_draws_in_the_driver() {
    let mut g = live(&["timing=turn-based"]);
    let mut t = 0.0;
    let mut result = None;
    'cycles: for _ in 0..2 {
        for (board, m) in [
            (0, "g1f3"),
            (1, "g1f3"),
            (0, "g8f6"),
            (1, "g8f6"),
            (0, "f3g1"),
            (1, "f3g1"),
            (0, "f6g8"),
            (1, "f6g8"),
        ] {
            t += 1.0;
            result = g.play(board, m, s(t)).unwrap();
            if result.is_some() {
                break 'cycles;
            }
        }
    }
    let o = result.expect("third occurrence");
    assert_eq!(o.reason, Reason::ThreefoldRepetition);
    assert_eq!(g.moves().len(), 16);
}
