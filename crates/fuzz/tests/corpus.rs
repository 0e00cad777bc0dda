//! Every fuzz target over its seed corpus and every minimized crasher of `fuzz/regressions`:
//! what the fuzzer once found stays fixed, and every seed the fuzzer starts from passes.
//! Runs on the stable toolchain, in the ordinary test suite.

use chaturanga_fuzz::{TARGETS, seeds};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn target(name: &str) -> chaturanga_fuzz::Target {
    TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no target {name}"))
        .1
}

#[test]
fn every_seed_passes_its_target() {
    let seeds = seeds::all(&workspace().join("crates/variants/tests/perft"));
    for (name, _) in TARGETS {
        let count = seeds.iter().filter(|s| s.target == *name).count();
        assert!(count >= 29, "only {count} seeds for {name}");
    }
    for seed in &seeds {
        let run = target(seed.target);
        let outcome = std::panic::catch_unwind(|| run(&seed.data));
        assert!(
            matches!(outcome, Ok(true)),
            "{} seed {} is refused or fails: {}",
            seed.target,
            seed.name,
            String::from_utf8_lossy(&seed.data)
        );
    }
}

#[test]
fn every_minimized_crasher_stays_fixed() {
    let dir = workspace().join("fuzz/regressions");
    let mut checked = 0;
    for (name, run) in TARGETS {
        let Ok(entries) = std::fs::read_dir(dir.join(name)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            // Some crashers were hangs: one that hangs again fails here, not the whole run.
            let (done, finished) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let outcome = std::panic::catch_unwind(|| run(&data));
                let _ = done.send(outcome.is_ok());
            });
            match finished.recv_timeout(Duration::from_secs(60)) {
                Ok(passed) => assert!(passed, "{} fails again", path.display()),
                Err(_) => panic!("{} hangs again (over 60 s)", path.display()),
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no crashers under {}", dir.display());
}

#[test]
fn fixture_positions_keep_their_options() {
    let text = "id a\nepd 8/8 w - - 0 1\noptions x=1 y=2\nperft 1 3\n# c\nid b\nsfen 9/9 b - 1\n";
    let found = seeds::fixture_positions(text);
    assert_eq!(
        found,
        vec![
            (vec!["x=1".into(), "y=2".into()], "8/8 w - - 0 1".into()),
            (vec![], "9/9 b - 1".into()),
        ]
    );
}
