//! The `chaturanga` command: tools for the catalogue's rulesets.
//!
//! `cli` declares the command line (clap), `commands` runs the tools, `play` the engine in the
//! terminal; the protocols, the match runner and the server are crates of their own, which
//! the commands call.

mod cli;
mod commands;
mod error;
mod play;
mod reader;
mod records;
mod screen;
mod tune;

use std::process::ExitCode;

fn main() -> ExitCode {
    // A bug must never show a backtrace to a user: one line, then a failing exit code.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".to_string());
        // Where it happened helps a bug report and tells a user nothing secret.
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "error: internal error: {}{place}",
            message.lines().next().unwrap_or("")
        );
    }));
    let argv: Vec<String> = std::env::args().skip(1).collect();
    // A GUI given only the executable starts it with no arguments and a pipe: its first
    // line says which protocol it speaks.
    // Input that ends before any line is no GUI: the usage error below says what to do.
    if argv.is_empty() && !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        match std::panic::catch_unwind(chaturanga_protocol::serve_detected) {
            Ok(true) => return ExitCode::SUCCESS,
            Ok(false) => {}
            Err(_) => return ExitCode::from(101),
        }
    }
    let outcome = std::panic::catch_unwind(|| match cli::parse(&argv)? {
        Some(command) => commands::run(command, &mut std::io::stdout()),
        None => Ok(()),
    });
    match outcome {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
        Err(_) => ExitCode::from(101),
    }
}
