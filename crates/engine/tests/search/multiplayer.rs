//! Max^n against the paranoid search in three-player chess: both return legal moves and find
//! wins; `match_maxn_against_paranoid` (ignored: minutes) is the measured match of
//! `docs/performance.md`.

use chaturanga_engine::{Engine, Limits, Multiplayer};
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset, Status};
use chaturanga_variants::threeplayer::ThreePlayerPosition;

type P = ThreePlayerPosition;

fn start() -> Game<P> {
    let options = RuleOptions::parse::<&str>(P::option_specs(), &[]).expect("default options");
    Game::new(P::start_position(&options).expect("start position"))
}

fn engine(mode: Multiplayer) -> Engine<P> {
    let mut engine = Engine::<P>::new(16);
    engine.set_multiplayer(mode);
    engine
}

#[test]
fn maxn_plays_legal_moves_and_lines() {
    let mut rng = SplitMix64::new(5);
    let mut game = start();
    let mut maxn = engine(Multiplayer::MaxN);
    for ply in 0..45 {
        if !matches!(game.status(), Status::Ongoing { .. }) {
            break;
        }
        let legal = game.legal_moves();
        if ply % 3 == 0 {
            let result = maxn.search(&game, &Limits::nodes(1_500), &mut |_| {});
            let best = result.best.expect("a move");
            assert!(legal.contains(&best));
            let mut at = game.position().clone();
            for &mv in &result.pv {
                let mut moves = Vec::new();
                at.legal_moves(&mut moves);
                assert!(
                    moves.contains(&mv),
                    "line move {} illegal",
                    at.move_text(mv)
                );
                at.play_unchecked(mv);
            }
        }
        let mv = legal[rng.below(legal.len() as u64) as usize];
        game.play(mv).expect("legal");
    }
}

#[test]
fn maxn_is_deterministic_under_a_node_limit() {
    let game = start();
    let a = engine(Multiplayer::MaxN).search(&game, &Limits::nodes(3_000), &mut |_| {});
    let b = engine(Multiplayer::MaxN).search(&game, &Limits::nodes(3_000), &mut |_| {});
    assert_eq!((a.best, a.nodes, a.depth), (b.best, b.nodes, b.depth));
    assert!(a.depth >= 1);
}

/// Points (in quarters) of a finished or capped game, per player; adds each seat's completed
/// search depths and searches to `depths`.
fn play_out(
    game: &mut Game<P>,
    engines: &mut [Engine<P>],
    nodes: u64,
    cap: usize,
    depths: &mut [(u64, u64)],
) -> Vec<u8> {
    for engine in engines.iter_mut() {
        engine.new_game();
    }
    while game.moves().len() < cap {
        if let Status::Over(o) = game.status() {
            return o.quarters;
        }
        let mover = game.position().side_to_move();
        let result = engines[mover].search(game, &Limits::nodes(nodes), &mut |_| {});
        depths[mover].0 += u64::from(result.depth);
        depths[mover].1 += 1;
        let Some(mv) = result.best else { break };
        game.play(mv).expect("the engine's move is legal");
    }
    match game.status() {
        Status::Over(o) => o.quarters,
        // Unfinished at the cap: scored as a three-way draw.
        Status::Ongoing { .. } => vec![2; 3],
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The match: openings of three random plies, each played in all six seatings of one
/// search against two of the other (or two against one), at a fixed node count per move.
/// `MATCH_OPENINGS` (default 6), `MATCH_NODES` (4,000), `MATCH_CAP` (plies, 300).
#[test]
#[ignore = "a measurement of minutes; run with --ignored --nocapture"]
fn match_maxn_against_paranoid() {
    use Multiplayer::{MaxN, Paranoid};
    let openings = env("MATCH_OPENINGS", 6);
    let nodes = env("MATCH_NODES", 4_000);
    let cap = env("MATCH_CAP", 300) as usize;
    let seatings = [
        [MaxN, Paranoid, Paranoid],
        [Paranoid, MaxN, Paranoid],
        [Paranoid, Paranoid, MaxN],
        [Paranoid, MaxN, MaxN],
        [MaxN, Paranoid, MaxN],
        [MaxN, MaxN, Paranoid],
    ];
    // Per mode: quarters won, seats played, wins (a full point), games decided.
    let mut quarters = [0u32; 2];
    let mut seats = [0u32; 2];
    let mut wins = [0u32; 2];
    let mut capped = 0;
    let mut depth_sums = [(0u64, 0u64); 2];
    let index = |m: Multiplayer| usize::from(m == MaxN);
    for opening in 0..openings {
        for seating in &seatings {
            let mut rng = SplitMix64::new(1_000 + opening);
            let mut game = start();
            for _ in 0..3 {
                let legal = game.legal_moves();
                game.play(legal[rng.below(legal.len() as u64) as usize])
                    .expect("legal");
            }
            let mut engines: Vec<Engine<P>> = seating.iter().map(|&m| engine(m)).collect();
            let mut depths = [(0, 0); 3];
            let result = play_out(&mut game, &mut engines, nodes, cap, &mut depths);
            let over = matches!(game.status(), Status::Over(_));
            if !over {
                capped += 1;
            }
            for (seat, &mode) in seating.iter().enumerate() {
                quarters[index(mode)] += u32::from(result[seat]);
                seats[index(mode)] += 1;
                wins[index(mode)] += u32::from(result[seat] == 4);
                depth_sums[index(mode)].0 += depths[seat].0;
                depth_sums[index(mode)].1 += depths[seat].1;
            }
            println!(
                "opening {opening} seats {:?}: {:?} after {} plies{}",
                seating,
                result,
                game.moves().len(),
                if over { "" } else { " (cap)" }
            );
        }
    }
    for (name, i) in [("paranoid", 0), ("max^n", 1)] {
        println!(
            "{name}: {:.2} points in {} seat-games ({:.3} per game), {} wins, mean depth {:.2}",
            f64::from(quarters[i]) / 4.0,
            seats[i],
            f64::from(quarters[i]) / 4.0 / f64::from(seats[i].max(1)),
            wins[i],
            depth_sums[i].0 as f64 / depth_sums[i].1.max(1) as f64
        );
    }
    println!("games unfinished at the cap of {cap} plies: {capped}");
}
