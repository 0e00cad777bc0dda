//! The text every multi-ruleset target reads: a header naming the ruleset and its options,
//! then the position, then what the target does with it.
//!
//! ```text
//! chess fide-claims=on          <- ruleset id, then rule options
//! -                             <- a FEN, or "-" for the start position
//! e2e4                          <- the rest: the target's own
//! ```
//!
//! The ids are plain words, so the fuzzer learns them from the seeds; an input naming no
//! ruleset is simply not interesting.

use chaturanga_rules::{RuleOptions, Ruleset};

/// Inputs longer than this are skipped: every reader caps its input well below, and long
/// inputs only slow the fuzzer down.
pub const MAX_INPUT: usize = 64 * 1024;

/// A parsed input: the ruleset, its option items, the position line and the rest.
pub struct Case<'a> {
    /// The ruleset id.
    pub id: &'a str,
    /// `name=value` items.
    pub options: Vec<&'a str>,
    /// The FEN line (`-`: the start position).
    pub position: &'a str,
    /// Everything after the position line.
    pub rest: &'a str,
}

impl<'a> Case<'a> {
    /// Splits `data`; `None` when it is not UTF-8 or has no header.
    pub fn parse(data: &'a [u8]) -> Option<Case<'a>> {
        if data.len() > MAX_INPUT {
            return None;
        }
        let text = std::str::from_utf8(data).ok()?;
        let (header, body) = text.split_once('\n').unwrap_or((text, ""));
        let (position, rest) = body.split_once('\n').unwrap_or((body, ""));
        let mut words = header.split_whitespace();
        let id = words.next()?;
        Some(Case {
            id,
            options: words.collect(),
            position: position.trim_end_matches('\r'),
            rest,
        })
    }

    /// The options read against `P`'s list, when they are valid.
    pub fn rule_options<P: Ruleset>(&self) -> Option<RuleOptions> {
        RuleOptions::parse(P::option_specs(), &self.options).ok()
    }

    /// The position the case names, when the options and the FEN are accepted.
    pub fn start<P: Ruleset>(&self) -> Option<(RuleOptions, P)> {
        let options = self.rule_options::<P>()?;
        let position = if self.position.trim() == "-" {
            P::start_position(&options).ok()?
        } else {
            P::from_fen_with(&options, self.position).ok()?
        };
        Some((options, position))
    }
}

/// Writes a case in the format [`Case::parse`] reads.
pub fn write(id: &str, options: &[String], position: Option<&str>, rest: &str) -> String {
    let mut header = id.to_string();
    for item in options {
        header.push(' ');
        header.push_str(item);
    }
    format!("{header}\n{}\n{rest}", position.unwrap_or("-"))
}
