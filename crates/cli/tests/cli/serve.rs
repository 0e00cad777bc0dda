//! Starting `chaturanga serve` as the tests' server process.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// Starts a server on a free local port with the database `db` (a path or a URL), and
/// returns the process and the base URL it announces on its first line. Its limits per
/// client are generous: every client of these tests comes from one address (the public
/// site's limits have tests of their own, and `scripts/soak` replays attacks on them).
pub fn serve(db: impl AsRef<OsStr>) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaturanga"))
        .args([
            "serve",
            "--generous-limits",
            "--listen",
            "127.0.0.1:0",
            "--db",
        ])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the URL line");
    let url = line
        .trim()
        .strip_prefix("serving ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (child, url)
}
