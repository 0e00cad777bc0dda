//! The engine in every implemented ruleset: it only ever returns legal moves, plays games to
//! their end without a panic, keeps to its time limit, and beats a random mover. It is called
//! as the front ends call it (`search_hidden`: hidden-information rulesets are searched through
//! the player's view, the others as they are).

use chaturanga_engine::{Engine, Limits, Sampling};
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset, Status};
use chaturanga_variants::{VariantInfo, Visitor, implemented, visit};
use std::time::{Duration, Instant};

/// A small deterministic generator (SplitMix64), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn start<P: Ruleset>() -> Game<P> {
    let options = RuleOptions::parse::<&str>(P::option_specs(), &[]).expect("default options");
    Game::new(P::start_position(&options).expect("start position"))
}

fn is_over<P: Position>(game: &Game<P>) -> bool {
    matches!(game.status(), Status::Over(_))
}

/// Checks that `line` is a sequence of legal moves from the game's position.
fn assert_line_legal<P: Position>(id: &str, game: &Game<P>, line: &[P::Move]) {
    let mut position = game.position().clone();
    for (i, &mv) in line.iter().enumerate() {
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        assert!(
            legal.contains(&mv),
            "{id}: move {i} of the line, {}, is illegal in {}",
            position.move_text(mv),
            position.fen()
        );
        position.play_unchecked(mv);
    }
}

fn for_each_ruleset<V: Visitor<Output = ()> + Clone>(visitor: V) {
    for info in implemented() {
        visit(info.id, visitor.clone()).expect("implemented ruleset");
    }
}

/// Random games; at every few plies a short search whose move and line must be legal.
#[derive(Clone)]
struct NeverIllegal;

impl Visitor for NeverIllegal {
    type Output = ();

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) {
        let mut rng = Rng(0x5EED ^ info.id.len() as u64);
        let mut engine = Engine::<P>::new(4);
        for _ in 0..3 {
            let mut game = start::<P>();
            for ply in 0..80 {
                if is_over(&game) {
                    break;
                }
                let legal = game.legal_moves();
                if ply % 5 == 0 {
                    let limits = Limits::nodes(1_500);
                    let result =
                        engine.search_hidden(&game, &limits, &Sampling::default(), &mut |_| {});
                    let best = result.best.expect("a move when the game is on");
                    assert!(legal.contains(&best), "{}: illegal best move", info.id);
                    assert_line_legal(info.id, &game, &result.pv);
                }
                let mv = legal[rng.below(legal.len())];
                game.play(mv).expect("a legal move");
            }
        }
    }
}

#[test]
fn the_engine_never_returns_an_illegal_move() {
    for_each_ruleset(NeverIllegal);
}

/// Engine against engine on a small node budget until the game ends.
#[derive(Clone)]
struct SelfPlay;

/// Plies after which a self-play game is stopped as unfinished.
const SELF_PLAY_CAP: usize = 1_500;

impl Visitor for SelfPlay {
    type Output = ();

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) {
        let mut engine = Engine::<P>::new(4);
        let mut game = start::<P>();
        while !is_over(&game) && game.moves().len() < SELF_PLAY_CAP {
            let result = engine.search_hidden(
                &game,
                &Limits::nodes(300),
                &Sampling::default(),
                &mut |_| {},
            );
            let best = result.best.expect("a move when the game is on");
            game.play(best).expect("the engine's move is legal");
        }
        assert!(
            is_over(&game),
            "{}: self-play did not end within {SELF_PLAY_CAP} plies",
            info.id
        );
    }
}

#[test]
fn self_play_reaches_the_end_in_every_ruleset() {
    for_each_ruleset(SelfPlay);
}

/// A search with a time limit returns within it, give or take a margin for the last
/// iteration's unwinding and a loaded machine.
#[derive(Clone)]
struct KeepsTime;

const MOVE_TIME: Duration = Duration::from_millis(150);
const MARGIN: Duration = Duration::from_millis(250);

impl Visitor for KeepsTime {
    type Output = ();

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) {
        let mut engine = Engine::<P>::new(4);
        let game = start::<P>();
        let t = Instant::now();
        let result = engine.search_hidden(
            &game,
            &Limits::move_time(MOVE_TIME),
            &Sampling::default(),
            &mut |_| {},
        );
        let spent = t.elapsed();
        assert!(result.best.is_some());
        assert!(
            spent <= MOVE_TIME + MARGIN,
            "{}: asked for {MOVE_TIME:?}, took {spent:?}",
            info.id
        );
    }
}

#[test]
fn time_limits_are_kept() {
    for_each_ruleset(KeepsTime);
}

#[test]
fn a_fixed_time_per_move_is_spent_in_full() {
    // `go movetime` is the user's time to spend: no iteration is given up for lack of it
    // (the engine once stopped starting iterations at 9/16 of it). A lower bound only, which
    // a slow machine cannot fail.
    let mut engine = Engine::<chaturanga_variants::chess::ChessPosition>::new(4);
    let game = start::<chaturanga_variants::chess::ChessPosition>();
    let t = Instant::now();
    let result = engine.search(
        &game,
        &Limits::move_time(Duration::from_millis(300)),
        &mut |_| {},
    );
    let spent = t.elapsed();
    assert!(result.best.is_some());
    assert!(
        spent >= Duration::from_millis(290),
        "took {spent:?} of 300 ms"
    );
}

/// Plays `GAMES` games against a uniformly random mover, the engine taking each side (with
/// its partners) in turn, and requires the engine to win every one.
#[derive(Clone)]
struct BeatsRandom;

const GAMES: usize = 20;
/// Nodes per engine move: a shallow search, enough to see captures and short mates.
const NODES_PER_MOVE: u64 = 2_000;
/// A game still running after this many plies counts as not won.
const GAME_CAP: usize = 1_000;

impl Visitor for BeatsRandom {
    type Output = ();

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) {
        let mut rng = Rng(0xC0FFEE ^ info.id.len() as u64);
        let mut engine = Engine::<P>::new(4);
        let mut wins = 0;
        let mut lost = Vec::new();
        for g in 0..GAMES {
            let mut game = start::<P>();
            let players = game.position().players();
            let engine_seat = g % players;
            engine.new_game();
            // The engine plays every seat of its team (bughouse: both partners), so that a
            // random partner cannot lose the game for it.
            let engine_team = game.position().team(engine_seat);
            while !is_over(&game) && game.moves().len() < GAME_CAP {
                let to_move = game.position().side_to_move();
                let mv = if game.position().team(to_move) == engine_team {
                    let limits = Limits::nodes(NODES_PER_MOVE);
                    engine
                        .search_hidden(&game, &limits, &Sampling::default(), &mut |_| {})
                        .best
                        .expect("a move")
                } else {
                    let legal = game.legal_moves();
                    legal[rng.below(legal.len())]
                };
                game.play(mv).expect("a legal move");
            }
            // Won: the engine's score is the best, and some player (not a partner) did worse.
            let won = match game.status() {
                Status::Over(outcome) => {
                    let ours = outcome.quarters[engine_seat];
                    outcome.quarters.iter().all(|&q| q <= ours)
                        && outcome.quarters.iter().any(|&q| q < ours)
                }
                Status::Ongoing { .. } => false,
            };
            if won {
                wins += 1;
            } else {
                lost.push(format!(
                    "game {g} ({} plies): {}",
                    game.moves().len(),
                    game.status()
                ));
            }
        }
        println!(
            "{:<12} engine {wins}/{GAMES} against a random mover",
            info.id
        );
        assert_eq!(wins, GAMES, "{}: not won: {lost:?}", info.id);
    }
}

#[test]
fn the_engine_beats_a_random_mover_in_every_ruleset() {
    for_each_ruleset(BeatsRandom);
}
