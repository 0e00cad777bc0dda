//! Writes the seed corpora (`chaturanga_fuzz::seeds`) into a folder per target:
//! `fuzz-seeds [DIR]`, `fuzz/corpus` by default, run from the repository's root.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/corpus".into()),
    );
    let perft = PathBuf::from("crates/variants/tests/perft");
    if !perft.is_dir() {
        eprintln!(
            "fuzz-seeds: run from the repository's root (no {})",
            perft.display()
        );
        return ExitCode::FAILURE;
    }
    match chaturanga_fuzz::seeds::write_all(&perft, &dir) {
        Ok(n) => {
            println!("{n} seeds in {}", dir.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fuzz-seeds: {}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}
