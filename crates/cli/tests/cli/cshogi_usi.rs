//! cshogi (PyPI `cshogi` 1.1.0) drives our binary as a shogi GUI does, given only the
//! executable's path: `cshogi.usi.Engine` and `cshogi.cli.main` start it with no argument, so
//! the first line (`usi`) has to choose the protocol. Full games against a random mover
//! (our engine on each side) and one of our engine against itself through `cshogi.cli.main`;
//! every move must be legal per cshogi, and a game must end by the rules (checkmate,
//! repetition) or at the ply cap, never by an illegal move, a resignation with moves left, or
//! the engine falling silent. `tests/oracles/cshogi_usi_games.py` drives cshogi.
//!
//! The test needs `python3` (or `CHATURANGA_PYTHON`) with cshogi; it fails, with
//! instructions, when they are missing: it never skips.

const INSTALL: &str = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt` (cshogi==1.1.0), or set CHATURANGA_PYTHON to a Python that has them";

/// Games against the random mover (half with our engine as Black), and their cap.
const GAMES: usize = 4;
const MAX_PLIES: usize = 200;

#[test]
fn cshogi_plays_full_games_with_only_the_executable_path() {
    let csa_dir =
        std::env::temp_dir().join(format!("chaturanga-cshogi-usi-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&csa_dir);
    let stdout = crate::python_client::run(
        "cshogi_usi_games.py",
        &[
            "20261204",
            &GAMES.to_string(),
            &MAX_PLIES.to_string(),
            // Milliseconds a move (byoyomi): short, the games are many plies.
            "50",
            &csa_dir.display().to_string(),
        ],
        INSTALL,
    );
    let _ = std::fs::remove_dir_all(&csa_dir);
    let games = crate::python_client::games(&stdout);
    assert_eq!(games.len(), GAMES + 1, "{stdout}");
    for (n, game) in games.iter().enumerate() {
        let [_, number, side, plies, ending, sfen] = game[..] else {
            panic!("bad line {game:?}")
        };
        assert_eq!(number, n.to_string());
        let expected_side = match n {
            _ if n == GAMES => "both",
            _ if n % 2 == 0 => "black",
            _ => "white",
        };
        assert_eq!(side, expected_side, "{stdout}");
        let plies: usize = plies.parse().expect("a ply count");
        assert!(plies > 0 && plies <= MAX_PLIES, "{stdout}");
        match ending {
            "checkmate" | "repetition" => {}
            "max-plies" => assert_eq!(plies, MAX_PLIES, "{stdout}"),
            other => panic!("game {n} ended by {other}: {stdout}"),
        }
        assert!(sfen.ends_with(&format!(" {}", plies + 1)), "{stdout}");
    }
    // Against a random mover the engine wins by checkmate within the cap.
    let mates = games[..GAMES]
        .iter()
        .filter(|g| g[4] == "checkmate")
        .count();
    assert_eq!(mates, GAMES, "{stdout}");
}
