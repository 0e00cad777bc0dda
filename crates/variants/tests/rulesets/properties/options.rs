//! The invariants of `properties.rs` (which plays every ruleset under its default options)
//! under the non-default rule options of the rulesets whose options change move generation:
//! Taktika's `captures=on`, Makarenko's `tall=king|discard|reserve`, Gess's
//! `movement=standard` (and Gess and Chex under their defaults, to run them on their own),
//! Progressive chess's `check=italian`, Avalanche's `push=single-step`,
//! `self-check-push=illegal` and `balanced=on`. On seeded random games:
//! generated moves = the slow reference generator's, bulk count = list length, every move text
//! reads back to its move, FEN round-trips with the same hash, and undo restores the position.

use crate::common;

use chaturanga_rules::{Game, Position, Ruleset, Status};
use chaturanga_variants::{VariantInfo, Visitor, visit};
use common::Rng;

struct Playouts {
    options: &'static [&'static str],
    games: usize,
    max_plies: usize,
}

fn sorted_texts<P: Position>(position: &P, moves: &[P::Move]) -> Vec<String> {
    let mut t: Vec<String> = moves.iter().map(|&m| position.move_text(m)).collect();
    t.sort();
    t
}

impl Visitor for Playouts {
    type Output = usize;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> usize {
        let options = common::options::<P>(self.options);
        let mut rng = Rng::new(0x0B7);
        let mut checked = 0;
        for g in 0..self.games {
            let mut game = Game::new(P::start_position(&options).unwrap());
            for ply in 0..self.max_plies {
                let position = game.position().clone();
                let here = format!(
                    "{} {:?} game {g} ply {ply}: {}",
                    info.id,
                    self.options,
                    position.fen()
                );
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                let mut reference = Vec::new();
                position.reference_legal_moves(&mut reference);
                let texts = sorted_texts(&position, &moves);
                assert_eq!(texts, sorted_texts(&position, &reference), "{here}");
                assert_eq!(position.count_legal_moves(), moves.len() as u64, "{here}");
                let mut unique = texts.clone();
                unique.dedup();
                assert_eq!(unique.len(), texts.len(), "duplicate move texts at {here}");
                for _ in 0..moves.len().min(3) {
                    let m = moves[rng.below(moves.len())];
                    assert_eq!(position.parse_move(&position.move_text(m)), Ok(m), "{here}");
                }
                let fen = position.fen();
                let reread =
                    P::from_fen_with(&options, &fen).unwrap_or_else(|e| panic!("{here}: {e}"));
                assert_eq!(reread.fen(), fen, "{here}");
                assert_eq!(reread.hash(), position.hash(), "hash at {here}");
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

fn check(id: &str, options: &'static [&'static str]) {
    let (games, max_plies) = if cfg!(debug_assertions) {
        (5, 80)
    } else {
        (40, 250)
    };
    let checked = visit(
        id,
        Playouts {
            options,
            games,
            max_plies,
        },
    )
    .unwrap();
    // Random Gess games end within a few plies (a ring breaks), so only ask for more
    // positions than games.
    assert!(checked > games, "{id} {options:?}: only {checked}");
}

#[test]
fn taktika_with_captures() {
    check("taktika", &["captures=on"]);
}

#[test]
fn makarenko_tall_king() {
    check("makarenko", &["tall=king"]);
}

#[test]
fn makarenko_tall_discard() {
    check("makarenko", &["tall=discard"]);
}

#[test]
fn makarenko_tall_reserve() {
    check("makarenko", &["tall=reserve"]);
}

#[test]
fn gess_standard_movement() {
    check("gess", &["movement=standard"]);
}

#[test]
fn gess_and_chex_defaults() {
    // Also in properties.rs (every ruleset); here so that they can be run on their own.
    check("gess", &[]);
    check("chex", &[]);
}

#[test]
fn progressive_italian_check() {
    check("progressive", &["check=italian"]);
}

#[test]
fn avalanche_single_step_pushes() {
    check("avalanche", &["push=single-step"]);
}

#[test]
fn avalanche_self_checking_pushes_illegal() {
    check("avalanche", &["self-check-push=illegal"]);
}

#[test]
fn avalanche_balanced() {
    check("avalanche", &["balanced=on"]);
}
