//! Runs a Python client of our binary from `tests/oracles/` (python-chess, cshogi) and reads
//! the lines it prints.

use std::process::Command;

/// Runs `tests/oracles/<script>` with our binary's path and `args` under `CHATURANGA_PYTHON`
/// (or `python3`); fails naming `install` unless it succeeds. Returns its standard output.
pub(crate) fn run(script: &str, args: &[&str], install: &str) -> String {
    let python = std::env::var("CHATURANGA_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let path = format!(
        "{}/../../tests/oracles/{script}",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = Command::new(&python)
        .arg(&path)
        .arg(env!("CARGO_BIN_EXE_chaturanga"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}; install Python 3 and {install}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{script} failed ({install}):\n{stderr}\n{stdout}"
    );
    // The name the client read from our answer to its first line: the protocol was chosen.
    assert!(
        stdout.lines().any(|l| l.starts_with("name\tChaturanga ")),
        "{stdout}"
    );
    stdout
}

/// The `game\t...` lines of a client's output, split at tabs.
pub(crate) fn games(stdout: &str) -> Vec<Vec<&str>> {
    stdout
        .lines()
        .filter(|l| l.starts_with("game\t"))
        .map(|l| l.split('\t').collect())
        .collect()
}
