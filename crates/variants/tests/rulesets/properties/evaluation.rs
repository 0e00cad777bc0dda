//! Properties of the shared evaluation that rulesets rely on, asserted through positions
//! rather than numbers: what the evaluation prefers, not by how much.

use crate::common;

use chaturanga_rules::scene::Viewer;
use chaturanga_rules::{Position, Ruleset};
use chaturanga_variants::shogi::ShogiPosition;
use chaturanga_variants::{VariantInfo, Visitor, implemented, visit};
use common::{Rng, position};

/// In a drop game material never leaves the game: with every man in hand the king must still
/// prefer its home rank to the centre, where drops reach it from every side. (An evaluation
/// that measured the phase from the board alone would call this an endgame and centralise.)
#[test]
fn shogi_king_stays_home_when_the_men_are_in_hand() {
    let hands = "RB2G2S2N2L9Prb2g2s2n2l9p";
    let home = position::<ShogiPosition>(&format!("4k4/9/9/9/9/9/9/9/4K4 b {hands} 1"));
    let centre = position::<ShogiPosition>(&format!("4k4/9/9/9/4K4/9/9/9/9 b {hands} 1"));
    assert!(
        home.evaluate(0) > centre.evaluate(0),
        "home {} centre {}",
        home.evaluate(0),
        centre.evaluate(0)
    );
}

/// The quiescence search leaves out captures that lose material: a rook taking a pawn a gold
/// defends does, the same rook taking an undefended pawn does not, nor does a pawn taking a
/// defended rook.
#[test]
fn chu_exchange_test_sees_defenders() {
    use chaturanga_variants::chushogi::ChuShogiPosition;
    let pos = position::<ChuShogiPosition>("k11/12/12/12/5g6/p4p6/12/R4R6/12/12/12/11K b - 1");
    let defended = pos.parse_move("7h7f").unwrap();
    let undefended = pos.parse_move("12h12f").unwrap();
    assert!(pos.exchange_loses(defended));
    assert!(!pos.exchange_loses(undefended));
    let reversed = position::<ChuShogiPosition>("k11/12/12/12/5g6/p4r6/5P6/12/12/12/12/11K b - 1");
    assert!(!reversed.exchange_loses(reversed.parse_move("7g7f").unwrap()));
    // A quiet move is never a losing exchange.
    assert!(!pos.exchange_loses(pos.parse_move("7h7g").unwrap()));
}

/// Each player's material as the arbiter's picture shows it: men on every board (a tower
/// counts its height, a frozen man, written `-R` in Taktika where nothing is captured, does
/// not count) and men in hand.
fn material<P: Position>(position: &P) -> Vec<u32> {
    let mut total = vec![0; position.players()];
    for board in position.scene(Viewer::Arbiter).boards {
        for man in board.men.iter().filter(|m| !m.piece.starts_with('-')) {
            total[man.owner] += man.height.unwrap_or(1);
        }
        for hand in &board.hands {
            total[hand.owner] += hand.count;
        }
    }
    total
}

/// How a ruleset's evaluation answered the material losses of random games.
#[derive(Debug, Default)]
struct Losses {
    /// Moves after which a player had less material.
    seen: usize,
    /// Of those, how often that player's evaluation went down.
    went_down: usize,
    /// And how often it went up.
    went_up: usize,
}

struct MaterialLosses {
    games: usize,
    max_plies: usize,
}

impl Visitor for MaterialLosses {
    type Output = Losses;

    fn visit<P: Ruleset>(self, _info: &'static VariantInfo) -> Losses {
        let options = common::options::<P>(&[]);
        let mut rng = Rng::new(0xE7A1);
        let mut losses = Losses::default();
        for _ in 0..self.games {
            let mut position = P::start_position(&options).unwrap();
            for _ in 0..self.max_plies {
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                if moves.is_empty() || position.decided_outcome().is_some() {
                    break;
                }
                // Every other move a capture where there is one, so that short games (Gess
                // ends when a ring breaks) still show losses.
                let captures: Vec<P::Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| position.move_value(m).gain > 0)
                    .collect();
                let pool = if captures.is_empty() || rng.below(2) == 0 {
                    &moves
                } else {
                    &captures
                };
                let before = material(&position);
                let mut next = position.clone();
                next.play_unchecked(pool[rng.below(pool.len())]);
                let after = material(&next);
                for player in 0..position.players() {
                    if after[player] < before[player] && next.decided_outcome().is_none() {
                        losses.seen += 1;
                        let (old, new) = (position.evaluate(player), next.evaluate(player));
                        losses.went_down += usize::from(new < old);
                        losses.went_up += usize::from(new > old);
                    }
                }
                position = next;
            }
        }
        losses
    }
}

/// Every ruleset has an evaluation that sees material: in random games, after most moves
/// that cost a player material his evaluation falls (in losing chess, where shedding men is
/// the aim, it rises). A ruleset left with the zero evaluation, or a wrapper position that
/// forgot to pass its board's on, fails here.
#[test]
fn every_ruleset_evaluates_material() {
    let (games, max_plies) = if cfg!(debug_assertions) {
        (4, 80)
    } else {
        (48, 160)
    };
    for info in implemented() {
        let losses = visit(info.id, MaterialLosses { games, max_plies }).unwrap();
        assert!(
            losses.seen >= 10,
            "{}: too few losses seen: {losses:?}",
            info.id
        );
        let (agreeing, expected) = if info.id == "losing" {
            (losses.went_up, "rise")
        } else {
            (losses.went_down, "fall")
        };
        assert!(
            agreeing * 10 >= losses.seen * 7,
            "{}: the evaluation should {expected} after a loss of material: {losses:?}",
            info.id
        );
        eprintln!("{}: {losses:?}", info.id);
    }
}

/// What the tuner's features said against the evaluation, over random positions.
#[derive(Debug, Default)]
struct FeatureCheck {
    /// Positions compared.
    positions: usize,
    /// The largest difference, in centipawns.
    worst: f64,
    /// Whether the ruleset offers features at all.
    tunable: bool,
}

struct Features;

impl Visitor for Features {
    type Output = FeatureCheck;

    fn visit<P: Ruleset>(self, _info: &'static VariantInfo) -> FeatureCheck {
        let options = common::options::<P>(&[]);
        let mut rng = Rng::new(0xFEA7);
        let mut check = FeatureCheck::default();
        for _ in 0..8 {
            let mut position = P::start_position(&options).unwrap();
            for _ in 0..120 {
                if let Some(score) = position.eval_features().map(|f| f.own_score()) {
                    check.tunable = true;
                    check.positions += 1;
                    let difference = (score - f64::from(position.evaluate(0))).abs();
                    check.worst = check.worst.max(difference);
                }
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                if moves.is_empty() || position.decided_outcome().is_some() {
                    break;
                }
                position.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        check
    }
}

/// The tuner fits the weights of a linear model of the evaluation: in every ruleset that
/// offers it, the model with the ruleset's weights is the evaluation itself, up to the rounding
/// of the tables (each square's placement is rounded to a centipawn, the model's is not). A
/// term the model misses or signs wrongly shows as tens or hundreds of centipawns.
#[test]
fn the_tuners_features_reproduce_the_evaluation() {
    let mut tunable = Vec::new();
    for info in implemented() {
        let check = visit(info.id, Features).unwrap();
        if !check.tunable {
            continue;
        }
        tunable.push(info.id);
        assert!(
            check.worst <= 25.0,
            "{}: the features miss the evaluation by up to {:.1} cp over {} positions",
            info.id,
            check.worst,
            check.positions
        );
        eprintln!("{}: {check:?}", info.id);
    }
    // The rulesets of every family with a weights file offer features, chu shogi's position
    // type (dai shogi's too) as well as the standard one; losing chess (its own evaluation)
    // does not.
    for id in [
        "chess",
        "chushogi",
        "daishogi",
        "minishogi",
        "shogi",
        "xiangqi",
    ] {
        assert!(
            tunable.contains(&id),
            "{id} offers no features: {tunable:?}"
        );
    }
    assert!(!tunable.contains(&"losing"), "{tunable:?}");
}
