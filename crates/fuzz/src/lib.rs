//! The fuzz targets' checks, as plain functions of bytes, so that the coverage-guided
//! fuzzer (`fuzz/`, cargo-fuzz on nightly) and the stable test suite (which replays the seed
//! corpora and every minimized crasher, `tests/corpus.rs`) run the same code.
//!
//! A target answers whether the input was accepted (and so checked), returns `false` for
//! input it refuses or finds uninteresting, and panics when something that must hold does
//! not: a panic inside the code under test, or a broken
//! invariant. The input formats are in [`case`]; `docs/reliability.md` has the targets, how
//! to run them and what they found.

pub mod case;
pub mod checks;
pub mod seeds;

use case::Case;
use chaturanga_notation::{bpgn, csa, kif, pgn, san};
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset, Status};
use chaturanga_variants::{VariantInfo, Visitor, visit};

/// A target: whether the input was accepted; a panic when something that must hold does not.
pub type Target = fn(&[u8]) -> bool;

/// The targets by name, as `fuzz/fuzz_targets/<name>.rs` and the corpus folders name them.
pub const TARGETS: &[(&str, Target)] = &[
    ("fen", fen),
    ("rules", rules),
    ("moves", moves),
    ("records", records),
    ("options", options),
];

/// The longest playout a `rules` input makes, so that one input stays fast.
const MAX_PLIES: usize = 48;

/// A ruleset's FEN reader: a FEN it accepts is a working position (every check of
/// [`checks::position`]) that it writes back and reads to the same position and hash.
pub fn fen(data: &[u8]) -> bool {
    struct Fen<'a>(Case<'a>);
    impl Visitor for Fen<'_> {
        type Output = bool;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> bool {
            let Some((options, position)) = self.0.start::<P>() else {
                return false;
            };
            checks::position(&options, &position);
            true
        }
    }
    Case::parse(data).is_some_and(|case| visit(case.id, Fen(case)).unwrap_or(false))
}

/// The rules on positions the fuzzer builds: from the case's position, each byte after the
/// position line picks a legal move, and every position on the way keeps every invariant.
pub fn rules(data: &[u8]) -> bool {
    struct Rules<'a>(Case<'a>);
    impl Visitor for Rules<'_> {
        type Output = bool;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> bool {
            let Some((options, position)) = self.0.start::<P>() else {
                return false;
            };
            checks::playout(&options, position, self.0.rest.as_bytes(), MAX_PLIES);
            true
        }
    }
    Case::parse(data).is_some_and(|case| visit(case.id, Rules(case)).unwrap_or(false))
}

/// Every move reader: each line after the position line is read as the front ends read a
/// move (coordinates, the ruleset's own notations, SAN). A move it accepts is legal, writing
/// it in each notation reads back to the same move, and it is then played.
pub fn moves(data: &[u8]) -> bool {
    struct Moves<'a>(Case<'a>);
    impl Visitor for Moves<'_> {
        type Output = bool;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> bool {
            let Some((_, mut position)) = self.0.start::<P>() else {
                return false;
            };
            let mut read = false;
            for line in self.0.rest.lines().take(MAX_PLIES) {
                let Ok(mv) = chaturanga_session::read_move(&position, line) else {
                    continue;
                };
                let fen = position.fen();
                let mut legal = Vec::new();
                position.legal_moves(&mut legal);
                assert!(
                    legal.contains(&mv),
                    "{line:?} read as an illegal move at {fen}"
                );
                let text = position.move_text(mv);
                assert_eq!(position.parse_move(&text), Ok(mv), "{text:?} at {fen}");
                for &notation in position.notations() {
                    if let Some(written) = position.write_move(notation, mv) {
                        assert_eq!(
                            position.read_move(notation, &written),
                            Ok(mv),
                            "{notation} {written:?} does not read back at {fen}"
                        );
                    }
                }
                if let Ok(written) = san::to_san(&position, mv) {
                    assert_eq!(
                        san::parse_san(&position, &written),
                        Ok(mv),
                        "SAN {written:?} does not read back at {fen}"
                    );
                }
                position.play_unchecked(mv);
                read = true;
            }
            read
        }
    }
    Case::parse(data).is_some_and(|case| visit(case.id, Moves(case)).unwrap_or(false))
}

/// Rule options: items a ruleset accepts give a start position (or a clear refusal) that
/// keeps every invariant, and the options read back from their own listing.
pub fn options(data: &[u8]) -> bool {
    struct Options<'a>(Case<'a>);
    impl Visitor for Options<'_> {
        type Output = bool;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> bool {
            let Some(options) = self.0.rule_options::<P>() else {
                return false;
            };
            let listed: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
            assert_eq!(
                RuleOptions::parse(P::option_specs(), &listed).as_ref(),
                Ok(&options),
                "options do not read back from {listed:?}"
            );
            match P::start_position(&options) {
                Ok(start) => {
                    checks::position(&options, &start);
                    true
                }
                Err(_) => false,
            }
        }
    }
    Case::parse(data).is_some_and(|case| visit(case.id, Options(case)).unwrap_or(false))
}

/// What one replayed record must keep when written and read again.
fn summary<P: Position>(game: &Game<P>) -> (String, Vec<String>, String, String) {
    let mut at = game.start().clone();
    let mut texts = Vec::new();
    for &mv in game.moves() {
        texts.push(at.move_text(mv));
        at.play_unchecked(mv);
    }
    let status = match game.status() {
        Status::Over(outcome) => outcome.to_string(),
        Status::Ongoing { .. } => "ongoing".to_string(),
    };
    (game.start().fen(), texts, game.position().fen(), status)
}

/// The record readers. The first line names the format and, but for BPGN, the ruleset and
/// its options (`pgn chess`, `kif shogi`, `csa minishogi`, `bpgn`); the rest is the record.
/// A record that is accepted replays; writing the game and reading it back gives the same
/// start, moves, final position and result.
pub fn records(data: &[u8]) -> bool {
    struct Records<'a> {
        format: &'a str,
        options: Vec<&'a str>,
        text: &'a str,
    }
    impl Visitor for Records<'_> {
        type Output = bool;
        fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> bool {
            let Ok(options) = RuleOptions::parse(P::option_specs(), &self.options) else {
                return false;
            };
            let games: Vec<Game<P>> = match self.format {
                "pgn" => match pgn::parse(self.text) {
                    Ok(parsed) => parsed
                        .iter()
                        .filter_map(|g| pgn::replay::<P>(g, &options).ok())
                        .collect(),
                    Err(_) => return false,
                },
                "kif" | "csa" => {
                    let parsed = if self.format == "kif" {
                        kif::parse(self.text)
                    } else {
                        csa::parse(self.text)
                    };
                    let Ok(parsed) = parsed else { return false };
                    parsed
                        .iter()
                        .filter_map(|g| {
                            if self.format == "kif" {
                                kif::replay::<P>(g, &options).ok()
                            } else {
                                csa::replay::<P>(g, &options).ok()
                            }
                        })
                        .collect()
                }
                _ => return false,
            };
            let accepted = !games.is_empty();
            for game in games {
                let before = summary(&game);
                let (written, again) = match self.format {
                    "pgn" => {
                        let tags = pgn::Tags::for_game(info.id, &game);
                        let text = pgn::write(&game, &tags)
                            .unwrap_or_else(|e| panic!("a replayed game is not written: {e}"));
                        let parsed = pgn::parse(&text)
                            .unwrap_or_else(|e| panic!("our PGN {text:?} is refused: {e}"));
                        let again = pgn::replay::<P>(&parsed[0], &options)
                            .unwrap_or_else(|e| panic!("our PGN {text:?} does not replay: {e}"));
                        (text, again)
                    }
                    "kif" => {
                        let Ok(text) = kif::write(&game, &Default::default()) else {
                            continue;
                        };
                        let parsed = kif::parse(&text)
                            .unwrap_or_else(|e| panic!("our KIF {text:?} is refused: {e}"));
                        let again = kif::replay::<P>(&parsed[0], &options)
                            .unwrap_or_else(|e| panic!("our KIF {text:?} does not replay: {e}"));
                        (text, again)
                    }
                    _ => {
                        let Ok(text) = csa::write(&game, &Default::default()) else {
                            continue;
                        };
                        let parsed = csa::parse(&text)
                            .unwrap_or_else(|e| panic!("our CSA {text:?} is refused: {e}"));
                        let again = csa::replay::<P>(&parsed[0], &options)
                            .unwrap_or_else(|e| panic!("our CSA {text:?} does not replay: {e}"));
                        (text, again)
                    }
                };
                assert_eq!(
                    summary(&again),
                    before,
                    "the written record {written:?} replays to another game"
                );
            }
            accepted
        }
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    if data.len() > case::MAX_INPUT {
        return false;
    }
    let (header, record) = text.split_once('\n').unwrap_or((text, ""));
    let mut words = header.split_whitespace();
    let Some(format) = words.next() else {
        return false;
    };
    if format == "bpgn" {
        let Ok(games) = bpgn::read(record) else {
            return false;
        };
        {
            for game in games {
                let text = game
                    .write()
                    .unwrap_or_else(|e| panic!("a replayed BPGN is not written: {e}"));
                let again = bpgn::read(&text)
                    .unwrap_or_else(|e| panic!("our BPGN {text:?} is refused: {e}"));
                assert_eq!(again.len(), 1, "{text:?}");
                assert_eq!(
                    again[0].moves, game.moves,
                    "{text:?} replays to other moves"
                );
                assert_eq!(again[0].position.fen(), game.position.fen(), "{text:?}");
                assert_eq!(again[0].write().ok(), Some(text.clone()), "{text:?}");
            }
        }
        return true;
    }
    let Some(id) = words.next() else {
        return false;
    };
    visit(
        id,
        Records {
            format,
            options: words.collect(),
            text: record,
        },
    )
    .unwrap_or(false)
}
