//! The smoke run of every fuzz target, on the stable toolchain: for a few seconds per target,
//! inputs mutated from the seed corpus (bytes flipped, inserted and cut, lines spliced from
//! other seeds, hostile numbers and words) go through the target. Not coverage-guided: that
//! is `scripts/fuzz` with libFuzzer on nightly; this is what CI affords in a minute or two.
//!
//! `fuzz-smoke [--seconds N] [TARGET...]`. A failing input is written to
//! `fuzz/artifacts/smoke/<target>-<n>` and the run exits non-zero; so does an input that
//! takes over a minute.

use chaturanga_fuzz::{TARGETS, seeds};
use chaturanga_rules::zobrist::SplitMix64;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Words and numbers that reach the edges of readers.
const HOSTILE: &[&str] = &[
    "0",
    "-1",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999",
    "\u{0}",
    "\r",
    "é",
    "moves",
    "perft 2",
    "go infinite",
    "stop",
    "position startpos moves",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "$0",
    "@0",
    "=",
    "+",
    "*",
];

/// Longest time one input may take before the run calls it a hang.
const HANG: Duration = Duration::from_secs(60);

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn pick<'a, T>(rng: &mut SplitMix64, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

/// One mutation of `data`, with `other` a seed of the same target to splice from.
fn mutate(rng: &mut SplitMix64, data: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    for _ in 0..=(rng.next_u64() % 4) {
        let at = if out.is_empty() {
            0
        } else {
            (rng.next_u64() % out.len() as u64) as usize
        };
        match rng.next_u64() % 6 {
            0 if !out.is_empty() => out[at] ^= 1 << (rng.next_u64() % 8),
            1 => out.insert(at, rng.next_u64() as u8),
            2 if !out.is_empty() => {
                let end = (at + 1 + (rng.next_u64() % 16) as usize).min(out.len());
                out.drain(at..end);
            }
            3 => {
                let word = *pick(rng, HOSTILE);
                out.splice(at..at, word.bytes());
            }
            4 => {
                let lines: Vec<&[u8]> = other.split(|&b| b == b'\n').collect();
                let mut spliced = pick(rng, &lines).to_vec();
                spliced.push(b'\n');
                let at = out[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                out.splice(at..at, spliced);
            }
            _ => {
                // Repeat a line: loops, repeated commands, long move lists.
                let start = out[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                let end = out[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(out.len(), |i| at + i + 1);
                let line = out[start..end].to_vec();
                for _ in 0..=(rng.next_u64() % 8) {
                    out.splice(end..end, line.iter().copied());
                }
            }
        }
    }
    out
}

fn main() {
    let mut seconds = 10u64;
    let mut wanted: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => match args.next().and_then(|s| s.parse().ok()) {
                Some(n) => seconds = n,
                None => {
                    eprintln!("error: --seconds needs a number");
                    std::process::exit(2);
                }
            },
            name if TARGETS.iter().any(|(n, _)| *n == name) => wanted.push(name.to_string()),
            other => {
                eprintln!("error: unknown argument {other:?}");
                std::process::exit(2);
            }
        }
    }
    let seeds = seeds::all(&workspace().join("crates/variants/tests/perft"));
    let artifacts = workspace().join("fuzz/artifacts/smoke");
    let mut failed = false;
    for &(name, target) in TARGETS {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == name) {
            continue;
        }
        let corpus: Vec<&[u8]> = seeds
            .iter()
            .filter(|s| s.target == name)
            .map(|s| s.data.as_slice())
            .collect();
        let mut rng = SplitMix64::new(0x5_0CE ^ name.len() as u64);
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let (mut runs, mut accepted) = (0u64, 0u64);
        while Instant::now() < deadline && !corpus.is_empty() {
            let first = *pick(&mut rng, &corpus);
            let other = *pick(&mut rng, &corpus);
            let input = mutate(&mut rng, first, other);
            let (done, finished) = mpsc::channel();
            let data = input.clone();
            std::thread::spawn(move || {
                let outcome = std::panic::catch_unwind(|| target(&data));
                let _ = done.send(outcome);
            });
            let verdict = match finished.recv_timeout(HANG) {
                Ok(Ok(was_accepted)) => {
                    accepted += u64::from(was_accepted);
                    None
                }
                Ok(Err(_)) => Some("fails"),
                Err(_) => Some("hangs"),
            };
            runs += 1;
            if let Some(verdict) = verdict {
                let path = artifacts.join(format!("{name}-{runs}"));
                let saved = std::fs::create_dir_all(&artifacts)
                    .and_then(|()| std::fs::write(&path, &input));
                eprintln!("{name}: an input {verdict}: {} ({saved:?})", path.display());
                failed = true;
                if verdict == "hangs" {
                    std::process::exit(1);
                }
                break;
            }
        }
        println!("{name}: {runs} inputs in {seconds} s, {accepted} accepted");
    }
    if failed {
        std::process::exit(1);
    }
}
