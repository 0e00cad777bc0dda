//! Every scenario of `docs/rules/xiangqi.md`, in its order, as a named test; then further
//! cases of the repetition judge (perpetual check and chase) and a WXF round trip on random
//! games. Expected results come from the rules file, not from the engine.

use crate::common;

use chaturanga_rules::Position;
use chaturanga_variants::xiangqi::{XiangqiPosition, parse_chinese, parse_wxf, to_chinese, to_wxf};
use common::{Rng, game_after, legal_texts, position};
use std::collections::BTreeSet;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<XiangqiPosition>(fen))
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// The legal moves that start on `cell`.
fn from_cell(moves: &[String], cell: &str) -> Vec<String> {
    moves
        .iter()
        .filter(|m| {
            m.strip_prefix(cell)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase()))
        })
        .cloned()
        .collect()
}

/// Plays `cycle` twice from `fen` (the start position then occurs for the third time) and
/// returns the final status; also checks that one ply earlier the game was still on and
/// that every move of the cycle was legal (`game_after` refuses illegal moves).
fn status_after_two_cycles(fen: &str, cycle: &[&str]) -> String {
    let moves = cycle.repeat(2);
    let before = game_after::<XiangqiPosition>(Some(fen), &[], &moves[..moves.len() - 1]);
    assert_eq!(
        before.status().to_string(),
        "ongoing",
        "{fen}: the game ended before the third occurrence"
    );
    let game = game_after::<XiangqiPosition>(Some(fen), &[], &moves);
    assert_eq!(game.repetitions(), 3, "{fen}: third occurrence");
    game.status().to_string()
}

/// Whether each move of `moves`, played from `fen`, gives check.
fn checks(fen: &str, moves: &[&str]) -> Vec<bool> {
    (1..=moves.len())
        .map(|n| {
            game_after::<XiangqiPosition>(Some(fen), &[], &moves[..n])
                .position()
                .is_check()
        })
        .collect()
}

#[test]
fn scenario_01_start_position_has_44_moves() {
    let p = position::<XiangqiPosition>(START);
    assert_eq!(p.fen(), START);
    assert_eq!(legal_texts(&p).len(), 44);
}

#[test]
fn scenario_02_horse_leg() {
    let moves = legal(START);
    assert!(moves.contains(&"b1a3".to_string()));
    assert!(moves.contains(&"b1c3".to_string()));
    assert!(
        !moves.contains(&"b1d2".to_string()),
        "the elephant on c1 blocks the leg"
    );
    assert_eq!(from_cell(&moves, "b1"), ["b1a3", "b1c3"]);
}

#[test]
fn scenario_03_cannon_screen() {
    let moves = legal(START);
    assert!(moves.contains(&"b3b10".to_string()));
    assert!(
        !moves.contains(&"b3b8".to_string()),
        "a capture without a screen"
    );
    assert!(moves.contains(&"h3e3".to_string()));
    // b3b10 jumps over the black cannon on b8 and takes the horse on b10.
    let game = game_after::<XiangqiPosition>(Some(START), &[], &["b3b10"]);
    assert_eq!(
        game.position().fen(),
        "rCbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/7C1/9/RNBAKABNR b - - 0 1"
    );
}

#[test]
fn scenario_04_elephant_river_and_eye() {
    let moves = legal("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1");
    assert_eq!(from_cell(&moves, "c5"), ["c5a3", "c5e3"]);
    let blocked = legal("3k5/9/9/9/9/9/9/9/3P5/2B1K4 w - - 0 1");
    assert!(
        !blocked.contains(&"c1e3".to_string()),
        "the soldier on d2 blocks the eye"
    );
    assert_eq!(from_cell(&blocked, "c1"), ["c1a3"]);
}

#[test]
fn scenario_05_advisor_stays_on_the_palace_diagonals() {
    let moves = legal("5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    assert_eq!(from_cell(&moves, "e2"), ["e2d3", "e2f1", "e2f3"]);
}

#[test]
fn scenario_06_flying_general() {
    assert_eq!(legal("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), ["e1e2", "e1f1"]);
    let moves = legal("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1");
    assert_eq!(
        from_cell(&moves, "e5"),
        sorted(&["e5e2", "e5e3", "e5e4", "e5e6", "e5e7", "e5e8", "e5e9"])
    );
}

#[test]
fn scenario_07_soldier_before_and_after_the_river() {
    let moves = legal("5k3/9/9/9/4P4/9/4P4/9/9/3K5 w - - 0 1");
    assert_eq!(from_cell(&moves, "e4"), ["e4e5"]);
    assert_eq!(from_cell(&moves, "e6"), ["e6d6", "e6e7", "e6f6"]);
}

#[test]
fn scenario_08_stalemate_loses() {
    let game =
        game_after::<XiangqiPosition>(Some("4k4/3P1P3/9/9/9/9/9/9/9/3K5 b - - 0 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 stalemate");
}

#[test]
fn scenario_09_perpetual_check_loses() {
    let fen = "3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1";
    let cycle = ["a9a10", "d10d9", "a10a9", "d9d10"];
    assert_eq!(checks(fen, &cycle), [true, false, true, false]);
    assert_eq!(status_after_two_cycles(fen, &cycle), "0-1 perpetual-check");
}

#[test]
fn scenario_10_perpetual_chase_loses() {
    let fen = "4k4/9/6n2/9/9/9/9/9/9/3K3R1 w - - 0 1";
    let cycle = ["h1g1", "g8h10", "g1h1", "h10g8"];
    assert_eq!(checks(fen, &cycle), [false; 4]);
    assert_eq!(status_after_two_cycles(fen, &cycle), "0-1 perpetual-chase");
}

#[test]
fn scenario_11_quiet_repetition_is_a_draw() {
    let fen = "3a1k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1";
    let cycle = ["d1e2", "d10e9", "e2d1", "e9d10"];
    assert_eq!(checks(fen, &cycle), [false; 4]);
    assert_eq!(
        status_after_two_cycles(fen, &cycle),
        "1/2-1/2 threefold-repetition"
    );
}

#[test]
fn scenario_12_checkmate() {
    let fen = "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    assert_eq!(
        game_after::<XiangqiPosition>(Some(fen), &[], &[])
            .status()
            .to_string(),
        "ongoing"
    );
    let game = game_after::<XiangqiPosition>(Some(fen), &[], &["a1a10"]);
    assert!(game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1-0 checkmate");
}

#[test]
fn scenario_13_no_capture_limit() {
    let fen = "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 99 60";
    assert_eq!(
        game_after::<XiangqiPosition>(Some(fen), &[], &[])
            .status()
            .to_string(),
        "ongoing"
    );
    let game = game_after::<XiangqiPosition>(Some(fen), &[], &["e2f3"]);
    assert_eq!(
        game.position().fen(),
        "4k4/9/9/9/9/9/9/5A3/9/3K5 b - - 100 60"
    );
    assert_eq!(game.status().to_string(), "1/2-1/2 no-capture-limit");
    // The length is the rule option; 0 switches the rule off.
    let longer = game_after::<XiangqiPosition>(Some(fen), &["no-capture-limit=120"], &["e2f3"]);
    assert_eq!(longer.status().to_string(), "ongoing");
    let off = game_after::<XiangqiPosition>(Some(fen), &["no-capture-limit=0"], &["e2f3"]);
    assert_eq!(off.status().to_string(), "ongoing");
}

// Further cases of the repetition judge. Each cycle starts from its FEN, is played twice, and
// is judged at the third occurrence of the start position.

/// (a) Black checks with the chariot on every move (a1 along rank 1, a2 along rank 2); Red's
/// general only steps: Black alone checks perpetually and loses.
#[test]
fn repetition_black_perpetual_check_loses() {
    let fen = "5k3/9/9/9/9/9/9/9/r8/3K5 b - - 0 1";
    let cycle = ["a2a1", "d1d2", "a1a2", "d2d1"];
    assert_eq!(checks(fen, &cycle), [true, false, true, false]);
    assert_eq!(status_after_two_cycles(fen, &cycle), "1-0 perpetual-check");
}

/// (b) Red checks on every move (chariot a10 / a9 against the general on d10 / d9). Each of
/// Black's general steps opens a rank for a black cannon (i10 over the advisor f10, i9 over
/// the advisor e9) onto the red chariot, a stronger piece that cannot take back through the
/// screen: Black chases the chariot on every move. Check outranks chase: Red loses.
#[test]
fn repetition_check_against_chase_the_checker_loses() {
    let fen = "3k1a2c/R3a3c/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let cycle = ["a9a10", "d10d9", "a10a9", "d9d10"];
    assert_eq!(checks(fen, &cycle), [true, false, true, false]);
    assert_eq!(status_after_two_cycles(fen, &cycle), "0-1 perpetual-check");
}

/// (c) Both sides check on every move: the red chariot f7-d7 (with the cannon d1 behind it)
/// and the black cannon f9-d9 each block the last check and uncover or give a new one. Both
/// check perpetually, neither chases on every move: a draw.
#[test]
fn repetition_both_sides_checking_is_a_draw() {
    let fen = "3k1r3/5c3/9/5R3/9/9/9/5K3/9/3C5 w - - 0 1";
    let cycle = ["f7d7", "f9d9", "d7f7", "d9f9"];
    assert_eq!(checks(fen, &cycle), [true; 4]);
    assert!(position::<XiangqiPosition>(fen).is_check());
    assert_eq!(
        status_after_two_cycles(fen, &cycle),
        "1/2-1/2 threefold-repetition"
    );
}

/// (d) The red horse attacks the black chariot on every move (from e6 onto d8, from c7 onto
/// d9). The chariot is protected on both points (advisor e9, general d10), but a horse is
/// weaker than a chariot: still a chase, and Red loses.
#[test]
fn repetition_horse_chasing_a_protected_chariot_loses() {
    let fen = "3k5/4a4/3r5/2N6/9/9/9/9/9/4K4 w - - 0 1";
    let cycle = ["c7e6", "d8d9", "e6c7", "d9d8"];
    assert_eq!(checks(fen, &cycle), [false; 4]);
    assert_eq!(status_after_two_cycles(fen, &cycle), "0-1 perpetual-chase");
}

/// (e) Scenario 10 with the black horse protected on both of its points (chariot i8 guards
/// g8, chariot i10 guards h10): a chariot attacking a protected horse is not a chase, and the
/// repetition is drawn.
#[test]
fn repetition_chariot_attacking_a_protected_horse_is_no_chase() {
    let fen = "4k3r/9/6n1r/9/9/9/9/9/9/3K3R1 w - - 0 1";
    let cycle = ["h1g1", "g8h10", "g1h1", "h10g8"];
    assert_eq!(checks(fen, &cycle), [false; 4]);
    assert_eq!(
        status_after_two_cycles(fen, &cycle),
        "1/2-1/2 threefold-repetition"
    );
}

/// (f) Every red move newly attacks the black soldier on e7, which has not crossed the river,
/// and nothing attacked it before the move: b7b6 uncovers the chariot a7 along rank 7, b6b7
/// brings the cannon back with the black horse on c7 as its screen; the horse's moves (c7 to
/// e8 and back) block and unblock the rank. An uncrossed soldier cannot be chased: a draw.
/// The same cycle two ranks lower, against a soldier that has crossed (e5), is a chase.
#[test]
fn repetition_attacking_an_uncrossed_soldier_is_no_chase() {
    let fen = "5k3/9/4n4/RC2p4/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["b7b6", "e8c7", "b6b7", "c7e8"];
    assert_eq!(checks(fen, &cycle), [false; 4]);
    assert_eq!(
        status_after_two_cycles(fen, &cycle),
        "1/2-1/2 threefold-repetition"
    );
    let crossed = "5k3/9/9/9/4n4/RC2p4/9/9/9/3K5 w - - 0 1";
    let cycle = ["b5b4", "e6c5", "b4b5", "c5e6"];
    assert_eq!(checks(crossed, &cycle), [false; 4]);
    assert_eq!(
        status_after_two_cycles(crossed, &cycle),
        "0-1 perpetual-chase"
    );
}

/// WXF and Chinese notation are unambiguous and read back: in every position of seeded
/// random games (from the start and from positions with tandem pieces), every legal move's
/// WXF text and Chinese text are distinct and `parse_wxf` / `parse_chinese` return that move;
/// `write_move` / `read_move` agree.
#[test]
fn wxf_round_trip_on_random_games() {
    let starts = [
        START,
        // Three red files with two crossed soldiers each.
        "4k4/9/9/P1P1P4/P1P1P4/9/9/9/9/3K5 w - - 0 1",
        // Five red soldiers on the e-file, two chariots and two horses on one file each.
        "3k5/4P4/4P4/4P4/4P4/4P4/9/R1N6/R1N6/4K4 w - - 0 1",
        // Black: three soldiers on one file, two on another, tandem cannons and advisors.
        "3k1a3/9/5a3/9/9/2p1p4/2p1p4/c3p4/c8/4K4 b - - 0 1",
    ];
    let mut rng = Rng::new(20261130);
    let mut checked = 0;
    for (g, start) in starts.iter().cycle().take(24).enumerate() {
        let mut p = position::<XiangqiPosition>(start);
        for ply in 0..150 {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mut seen = BTreeSet::new();
            let mut seen_chinese = BTreeSet::new();
            for &m in &moves {
                let wxf = to_wxf(&p, m);
                let here = format!("game {g} ply {ply}: {} {}", p.fen(), p.move_text(m));
                assert!(seen.insert(wxf.clone()), "{here}: {wxf} is ambiguous");
                assert_eq!(parse_wxf(&p, &wxf), Ok(m), "{here}: {wxf}");
                assert_eq!(
                    p.write_move("wxf", m).as_deref(),
                    Some(wxf.as_str()),
                    "{here}"
                );
                assert_eq!(p.read_move("wxf", &wxf), Ok(m), "{here}: {wxf}");
                let chinese = to_chinese(&p, m);
                assert!(
                    seen_chinese.insert(chinese.clone()),
                    "{here}: {chinese} is ambiguous"
                );
                assert_eq!(parse_chinese(&p, &chinese), Ok(m), "{here}: {chinese}");
                assert_eq!(p.read_move("chinese", &chinese), Ok(m), "{here}: {chinese}");
                checked += 1;
            }
            p.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 10_000, "only {checked} moves checked");
}
