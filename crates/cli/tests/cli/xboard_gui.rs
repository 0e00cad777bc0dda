//! Real XBoard (Debian's `xboard`, 4.9) on a virtual X server (Debian's `xvfb`), with our
//! engine as both players: one short game in every variant our XBoard front end offers in
//! `feature variants`, as a user would start it (`xboard -fcp … -scp … -variant V`).
//!
//! Where we tell XBoard the whole rules (its own variants, and `setup`/`piece` descriptions
//! without `# ...` remarks) XBoard tests legality, adjudicates mates and checks the engines'
//! result claims; elsewhere (what XBoard cannot be told, such as Omega's castling) legality
//! testing is off and the engines' claims stand, so the game still checks the board, the
//! piece letters and the coordinates of every move. A game fails on any forfeit, illegal
//! move, refused position or false claim in XBoard's debug log, and on a result other than a
//! win, loss or draw that the rules or XBoard's adjudication gave.
//!
//! XBoard and Xvfb are required: a missing one fails the test with the packages to install
//! (`.ci/run` installs them).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Full moves after which XBoard adjudicates a draw, which keeps each game to seconds.
const MOVES: &str = "40";
/// The engines' search depth (XBoard's `-depth`, our `sd`): quick moves whatever the clock.
const DEPTH: &str = "4";
/// Games played at once (two cores; each game has one engine thinking at a time).
const PARALLEL: usize = 2;
/// Longest a game may take before it is killed and failed.
const GAME_LIMIT: Duration = Duration::from_secs(120);
/// Words in XBoard's debug log that mean something went wrong.
const BAD_WORDS: &[&str] = &[
    "forfeit",
    "illegal",
    "invalid",
    "false win claim",
    "false draw claim",
    "false claim",
    "error (",
    "tellusererror",
    "bad fen",
];
/// Words in the PGN's final comment that mean the game did not end by its rules or by
/// XBoard's adjudication.
const BAD_ENDINGS: &[&str] = &[
    "forfeit",
    "illegal",
    "invalid",
    "false",
    "crash",
    "abort",
    "exit",
    "disconnect",
    "on time",
    "unfinished",
];

/// A program from `/usr/games`, `/usr/bin` or the `PATH`, or a failure naming its package.
fn required(name: &str, package: &str) -> PathBuf {
    for dir in ["/usr/games", "/usr/bin"] {
        let path = Path::new(dir).join(name);
        if path.exists() {
            return path;
        }
    }
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .expect("sh runs");
    let path = String::from_utf8_lossy(&found.stdout).trim().to_string();
    assert!(
        !path.is_empty(),
        "{name} is missing: install the Debian package {package} \
         (apt-get install -y --no-install-recommends xboard xvfb; .ci/run does)"
    );
    PathBuf::from(path)
}

/// A virtual X server on a free display, stopped when dropped.
struct VirtualDisplay {
    server: Child,
    display: String,
}

impl VirtualDisplay {
    fn start() -> VirtualDisplay {
        let xvfb = required("Xvfb", "xvfb");
        // `-displayfd`: the server picks a free display and writes its number.
        let mut server = Command::new(xvfb)
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x1024x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut number = String::new();
        BufReader::new(server.stdout.take().expect("stdout"))
            .read_line(&mut number)
            .expect("Xvfb names its display");
        let number = number.trim().to_string();
        assert!(
            !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()),
            "Xvfb did not name a display: {number:?}"
        );
        VirtualDisplay {
            server,
            display: format!(":{number}"),
        }
    }
}

impl Drop for VirtualDisplay {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// A variant as the engine offers it: its name and whether its description is exact.
struct Offered {
    name: String,
    exact: bool,
}

/// The variants our engine offers XBoard, and for each whether XBoard can be told the whole
/// rules (no `# ...` remark after `variant NAME`).
fn offered() -> Vec<Offered> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaturanga"))
        .arg("xboard")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin");
    writeln!(input, "xboard\nprotover 2\nping 0").expect("written");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut names = Vec::new();
    for line in lines.by_ref() {
        let line = line.expect("read");
        if let Some(list) = line.split("variants=\"").nth(1) {
            names = list
                .split('"')
                .next()
                .unwrap_or("")
                .split(',')
                .map(str::to_string)
                .collect();
        }
        if line == "pong 0" {
            break;
        }
    }
    assert!(!names.is_empty(), "no variants offered");
    let mut out = Vec::new();
    for (i, name) in names.iter().enumerate() {
        writeln!(input, "variant {name}\nping {}", i + 1).expect("written");
        let mut exact = true;
        for line in lines.by_ref() {
            let line = line.expect("read");
            exact &= !line.starts_with("# ");
            if line == format!("pong {}", i + 1) {
                break;
            }
        }
        out.push(Offered {
            name: name.clone(),
            exact,
        });
    }
    writeln!(input, "quit").expect("written");
    let _ = child.wait();
    out
}

/// XBoard's arguments choosing `name`: a sized name (`5x5+5_shogi`) is its parent with the
/// board size and holdings given, as XBoard's own menu does.
fn variant_args(name: &str) -> Vec<String> {
    let sized = name.split_once('_').and_then(|(size, parent)| {
        let (files, rest) = size.split_once('x')?;
        let (ranks, holdings) = rest.split_once('+')?;
        Some((files, ranks, holdings, parent))
    });
    match sized {
        Some((files, ranks, holdings, parent)) => [
            "-variant",
            parent,
            "-boardWidth",
            files,
            "-boardHeight",
            ranks,
            "-holdingsSize",
            holdings,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        None => vec!["-variant".to_string(), name.to_string()],
    }
}

/// Plays one game in XBoard and returns what is wrong with it, if anything.
fn play(xboard: &Path, display: &str, dir: &Path, variant: &Offered) -> Result<String, String> {
    let home = dir.join(variant.name.replace('+', "_"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).expect("a directory for the game");
    let log = home.join("debug.log");
    let pgn = home.join("game.pgn");
    let engine = format!("{} xboard", env!("CARGO_BIN_EXE_chaturanga"));
    let mut args: Vec<String> = variant_args(&variant.name);
    let legality = if variant.exact { "true" } else { "false" };
    for (flag, value) in [
        ("-fcp", engine.as_str()),
        ("-scp", engine.as_str()),
        ("-matchGames", "1"),
        ("-tc", "5"),
        ("-inc", "0"),
        ("-depth", DEPTH),
        ("-adjudicateDrawMoves", MOVES),
        ("-testLegality", legality),
        ("-testClaims", legality),
        ("-checkMates", legality),
        ("-nameOfDebugFile", log.to_str().expect("path")),
        ("-saveGameFile", pgn.to_str().expect("path")),
        (
            "-settingsFile",
            home.join("xboard.ini").to_str().expect("path"),
        ),
        ("-saveSettingsOnExit", "false"),
        ("-animateMoving", "false"),
        ("-ponderNextMove", "false"),
        ("-popupExitMessage", "false"),
    ] {
        args.push(flag.to_string());
        args.push(value.to_string());
    }
    args.push("-debug".to_string());
    let mut child = Command::new(xboard)
        .args(&args)
        .env("DISPLAY", display)
        .env("HOME", &home)
        .current_dir(&home)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("xboard does not start: {e}"))?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if started.elapsed() > GAME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "no result in {GAME_LIMIT:?}; log {}",
                log.display()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let debug = std::fs::read(&log).unwrap_or_default();
    let debug = String::from_utf8_lossy(&debug);
    let bad: Vec<&str> = debug
        .lines()
        .filter(|line| {
            let lower = line.to_ascii_lowercase();
            BAD_WORDS.iter().any(|w| lower.contains(w))
        })
        .take(5)
        .collect();
    let game = std::fs::read_to_string(&pgn).unwrap_or_default();
    let result = game
        .lines()
        .find_map(|l| l.strip_prefix("[Result \""))
        .and_then(|r| r.strip_suffix("\"]"))
        .unwrap_or("")
        .to_string();
    // The game's last comment: how it ended.
    let ending = game
        .rfind('{')
        .map(|at| game[at..].lines().collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    let plies = debug.matches(": usermove ").count();
    let mut wrong = Vec::new();
    if !status.success() {
        wrong.push(format!("xboard exited with {status}"));
    }
    if !bad.is_empty() {
        wrong.push(format!("the log says:\n  {}", bad.join("\n  ")));
    }
    if !["1-0", "0-1", "1/2-1/2"].contains(&result.as_str()) {
        wrong.push(format!("result {result:?}"));
    }
    let lower = ending.to_ascii_lowercase();
    if BAD_ENDINGS.iter().any(|w| lower.contains(w)) {
        wrong.push(format!("the game ended: {ending}"));
    }
    let summary = format!(
        "{:<16} legality {:<5} {:>3} plies {:>5.1}s {result} {ending}",
        variant.name,
        variant.exact,
        plies,
        started.elapsed().as_secs_f64()
    );
    if wrong.is_empty() {
        Ok(summary)
    } else {
        Err(format!(
            "{summary}\n  {}\n  (debug log {}, game {})",
            wrong.join("\n  "),
            log.display(),
            pgn.display()
        ))
    }
}

#[test]
fn xboard_plays_every_offered_variant_with_our_engine_on_both_sides() {
    let xboard = required("xboard", "xboard");
    let display = VirtualDisplay::start();
    let variants = offered();
    // XBoard's own variants that we play are among them.
    for own in [
        "normal",
        "capablanca",
        "shogi",
        "xiangqi",
        "grand",
        "chu",
        "giveaway",
    ] {
        assert!(
            variants.iter().any(|v| v.name == own && v.exact),
            "{own} is not offered with its whole rules"
        );
    }
    let dir = std::env::temp_dir().join(format!("chaturanga-xboard-gui-{}", std::process::id()));
    let queue = Arc::new(Mutex::new(variants));
    let reports = Arc::new(Mutex::new(Vec::new()));
    let workers: Vec<_> = (0..PARALLEL)
        .map(|_| {
            let queue = queue.clone();
            let reports = reports.clone();
            let xboard = xboard.clone();
            let display = display.display.clone();
            let dir = dir.clone();
            std::thread::spawn(move || {
                loop {
                    let next = queue.lock().expect("queue").pop();
                    let Some(variant) = next else { break };
                    let report = play(&xboard, &display, &dir, &variant);
                    reports.lock().expect("reports").push(report);
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().expect("a worker");
    }
    let reports = reports.lock().expect("reports");
    let failures: Vec<&String> = reports.iter().filter_map(|r| r.as_ref().err()).collect();
    let passes: Vec<&String> = reports.iter().filter_map(|r| r.as_ref().ok()).collect();
    assert!(
        failures.is_empty(),
        "{} of {} XBoard games failed:\n{}\npassed:\n{}",
        failures.len(),
        reports.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        passes
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The games, for `--nocapture`.
    for pass in passes {
        eprintln!("{pass}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
