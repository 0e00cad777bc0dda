//! Invariants checked on random playouts of every implemented ruleset:
//! generated moves = legal moves (against the slow reference generator), bulk counts match the
//! lists, the search's candidate moves less the illegal ones are the legal moves, its tactical
//! candidates hold every legal move that gains material (quiescence's moves), a null move
//! hands the turn over with a consistent hash, every move's text reads back to it, FEN
//! round-trips with the same hash, the incremental hash equals a fresh one, and undo restores
//! the position.

use crate::common;

use chaturanga_rules::{Game, Position, Ruleset, Status};
use chaturanga_variants::{VariantInfo, Visitor, implemented, visit};
use common::Rng;

struct Playouts {
    games: usize,
    max_plies: usize,
    seed: u64,
}

fn sorted_texts<P: Position>(position: &P, moves: &[P::Move]) -> Vec<String> {
    let mut t: Vec<String> = moves.iter().map(|&m| position.move_text(m)).collect();
    t.sort();
    t
}

impl Visitor for Playouts {
    type Output = usize;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> usize {
        let options = common::options::<P>(&[]);
        let mut rng = Rng::new(self.seed);
        let mut checked = 0;
        for g in 0..self.games {
            let mut game = Game::new(P::start_position(&options).unwrap());
            for ply in 0..self.max_plies {
                let position = game.position().clone();
                let here = format!("{} game {g} ply {ply}: {}", info.id, position.fen());
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                let mut reference = Vec::new();
                position.reference_legal_moves(&mut reference);
                assert_eq!(
                    sorted_texts(&position, &moves),
                    sorted_texts(&position, &reference),
                    "{here}"
                );
                assert_eq!(position.count_legal_moves(), moves.len() as u64, "{here}");
                let mut candidates = Vec::new();
                position.candidate_moves(&mut candidates);
                candidates.retain(|&m| position.is_legal(m));
                assert_eq!(
                    sorted_texts(&position, &candidates),
                    sorted_texts(&position, &moves),
                    "legal candidates differ from the legal moves at {here}"
                );
                let mut tactical = Vec::new();
                position.tactical_candidates(&mut tactical);
                tactical.retain(|&m| position.is_legal(m));
                let tactical = sorted_texts(&position, &tactical);
                let legal = sorted_texts(&position, &moves);
                for text in &tactical {
                    assert!(legal.contains(text), "tactical {text} not legal at {here}");
                }
                for &m in &moves {
                    if position.move_value(m).gain > 0 {
                        let text = position.move_text(m);
                        assert!(
                            tactical.contains(&text),
                            "{text} gains but is not a tactical candidate at {here}"
                        );
                    }
                }
                if let Some(passed) = position.null_move() {
                    assert_ne!(passed.side_to_move(), position.side_to_move(), "{here}");
                    let reread = P::from_fen_with(&options, &passed.fen())
                        .unwrap_or_else(|e| panic!("null move at {here}: {e}"));
                    assert_eq!(reread.hash(), passed.hash(), "null move hash at {here}");
                }
                let texts = sorted_texts(&position, &moves);
                let mut unique = texts.clone();
                unique.dedup();
                assert_eq!(unique.len(), texts.len(), "duplicate move texts at {here}");
                // Reading a move back regenerates the move list, so sample a few per position.
                for _ in 0..moves.len().min(3) {
                    let m = moves[rng.below(moves.len())];
                    assert_eq!(position.parse_move(&position.move_text(m)), Ok(m), "{here}");
                }
                let fen = position.fen();
                let reread =
                    P::from_fen_with(&options, &fen).unwrap_or_else(|e| panic!("{here}: {e}"));
                assert_eq!(reread.fen(), fen, "{here}");
                assert_eq!(
                    reread.hash(),
                    position.hash(),
                    "incremental hash differs at {here}"
                );
                checked += 1;
                if moves.is_empty() || matches!(game.status(), Status::Over(_)) {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                game.play(mv).unwrap_or_else(|e| panic!("{here}: {e}"));
                assert!(game.undo());
                assert_eq!(game.position().fen(), fen, "undo at {here}");
                assert_eq!(game.position().hash(), position.hash(), "undo at {here}");
                game.play(mv).unwrap();
            }
        }
        checked
    }
}

#[test]
fn random_playouts_keep_every_invariant() {
    let (games, max_plies) = if cfg!(debug_assertions) {
        (20, 120)
    } else {
        (200, 300)
    };
    for info in implemented() {
        let checked = visit(
            info.id,
            Playouts {
                games,
                max_plies,
                seed: 0xC4A7,
            },
        )
        .unwrap();
        assert!(checked > games, "{}: only {checked} positions", info.id);
    }
}
