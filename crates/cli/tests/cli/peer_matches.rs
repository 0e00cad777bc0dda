//! Short matches against real engines from Debian (installed by `.ci/run`): each protocol
//! in both directions, zero illegal moves and zero crashes asked of both sides.
//!
//! The engines are required: a missing one fails the test with the package to install.

use std::path::Path;
use std::process::Command;

/// The peer's program, from `/usr/games` or the `PATH`.
fn peer(name: &str, package: &str) -> String {
    let games = format!("/usr/games/{name}");
    if Path::new(&games).exists() {
        return games;
    }
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .expect("sh runs");
    let path = String::from_utf8_lossy(&found.stdout).trim().to_string();
    assert!(
        !path.is_empty(),
        "{name} is missing: install the Debian package {package} (.ci/run does)"
    );
    path
}

/// Our own binary speaking `protocol`, as a match player.
fn ourselves(protocol: &str) -> String {
    format!("{protocol}:{} {protocol}", env!("CARGO_BIN_EXE_chaturanga"))
}

/// Plays a short match and checks it ran to the end cleanly.
fn smoke(variant: &str, first: &str, second: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "match",
        variant,
        "--first",
        first,
        "--second",
        second,
        "--games",
        "2",
        "--tc",
        "st=0.1",
        // Generous: the test suite runs many binaries at once on two cores.
        "--time-margin",
        "10000",
        "--max-plies",
        "40",
    ];
    args.extend_from_slice(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_chaturanga"))
        .args(&args)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}\n{stdout}");
    assert!(stdout.contains(": 2 games"), "{stdout}");
    let clean = stdout
        .lines()
        .filter(|l| l.contains("illegal moves 0, crashes 0,"))
        .count();
    assert_eq!(clean, 2, "an infraction:\n{stdout}");
    stdout
}

#[test]
fn uci_against_stockfish_both_ways() {
    let stockfish = format!("uci:{}", peer("stockfish", "stockfish"));
    // Our match runner driving Stockfish over UCI.
    smoke("chess", "chaturanga", &stockfish, &[]);
    // Our UCI server driven by the runner, against Stockfish.
    smoke("chess", &ourselves("uci"), &stockfish, &[]);
}

#[test]
fn xboard_against_fairy_max_and_maxqi() {
    let fairymax = format!("xboard:{}", peer("fairymax", "fairymax"));
    smoke("chess", &ourselves("xboard"), &fairymax, &[]);
    smoke(
        "capablanca",
        "chaturanga",
        &fairymax,
        &["--option", "setup=standard"],
    );
    let maxqi = format!("xboard:{}", peer("maxqi", "fairymax"));
    smoke("xiangqi", &ourselves("xboard"), &maxqi, &[]);
}

#[test]
fn xboard_against_hachu_in_chu_shogi() {
    let hachu = format!("xboard:{}", peer("hachu", "hachu"));
    smoke("chushogi", "chaturanga", &hachu, &[]);
}

#[test]
fn usi_and_gnu_shogi() {
    let gnushogi = format!("gnushogi,depth=2:{}", peer("gnushogi", "gnushogi"));
    // Our USI server driven by the runner, against GNU Shogi (Debian has no USI engine).
    smoke("shogi", &ourselves("usi"), &gnushogi, &[]);
}

/// A node budget (`uci,nodes=N`) reaches the engine as `go nodes N`, instead of the clock.
/// Our UCI server behind a script that keeps a copy of what the runner sends.
#[test]
fn a_node_budget_is_sent_as_go_nodes() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("chaturanga-nodes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("sent.txt");
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntee -a '{}' | '{}' uci\n",
            log.display(),
            env!("CARGO_BIN_EXE_chaturanga")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    smoke(
        "chess",
        "chaturanga",
        &format!("uci,nodes=300:{}", script.display()),
        &["--max-plies", "6"],
    );
    let sent = std::fs::read_to_string(&log).unwrap();
    let goes: Vec<&str> = sent.lines().filter(|l| l.starts_with("go")).collect();
    assert!(!goes.is_empty(), "{sent}");
    assert!(goes.iter().all(|l| *l == "go nodes 300"), "{sent}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// In the shogi family the runner speaks UCI in Fairy-Stockfish's dialect (`c3c4`, its FEN),
/// and so does our UCI server: a match between them runs clean.
#[test]
fn uci_in_the_shogi_family_is_fairy_stockfish_dialect() {
    smoke(
        "minishogi",
        &ourselves("uci"),
        "chaturanga",
        &["--max-plies", "20"],
    );
}

/// An engine whose moves are legal only in another notation (USI's `7g7f` over UCI, as our
/// UCI wrote shogi once) is a setup error of the match, not the engine's illegal move.
#[test]
fn a_notation_mismatch_is_a_setup_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("chaturanga-dialect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n\
         uci) echo 'id name usi-speaker'; echo uciok;;\n\
         isready) echo readyok;;\n\
         go*) echo 'bestmove 7g7f';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_chaturanga"))
        .args([
            "match",
            "shogi",
            "--first",
            &format!("uci:{}", script.display()),
            "--second",
            "chaturanga:nodes=1000",
            "--games",
            "2",
            "--tc",
            "st=0.1",
        ])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stderr.contains("setup error") && stderr.contains("notation mismatch"),
        "{stderr}\n{stdout}"
    );
    assert!(!stdout.contains("rules infraction"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two builds of one engine name themselves alike; the match tells them apart (the second
/// is `(2)`), in its progress lines and in its records.
#[test]
fn engines_of_one_name_are_told_apart() {
    let dir = std::env::temp_dir().join(format!("chaturanga-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let stdout = smoke(
        "chess",
        &ourselves("uci"),
        &ourselves("uci"),
        &["--pgn", pgn.to_str().unwrap()],
    );
    let name = format!("Chaturanga {}", env!("CARGO_PKG_VERSION"));
    assert!(
        stdout.contains(&format!("match: {name} vs {name} (2) in chess")),
        "{stdout}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert!(games.contains(&format!("\"{name} (2)\"")), "{games}");
    assert!(games.contains(&format!("\"{name}\"")), "{games}");
    std::fs::remove_dir_all(&dir).ok();
}
