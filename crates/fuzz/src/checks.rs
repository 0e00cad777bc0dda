//! What must hold of every position a ruleset accepts, whatever built it.
//!
//! Each check panics with the position's FEN when it fails: a panic is what the fuzzer
//! reports, and the FEN is what a regression test needs.

use chaturanga_rules::scene::SceneMan;
use chaturanga_rules::zobrist::SplitMix64;
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset, Scene, Viewer};

/// How many of a position's moves have their text read back (each read regenerates the
/// move list, so all of them would make large boards slow to fuzz).
const READ_BACK: usize = 12;

fn sorted_texts<P: Position>(position: &P, moves: &[P::Move]) -> Vec<String> {
    let mut texts: Vec<String> = moves.iter().map(|&m| position.move_text(m)).collect();
    texts.sort();
    texts
}

/// Every invariant of one position: the fast generator against the reference one, bulk
/// counts, the search's candidates, move texts, FEN and hash, null moves, scenes and shapes.
/// Answers the legal moves.
pub fn position<P: Ruleset>(options: &RuleOptions, position: &P) -> Vec<P::Move> {
    let fen = position.fen();
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let mut reference = Vec::new();
    position.reference_legal_moves(&mut reference);
    let texts = sorted_texts(position, &moves);
    assert_eq!(
        texts,
        sorted_texts(position, &reference),
        "generated and reference moves differ at {fen}"
    );
    let mut unique = texts.clone();
    unique.dedup();
    assert_eq!(unique.len(), texts.len(), "two moves share a text at {fen}");
    assert_eq!(
        position.count_legal_moves(),
        moves.len() as u64,
        "the bulk count is not the list's length at {fen}"
    );
    let mut candidates = Vec::new();
    position.candidate_moves(&mut candidates);
    candidates.retain(|&m| position.is_legal(m));
    assert_eq!(
        sorted_texts(position, &candidates),
        texts,
        "the legal candidates are not the legal moves at {fen}"
    );
    for &mv in moves.iter().take(READ_BACK) {
        let text = position.move_text(mv);
        assert_eq!(
            position.parse_move(&text),
            Ok(mv),
            "{text:?} does not read back at {fen}"
        );
    }
    let reread = P::from_fen_with(options, &fen)
        .unwrap_or_else(|e| panic!("the written FEN {fen:?} is refused: {e}"));
    assert_eq!(reread.fen(), fen, "FEN does not round-trip");
    assert_eq!(
        reread.hash(),
        position.hash(),
        "the incremental hash differs from a fresh one at {fen}"
    );
    if let Some(passed) = position.null_move() {
        assert_ne!(passed.side_to_move(), position.side_to_move(), "{fen}");
        let again = P::from_fen_with(options, &passed.fen())
            .unwrap_or_else(|e| panic!("the null move's FEN is refused at {fen}: {e}"));
        assert_eq!(again.hash(), passed.hash(), "null move hash at {fen}");
    }
    for &mv in &moves {
        let _ = position.move_shape(mv);
    }
    let _ = position.legend();
    scenes(position, &fen);
    moves
}

/// A player's scene shows exactly the arbiter's men off his fogged cells; a position the
/// engine samples from a player's view shows him the same board.
fn scenes<P: Ruleset>(position: &P, fen: &str) {
    let arbiter = position.scene(Viewer::Arbiter);
    for player in 0..position.players() {
        let seen = position.scene(Viewer::Player(player));
        assert_eq!(
            seen.boards.len(),
            arbiter.boards.len(),
            "player {player} sees another number of boards at {fen}"
        );
        for (mine, all) in seen.boards.iter().zip(&arbiter.boards) {
            let mut expected: Vec<_> = all
                .men
                .iter()
                .filter(|man| !mine.fog.contains(&man.cell))
                .cloned()
                .collect();
            let mut shown = mine.men.clone();
            let key = |m: &SceneMan| (m.cell.clone(), m.owner);
            expected.sort_by_key(key);
            shown.sort_by_key(key);
            assert_eq!(
                shown, expected,
                "player {player} is not shown exactly the men off his fog at {fen}"
            );
        }
        if let Some(view) = position.player_view(player) {
            let mut rng = SplitMix64::new(fen.len() as u64);
            if let Ok(sample) = P::determinize(&view, &mut rng) {
                // The board he sees; what he was told of the last move is not a position's.
                let board = |view: &str| view.lines().next().map(str::to_string);
                assert_eq!(
                    sample.player_view(player).as_deref().and_then(board),
                    board(&view),
                    "a position sampled from player {player}'s view is seen otherwise at {fen}"
                );
            }
        }
    }
    let spectator: Scene = position.scene(Viewer::Spectator);
    if !spectator.complete {
        for board in &spectator.boards {
            assert!(
                board.men.is_empty() || !board.fog.is_empty(),
                "a spectator sees men of an incomplete scene at {fen}"
            );
        }
    }
}

/// Plays `choices` from `start` (each byte picks one of the legal moves), checking every
/// position on the way and that undo restores each one. At most `max_plies` moves.
pub fn playout<P: Ruleset>(options: &RuleOptions, start: P, choices: &[u8], max_plies: usize) {
    let mut game = Game::new(start);
    for &choice in choices.iter().take(max_plies) {
        let before = game.position().clone();
        let moves = position(options, &before);
        if moves.is_empty() {
            break;
        }
        let mv = moves[usize::from(choice) % moves.len()];
        let fen = before.fen();
        let mut played = before.clone();
        played
            .play(mv)
            .unwrap_or_else(|e| panic!("a legal move is refused at {fen}: {e}"));
        // Through draws: a draw rule ends the game, not the rules' moves.
        game.play_through_draws(mv);
        assert_eq!(game.position().fen(), played.fen(), "{fen}");
        assert!(game.undo(), "no undo after a move at {fen}");
        assert_eq!(game.position().fen(), fen, "undo does not restore {fen}");
        assert_eq!(
            game.position().hash(),
            before.hash(),
            "undo's hash at {fen}"
        );
        game.play_through_draws(mv);
    }
    position(options, game.position());
}
