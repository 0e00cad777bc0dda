//! Every scenario of `docs/rules/maharajah.md`, in its order, as a named test.

use crate::common;

use chaturanga_rules::{Position, Ruleset};
use chaturanga_variants::maharajah::{self, MaharajahPosition};
use common::{game_after, legal_texts, position};

fn legal(fen: &str) -> Vec<String> {
    legal_texts(&position::<MaharajahPosition>(fen))
}

/// The start position with the Maharajah in hand, under `opts`.
fn placement(opts: &[&str]) -> MaharajahPosition {
    game_after::<MaharajahPosition>(Some(maharajah::PLACEMENT_FEN), opts, &[])
        .position()
        .clone()
}

fn is_legal(p: &MaharajahPosition, text: &str) -> bool {
    p.parse_move(text).is_ok()
}

/// Whether `text` is among the legal moves as the engine writes them.
fn listed(p: &MaharajahPosition, text: &str) -> bool {
    legal_texts(p).iter().any(|m| m == text)
}

#[test]
fn scenario_01_placement_in_the_initial_array() {
    let any = placement(&[]);
    assert!(listed(&any, "M@d4"));
    assert!(listed(&any, "M@d6"));
    assert!(!listed(&any, "M@d7"), "d7 is occupied");
    // On d6 the Maharajah starts in check from c7 and e7; White (still to move) must move
    // it away, and may not take the protected pawns: no White move captures.
    let mut moves = Vec::new();
    any.legal_moves(&mut moves);
    let d6 = *moves
        .iter()
        .find(|&&m| any.move_text(m) == "M@d6")
        .expect("M@d6 is listed");
    let mut p = any.clone();
    p.play(d6).expect("M@d6 is legal");
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/3M4/8/8/8/8/8 w kq - 0 1");
    assert_eq!(p.side_to_move(), 0, "the placement is not a move");
    assert!(p.is_check());
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    assert!(!moves.is_empty());
    for &m in &moves {
        let d = p.describe(m).expect("described");
        assert_eq!(d.piece, "M", "{}", p.move_text(m));
        assert_eq!(d.from.as_deref(), Some("d6"));
        assert!(!d.capture, "{}", p.move_text(m));
    }
    for m in ["d6c7", "d6e7", "d6d7", "d6e8"] {
        assert!(!is_legal(&p, m), "{m}");
    }

    let unattacked = placement(&["placement=unattacked"]);
    assert!(!listed(&unattacked, "M@d6"));
    assert!(listed(&unattacked, "M@d4"));

    let bodlaender = placement(&["placement=ranks1-3"]);
    assert!(!listed(&bodlaender, "M@d4"));
    assert!(listed(&bodlaender, "M@d3"));

    // The placement read in its written form, `M@d4`, as the README's move notation gives
    // drops (and as `move_text` writes them).
    assert!(is_legal(&any, "M@d4"), "{:?}", any.parse_move("M@d4"));
    assert!(is_legal(&any, "M@d6"));
    assert!(!is_legal(&unattacked, "M@d6"));
    assert!(is_legal(&bodlaender, "M@d3"));
}

#[test]
fn scenario_02_maharajah_moves_from_e1() {
    let game = game_after::<MaharajahPosition>(None, &[], &[]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/8/4M3 w kq - 0 1"
    );
    let p = position::<MaharajahPosition>("rnbqkbnr/pppppppp/8/8/8/8/8/4M3 w kq - 0 1");
    assert!(is_legal(&p, "e1f3"), "knight leap");
    assert!(!is_legal(&p, "e1e6"), "e6 is attacked by d7 and f7");
    assert!(!is_legal(&p, "e1e7"), "the e7 pawn is protected");
}

#[test]
fn scenario_03_maharajah_checkmated() {
    let game =
        game_after::<MaharajahPosition>(Some("r7/1k6/8/4p3/2pq4/4n1n1/8/M6r w - - 0 1"), &[], &[]);
    assert!(game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "0-1 checkmate");
}

#[test]
fn scenario_04_no_capture_of_a_protected_sepoy() {
    // The scenario's FEN, `4k3/8/8/8/1b6/8/3n4/4M3 w - - 0 1`, has the black king on e8 in
    // check from the Maharajah on e1 (the e-file is empty) with White to move: not a legal
    // position, and the engine refuses it. The same claim with the black king on h8, which
    // the Maharajah does not attack.
    assert!(
        MaharajahPosition::from_fen_with(
            &common::options::<MaharajahPosition>(&[]),
            "4k3/8/8/8/1b6/8/3n4/4M3 w - - 0 1"
        )
        .is_err()
    );
    let p = position::<MaharajahPosition>("7k/8/8/8/1b6/8/3n4/4M3 w - - 0 1");
    assert!(!p.is_check());
    assert!(
        !is_legal(&p, "e1d2"),
        "the d2 knight is protected by the b4 bishop"
    );
    // An unprotected piece may be taken: without the bishop, e1d2 is legal.
    assert!(is_legal(
        &position::<MaharajahPosition>("7k/8/8/8/8/8/3n4/4M3 w - - 0 1"),
        "e1d2"
    ));
}

#[test]
fn scenario_05_sepoy_pawn_does_not_promote() {
    // Black pawn c2, Black Ke8, Maharajah h1; Black to move.
    let fen = "4k3/8/8/8/8/8/2p5/7M b - - 0 1";
    let moves = legal(fen);
    let from_c2: Vec<&String> = moves.iter().filter(|m| m.starts_with("c2")).collect();
    assert_eq!(from_c2, ["c2c1"]);
    let game = game_after::<MaharajahPosition>(Some(fen), &[], &["c2c1"]);
    assert_eq!(game.position().fen(), "4k3/8/8/8/8/8/8/2p4M w - - 0 2");
    // A quiet Maharajah move, then the pawn on c1 has no moves.
    let game = game_after::<MaharajahPosition>(Some(fen), &[], &["c2c1", "h1h2"]);
    assert_eq!(game.position().fen(), "4k3/8/8/8/8/8/7M/2p5 b - - 1 2");
    let moves = legal_texts(game.position());
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| !m.starts_with("c1")), "{moves:?}");
}

#[test]
fn scenario_06_black_castles() {
    // Black Ke8, Rh8; Maharajah a1 (it attacks h8 along the long diagonal, not e8, f8, g8).
    let fen = "4k2r/8/8/8/8/8/8/M7 b k - 0 1";
    assert!(legal(fen).contains(&"e8g8".to_string()));
    let game = game_after::<MaharajahPosition>(Some(fen), &[], &["e8g8"]);
    assert_eq!(game.position().fen(), "5rk1/8/8/8/8/8/8/M7 w - - 1 2");
}

#[test]
fn scenario_07_no_castling_across_an_attacked_cell() {
    // Black Ke8, Rh8, e7 empty; Maharajah a3 attacks f8 along a3-f8.
    let fen = "4k2r/8/8/8/8/M7/8/8 b k - 0 1";
    let p = position::<MaharajahPosition>(fen);
    assert!(!p.is_check());
    assert!(!is_legal(&p, "e8g8"));
}

#[test]
fn scenario_08_stalemate_of_the_lone_king() {
    // Black Ka8 alone; Maharajah b5; Black to move.
    let game = game_after::<MaharajahPosition>(Some("k7/8/8/1M6/8/8/8/8 b - - 0 1"), &[], &[]);
    assert!(!game.position().is_check());
    assert!(legal_texts(game.position()).is_empty());
    assert_eq!(game.status().to_string(), "1/2-1/2 stalemate");
}

#[test]
fn scenario_09_maharajah_gives_check_on_the_e_file() {
    // Maharajah e1, Black Ke8 alone, e2-e7 empty; Black to move.
    let fen = "4k3/8/8/8/8/8/8/4M3 b - - 0 1";
    let p = position::<MaharajahPosition>(fen);
    assert!(p.is_check());
    assert_eq!(legal_texts(&p), ["e8d7", "e8d8", "e8f7", "e8f8"]);
}
