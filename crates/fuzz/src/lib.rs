//! The fuzz targets' checks, as plain functions of bytes, so that the coverage-guided
//! fuzzer (`fuzz/`, cargo-fuzz on nightly) and the stable test suite (which replays the seed
//! corpora and every minimized crasher, `tests/corpus.rs`) run the same code.
//!
//! A target answers whether the input was accepted (and so checked): `false` for input it
//! refuses or finds uninteresting. It panics when something that must hold does not: a panic
//! inside the code under test, or a broken invariant. The input formats are in [`case`].

pub mod case;
pub mod checks;
pub mod protocol;
pub mod seeds;
pub mod server;

use case::Case;
use chaturanga_notation::{csa, kif, pgn, san};
use chaturanga_rules::{Game, Position, RuleOptions, Ruleset, Status};
use chaturanga_variants::bughouse::bpgn;
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
    ("protocol", protocol::protocol),
    ("server", server::server),
];

/// The longest playout a `rules` input makes, so that one input stays fast.
const MAX_PLIES: usize = 48;

/// A check of one [`Case`] on the ruleset it names.
trait Check {
    /// Checks `case` with `P` its ruleset; whether the case was accepted.
    fn check<P: Ruleset>(case: &Case<'_>) -> bool;
}

/// Reads `data` as a [`Case`] and runs `C` on the ruleset it names.
fn run<C: Check>(data: &[u8]) -> bool {
    struct Run<'a, C>(Case<'a>, std::marker::PhantomData<C>);
    impl<C: Check> Visitor for Run<'_, C> {
        type Output = bool;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> bool {
            C::check::<P>(&self.0)
        }
    }
    Case::parse(data).is_some_and(|case| {
        visit(case.id, Run::<C>(case, std::marker::PhantomData)).unwrap_or(false)
    })
}

/// A ruleset's FEN reader: a FEN it accepts is a working position (every check of
/// [`checks::position`]) that it writes back and reads to the same position and hash.
pub fn fen(data: &[u8]) -> bool {
    struct Fen;
    impl Check for Fen {
        fn check<P: Ruleset>(case: &Case<'_>) -> bool {
            let Some((options, position)) = case.start::<P>() else {
                return false;
            };
            checks::position(&options, &position);
            true
        }
    }
    run::<Fen>(data)
}

/// The rules on positions the fuzzer builds: from the case's position, each byte after the
/// position line picks a legal move, and every position on the way keeps every invariant.
pub fn rules(data: &[u8]) -> bool {
    struct Rules;
    impl Check for Rules {
        fn check<P: Ruleset>(case: &Case<'_>) -> bool {
            let Some((options, position)) = case.start::<P>() else {
                return false;
            };
            checks::playout(&options, position, case.rest.as_bytes(), MAX_PLIES);
            true
        }
    }
    run::<Rules>(data)
}

/// Every move reader: each line after the position line is read as the front ends read a
/// move (coordinates, the ruleset's own notations, SAN). A move it accepts is legal, writing
/// it in each notation reads back to the same move, and it is then played.
pub fn moves(data: &[u8]) -> bool {
    struct Moves;
    impl Check for Moves {
        fn check<P: Ruleset>(case: &Case<'_>) -> bool {
            let Some((_, mut position)) = case.start::<P>() else {
                return false;
            };
            let mut read = false;
            for line in case.rest.lines().take(MAX_PLIES) {
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
    run::<Moves>(data)
}

/// Rule options: items a ruleset accepts give a start position (or a clear refusal) that
/// keeps every invariant, and the options read back from their own listing.
pub fn options(data: &[u8]) -> bool {
    struct Options;
    impl Check for Options {
        fn check<P: Ruleset>(case: &Case<'_>) -> bool {
            let Some(options) = case.rule_options::<P>() else {
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
    run::<Options>(data)
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
            let Ok(games) = read_record::<P>(self.format, self.text, &options) else {
                return false;
            };
            let games: Vec<Game<P>> = games.into_iter().filter_map(Result::ok).collect();
            for game in &games {
                let before = summary(game);
                let Some(written) = write_record(self.format, info.id, game) else {
                    // KIF and CSA write only the rulesets they have notations for; PGN all.
                    assert_ne!(self.format, "pgn", "a replayed game is not written as PGN");
                    continue;
                };
                let again = read_record::<P>(self.format, &written, &options)
                    .unwrap_or_else(|e| panic!("our record {written:?} is refused: {e}"));
                match again.as_slice() {
                    [Ok(again)] => assert_eq!(
                        summary(again),
                        before,
                        "the written record {written:?} replays to another game"
                    ),
                    [Err(e)] => panic!("our record {written:?} does not replay: {e}"),
                    other => panic!("our record {written:?} holds {} games", other.len()),
                }
            }
            !games.is_empty()
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
        for game in &games {
            let text = game
                .write()
                .unwrap_or_else(|e| panic!("a replayed BPGN is not written: {e}"));
            let again =
                bpgn::read(&text).unwrap_or_else(|e| panic!("our BPGN {text:?} is refused: {e}"));
            assert_eq!(again.len(), 1, "{text:?}");
            assert_eq!(
                again[0].moves, game.moves,
                "{text:?} replays to other moves"
            );
            assert_eq!(again[0].position.fen(), game.position.fen(), "{text:?}");
            assert_eq!(again[0].write().ok(), Some(text.clone()), "{text:?}");
        }
        return !games.is_empty();
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

/// The games of a record in `format` (`pgn`, `kif`, `csa`), each replayed or why not; an
/// error when the text is not such a record at all.
fn read_record<P: Ruleset>(
    format: &str,
    text: &str,
    options: &RuleOptions,
) -> Result<Vec<Result<Game<P>, String>>, String> {
    Ok(match format {
        "pgn" => pgn::parse(text)
            .map_err(|e| e.to_string())?
            .iter()
            .map(|g| pgn::replay::<P>(g, options).map_err(|e| e.to_string()))
            .collect(),
        "kif" => kif::parse(text)
            .map_err(|e| e.to_string())?
            .iter()
            .map(|g| kif::replay::<P>(g, options).map_err(|e| e.to_string()))
            .collect(),
        "csa" => csa::parse(text)
            .map_err(|e| e.to_string())?
            .iter()
            .map(|g| csa::replay::<P>(g, options).map_err(|e| e.to_string()))
            .collect(),
        other => return Err(format!("no record format {other:?}")),
    })
}

/// A game written in `format`, where the format can write its ruleset.
fn write_record<P: Ruleset>(format: &str, id: &str, game: &Game<P>) -> Option<String> {
    match format {
        "pgn" => pgn::write(game, &pgn::Tags::for_game(id, game)).ok(),
        "kif" => kif::write(game, &Default::default()).ok(),
        _ => csa::write(game, &Default::default()).ok(),
    }
}
