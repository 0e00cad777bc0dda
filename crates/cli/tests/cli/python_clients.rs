//! python-chess (PyPI `chess` 1.11.2) drives our binary as a UCI engine: full Chess960 games
//! (python-chess sets `UCI_Chess960`, sends Shredder-FENs, reads castling as the king taking
//! its rook) and full antichess games (`chess.variant.AntichessBoard`, which sets
//! `UCI_Variant antichess`: our losing chess with en passant and king promotion). Against a
//! random mover on each side and against itself, and a Chess960 position where only castling
//! mates (our engine must send it as the king taking its rook); the random mover castles
//! whenever it may, so castlings reach us too. python-chess checks every move, and every game
//! must end by its rules. `tests/oracles/python_chess_uci_games.py` drives python-chess.
//!
//! The test needs `python3` (or `CHATURANGA_PYTHON`) with python-chess; it fails, with
//! instructions, when they are missing: it never skips.

const INSTALL: &str = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt`, or set CHATURANGA_PYTHON to a Python that has them";

/// Games against the random mover per variant (besides one against itself), and their cap.
const GAMES: usize = 4;
const MAX_PLIES: usize = 600;

#[test]
fn python_chess_plays_chess960_and_antichess_against_us() {
    let stdout = crate::python_client::run(
        "python_chess_uci_games.py",
        &[
            "20261204",
            &GAMES.to_string(),
            &MAX_PLIES.to_string(),
            // Milliseconds a move: short, the games are many plies.
            "30",
        ],
        INSTALL,
    );
    let games = crate::python_client::games(&stdout);
    assert_eq!(games.len(), 2 * (GAMES + 1) + 1, "{stdout}");
    let mut castlings = [0, 0];
    for game in &games {
        let [
            _,
            _,
            variant,
            side,
            plies,
            result,
            termination,
            fen,
            ours,
            theirs,
        ] = game[..]
        else {
            panic!("bad line {game:?}")
        };
        castlings[0] += ours.parse::<u32>().unwrap();
        castlings[1] += theirs.parse::<u32>().unwrap();
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&result),
            "{game:?}\n{stdout}"
        );
        assert!(plies.parse::<usize>().unwrap() > 0, "{game:?}");
        // Against the random mover our engine does not lose.
        let lost = match side {
            "white" => result == "0-1",
            "black" => result == "1-0",
            _ => false,
        };
        assert!(
            !lost,
            "{variant}: our engine lost to random moves: {game:?}\n{stdout}"
        );
        if variant == "antichess" && side != "both" {
            // Antichess ends when a side has given everything away or cannot move.
            assert!(
                ["variant_win", "variant_loss", "stalemate", "checkmate"].contains(&termination)
                    || result == "1/2-1/2",
                "{game:?}: {fen}"
            );
        }
    }
    for (variant, count) in [("chess960", GAMES + 2), ("antichess", GAMES + 1)] {
        assert_eq!(
            games.iter().filter(|g| g[2] == variant).count(),
            count,
            "{stdout}"
        );
    }
    // The last Chess960 game: mate at once, by castling.
    let mate = &games[GAMES + 1];
    assert_eq!(
        mate[3..8],
        [
            "white",
            "1",
            "1-0",
            "checkmate",
            "4rkr1/4p1p1/8/8/8/1B6/8/5RK1 b - - 1 1"
        ],
        "{stdout}"
    );
    assert_eq!(mate[8], "1", "{stdout}");
    assert!(castlings[0] >= 1, "{castlings:?}");
}
