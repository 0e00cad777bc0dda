//! Reading game records back: a record file's games (PGN, KIF, CSA, or a ruleset's own
//! format such as BPGN), each replayed as the ruleset it names, under the rule options it
//! records, and hosted as a [`Table`] (or, for a front end that already knows the ruleset, as
//! a [`Hosted`] game to play on).
//!
//! The ruleset comes from the record: PGN's `Variant` tag in any spelling other programs or
//! our older records use (none: standard chess), KIF and CSA the ruleset that has those move
//! notations, an own format the ruleset whose format it is. A result the moves do not reach
//! (a resignation, a time forfeit) ends the game as the record says.

use crate::table::{Hosted, Table};
use chaturanga_notation::files::{self, FileError, FileFormat};
use chaturanga_notation::pgn::{self, PgnError, PgnGame, Tags};
use chaturanga_notation::record::{RecordError, RecordGame};
use chaturanga_notation::{csa, kif};
use chaturanga_rules::position::excerpt;
use chaturanga_rules::{Game, OptionError, Outcome, Reason, RuleOptions, Ruleset, Status};
use chaturanga_variants::{VariantError, VariantInfo, Visitor, implemented, record_names, visit};
use std::fmt;

/// Most games read from one file.
pub const MAX_GAMES: usize = 10_000;

/// A game read from a record file.
pub struct LoadedGame {
    /// The game, hosted as its ruleset.
    pub table: Box<dyn Table>,
    /// The record's format.
    pub format: FileFormat,
    /// The record's tags (KIF and CSA: their header items under PGN's names).
    pub tags: Vec<(String, String)>,
    /// The rule options the record gives, `name=value`.
    pub options: Vec<String>,
}

/// Why a record file could not be read.
#[derive(Debug)]
pub enum LoadError {
    /// The file's bytes: too large, not text, not a record.
    File(FileError),
    /// Malformed PGN, or a move PGN's game cannot play (its ply and number in the error).
    Pgn(PgnError),
    /// Malformed KIF or CSA, or a move the game cannot play.
    Record(RecordError),
    /// A ruleset's own format refused the text.
    Own(chaturanga_rules::RecordError),
    /// The file holds no game.
    NoGame,
    /// PGN's `Variant` names a game we do not play.
    UnknownVariant(String),
    /// No ruleset has records in this format.
    NoRuleset(&'static str),
    /// The record is of another ruleset than the one asked for.
    WrongVariant {
        /// The record's ruleset.
        file: &'static str,
        /// The ruleset asked for.
        asked: &'static str,
    },
    /// The record's rule options are not the ruleset's.
    Options(OptionError),
    /// The ruleset cannot be visited.
    Variant(VariantError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::File(e) => write!(f, "{e}"),
            LoadError::Pgn(e) => write!(f, "{e}"),
            LoadError::Record(e) => write!(f, "{e}"),
            LoadError::Own(e) => write!(f, "{e}"),
            LoadError::NoGame => write!(f, "the file holds no game"),
            LoadError::UnknownVariant(name) => write!(
                f,
                "the record's Variant {name:?} is no game we play (see `chaturanga variants`)"
            ),
            LoadError::NoRuleset(format) => write!(f, "no ruleset has {format} records"),
            LoadError::WrongVariant { file, asked } => {
                write!(f, "the record is a game of {file}, not {asked}")
            }
            LoadError::Options(e) => write!(f, "the record's rule options: {e}"),
            LoadError::Variant(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::File(e) => Some(e),
            LoadError::Pgn(e) => Some(e),
            LoadError::Record(e) => Some(e),
            LoadError::Own(e) => Some(e.as_ref()),
            LoadError::Options(e) => Some(e),
            LoadError::Variant(e) => Some(e),
            _ => None,
        }
    }
}

/// One game of a file as parsed, before its moves are played.
enum Parsed {
    Pgn(PgnGame),
    Kif(RecordGame),
    Csa(RecordGame),
}

impl Parsed {
    fn tags(&self) -> &Tags {
        match self {
            Parsed::Pgn(g) => &g.tags,
            Parsed::Kif(g) | Parsed::Csa(g) => &g.tags,
        }
    }

    fn format(&self) -> FileFormat {
        match self {
            Parsed::Pgn(_) => FileFormat::Pgn,
            Parsed::Kif(_) => FileFormat::Kif,
            Parsed::Csa(_) => FileFormat::Csa,
        }
    }

    /// The ruleset the game is of, and the rule options it gives (those its `Variant` name
    /// implies, unless the `RuleOptions` tag sets them otherwise).
    fn ruleset(&self) -> Result<(&'static VariantInfo, Vec<String>), LoadError> {
        let mut options = self.tags().options();
        let info = match self {
            Parsed::Pgn(g) => {
                let name = g.tags.get("Variant").unwrap_or("Standard");
                let (info, implied) = record_names::find_pgn_variant(name)
                    .ok_or_else(|| LoadError::UnknownVariant(excerpt(name)))?;
                for item in implied {
                    let name = item.split('=').next().unwrap_or("");
                    if !options.iter().any(|o| o.split('=').next() == Some(name)) {
                        options.push(item.to_string());
                    }
                }
                info
            }
            Parsed::Kif(_) => with_notation("kif")?,
            Parsed::Csa(_) => with_notation("csa")?,
        };
        Ok((info, options))
    }
}

/// The first ruleset whose games are written with the move notation `notation` (KIF and CSA
/// records: the shogi family's).
fn with_notation(notation: &'static str) -> Result<&'static VariantInfo, LoadError> {
    struct Has(&'static str);
    impl Visitor for Has {
        type Output = bool;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> bool {
            RuleOptions::parse::<&str>(P::option_specs(), &[])
                .ok()
                .and_then(|options| P::start_position(&options).ok())
                .is_some_and(|p| p.notations().contains(&self.0))
        }
    }
    implemented()
        .find(|v| visit(v.id, Has(notation)).unwrap_or(false))
        .ok_or(LoadError::NoRuleset(notation))
}

/// The ruleset whose own record format is `format` (`bpgn`).
fn owning(format: &'static str) -> Result<&'static VariantInfo, LoadError> {
    struct Owns(&'static str);
    impl Visitor for Owns {
        type Output = bool;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> bool {
            P::own_record().is_some_and(|own| own.format == self.0)
        }
    }
    implemented()
        .find(|v| visit(v.id, Owns(format)).unwrap_or(false))
        .ok_or(LoadError::NoRuleset(format))
}

/// The games of a text in `format`, parsed.
fn parse(format: FileFormat, text: &str) -> Result<Vec<Parsed>, LoadError> {
    let games: Vec<Parsed> = match format {
        FileFormat::Pgn => pgn::parse(text)
            .map_err(LoadError::Pgn)?
            .into_iter()
            .map(Parsed::Pgn)
            .collect(),
        FileFormat::Kif => kif::parse(text)
            .map_err(LoadError::Record)?
            .into_iter()
            .map(Parsed::Kif)
            .collect(),
        FileFormat::Csa => csa::parse(text)
            .map_err(LoadError::Record)?
            .into_iter()
            .map(Parsed::Csa)
            .collect(),
        FileFormat::Bpgn => unreachable!("BPGN is an own format"),
    };
    Ok(games.into_iter().take(MAX_GAMES).collect())
}

/// Replays a parsed game as ruleset `P` under `options`.
fn replay<P: Ruleset>(parsed: &Parsed, options: &RuleOptions) -> Result<Game<P>, LoadError> {
    let mut game = match parsed {
        Parsed::Pgn(g) => pgn::replay::<P>(g, options).map_err(LoadError::Pgn)?,
        Parsed::Kif(g) => kif::replay::<P>(g, options).map_err(LoadError::Record)?,
        Parsed::Csa(g) => csa::replay::<P>(g, options).map_err(LoadError::Record)?,
    };
    if let Parsed::Pgn(g) = parsed {
        let result = g.result.as_deref().or(g.tags.get("Result"));
        end_as_recorded(&mut game, result, g.tags.get("Termination"));
    }
    Ok(game)
}

/// Ends a game the moves leave going on as its record's result says: `1-0`, `0-1` or
/// `1/2-1/2` of a two-player game, for the reason its `Termination` names (our reason words
/// and lichess's `Time forfeit`), a resignation or an agreed draw by default.
fn end_as_recorded<P: Ruleset>(
    game: &mut Game<P>,
    result: Option<&str>,
    termination: Option<&str>,
) {
    if !matches!(game.status(), Status::Ongoing { .. }) || game.position().players() != 2 {
        return;
    }
    let reason = termination
        .map(|t| t.trim().to_ascii_lowercase().replace(' ', "-"))
        .and_then(|t| Reason::from_name(&t));
    let outcome = match result {
        Some("1-0") => Outcome::win(2, 0, reason.unwrap_or(Reason::Resignation)),
        Some("0-1") => Outcome::win(2, 1, reason.unwrap_or(Reason::Resignation)),
        Some("1/2-1/2") => Outcome::draw(2, reason.unwrap_or(Reason::Agreement)),
        _ => return,
    };
    game.end(outcome);
}

/// Hosts the parsed games that are of ruleset `P`.
struct Host<'a> {
    games: Vec<(&'a Parsed, Vec<String>)>,
}

impl Visitor for Host<'_> {
    type Output = Result<Vec<LoadedGame>, LoadError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        self.games
            .into_iter()
            .map(|(parsed, options)| {
                let hosted = host::<P>(info, parsed, &options)?;
                Ok(LoadedGame {
                    table: Box::new(hosted),
                    format: parsed.format(),
                    tags: parsed.tags().0.clone(),
                    options,
                })
            })
            .collect()
    }
}

fn host<P: Ruleset>(
    info: &'static VariantInfo,
    parsed: &Parsed,
    options: &[String],
) -> Result<Hosted<P>, LoadError> {
    let rule_options =
        RuleOptions::parse(P::option_specs(), options).map_err(LoadError::Options)?;
    let game = replay::<P>(parsed, &rule_options)?;
    Ok(Hosted::from_game(info, &rule_options, game))
}

/// Reads the games of ruleset `P`'s own record format.
struct ReadOwn<'a> {
    text: &'a str,
}

impl Visitor for ReadOwn<'_> {
    type Output = Result<Vec<LoadedGame>, LoadError>;

    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
        own_games::<P>(info, self.text)?
            .into_iter()
            .map(|(hosted, options, tags)| {
                Ok(LoadedGame {
                    table: Box::new(hosted),
                    format: FileFormat::Bpgn,
                    tags,
                    options,
                })
            })
            .collect()
    }
}

type OwnLoaded<P> = (Hosted<P>, Vec<String>, Vec<(String, String)>);

fn own_games<P: Ruleset>(
    info: &'static VariantInfo,
    text: &str,
) -> Result<Vec<OwnLoaded<P>>, LoadError> {
    let own = P::own_record().ok_or(LoadError::NoRuleset("bpgn"))?;
    (own.read)(text)
        .map_err(LoadError::Own)?
        .into_iter()
        .take(MAX_GAMES)
        .map(|g| {
            let options =
                RuleOptions::parse(P::option_specs(), &g.options).map_err(LoadError::Options)?;
            Ok((Hosted::from_game(info, &options, g.game), g.options, g.tags))
        })
        .collect()
}

/// Every game of a record file, each hosted as the ruleset it names. `name` is the file's
/// name, whose extension names the format (`.kif` Shift_JIS, `.kifu` UTF-8); without one the
/// text tells.
pub fn read_games(name: Option<&str>, bytes: &[u8]) -> Result<Vec<LoadedGame>, LoadError> {
    let (format, text) = files::read(name, bytes).map_err(LoadError::File)?;
    let games = if format == FileFormat::Bpgn {
        let info = owning(format.name())?;
        visit(info.id, ReadOwn { text: &text }).map_err(LoadError::Variant)??
    } else {
        let parsed = parse(format, &text)?;
        let mut games = Vec::with_capacity(parsed.len());
        for p in &parsed {
            let (info, options) = p.ruleset()?;
            let host = Host {
                games: vec![(p, options)],
            };
            games.extend(visit(info.id, host).map_err(LoadError::Variant)??);
        }
        games
    };
    if games.is_empty() {
        return Err(LoadError::NoGame);
    }
    Ok(games)
}

/// The first game of a record file as a game of ruleset `P` to play on, with the rule
/// options it gives (see [`read_games`]); an error when the record is of another ruleset.
pub fn load<P: Ruleset>(
    info: &'static VariantInfo,
    name: Option<&str>,
    bytes: &[u8],
) -> Result<(Hosted<P>, Vec<String>), LoadError> {
    let (format, text) = files::read(name, bytes).map_err(LoadError::File)?;
    if format == FileFormat::Bpgn {
        let owner = owning(format.name())?;
        if owner.id != P::ID {
            return Err(LoadError::WrongVariant {
                file: owner.id,
                asked: info.id,
            });
        }
        let (hosted, options, _) = own_games::<P>(info, &text)?
            .into_iter()
            .next()
            .ok_or(LoadError::NoGame)?;
        return Ok((hosted, options));
    }
    let parsed = parse(format, &text)?;
    let first = parsed.first().ok_or(LoadError::NoGame)?;
    let (found, options) = first.ruleset()?;
    if found.id != P::ID {
        return Err(LoadError::WrongVariant {
            file: found.id,
            asked: info.id,
        });
    }
    Ok((host::<P>(info, first, &options)?, options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::RecordFormat;
    use crate::{Occasion, open_table};
    use chaturanga_notation::files::{TextEncoding, encode};
    use chaturanga_rules::OptionValues;
    use chaturanga_variants::CATALOGUE;

    /// A value other than the default for every option of a ruleset.
    fn other_options(id: &str) -> Vec<String> {
        crate::option_specs(id)
            .unwrap()
            .iter()
            .filter_map(|spec| {
                let value = match &spec.values {
                    OptionValues::Choice(words) => {
                        words.iter().find(|w| **w != spec.default)?.to_string()
                    }
                    OptionValues::Number(lo, hi) => {
                        let d: u32 = spec.default.parse().ok()?;
                        (if d < *hi { d + 1 } else { *lo }).to_string()
                    }
                    // A key, as the server draws (numbers read as they always have).
                    OptionValues::Seed => "5eed".repeat(16),
                    OptionValues::TimeControl => "5+3".to_string(),
                    OptionValues::Duration => "10m".to_string(),
                };
                Some(format!("{}={value}", spec.name))
            })
            .collect()
    }

    /// What must survive a record: the start, the moves, the end and the options.
    fn summary(table: &dyn Table) -> (String, Vec<String>, String, Option<String>, Vec<String>) {
        let moves = table
            .moves_seen(chaturanga_rules::Viewer::Arbiter)
            .into_iter()
            .map(|m| m.text.unwrap_or_default())
            .collect();
        let end = table
            .finished()
            .map(|f| format!("{} {}", f.result, f.reason.as_str()));
        (table.start_fen(), moves, table.fen(), end, table.options())
    }

    /// Every ruleset, with every option away from its default and with none, through every
    /// format it writes: the record read back is the same game, and written again the same
    /// text; `.kif` files go through Shift_JIS.
    #[test]
    fn every_ruleset_and_format_writes_reads_and_writes_the_same() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut checked = 0;
        for info in CATALOGUE.iter().filter(|v| v.implemented) {
            for options in [Vec::new(), other_options(info.id)] {
                let mut table = open_table(info.id, &options, None)
                    .unwrap_or_else(|e| panic!("{} {options:?}: {e}", info.id));
                for _ in 0..24 {
                    let legal = table.legal();
                    if legal.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let pick = legal[(seed % legal.len() as u64) as usize].text.clone();
                    table.play(&pick).unwrap();
                }
                // Every other game ends by a resignation the moves do not show.
                if seed.is_multiple_of(2) && table.finished().is_none() && table.players() == 2 {
                    let loser = table.team(table.side_to_move());
                    table.end(Some(loser), Reason::Resignation);
                }
                let before = summary(table.as_ref());
                for format in table.record_formats() {
                    let text = table.record(format, &Occasion::default()).unwrap();
                    let names: Vec<(String, TextEncoding)> = match format {
                        RecordFormat::Kif => vec![
                            ("game.kif".into(), TextEncoding::ShiftJis),
                            ("game.kifu".into(), TextEncoding::Utf8),
                        ],
                        other => vec![(format!("game.{}", other.extension()), TextEncoding::Utf8)],
                    };
                    for (name, encoding) in names {
                        let context = format!("{} {options:?} {name}:\n{text}", info.id);
                        let bytes = encode(&text, encoding).unwrap();
                        for file in [Some(name.as_str()), None] {
                            let games = read_games(file, &bytes)
                                .unwrap_or_else(|e| panic!("{e}; {context}"));
                            assert_eq!(games.len(), 1, "{context}");
                            let again = &games[0];
                            // Secrets are written once the game is over.
                            let secret = crate::option_specs(info.id).unwrap().iter().any(|s| {
                                matches!(s.values, OptionValues::Seed)
                                    && options.iter().any(|o| o.starts_with(s.name))
                            });
                            if table.finished().is_some() || !secret {
                                assert_eq!(summary(again.table.as_ref()), before, "{context}");
                            } else {
                                assert_eq!(summary(again.table.as_ref()).1, before.1, "{context}");
                            }
                            assert_eq!(
                                again.table.record(format, &Occasion::default()).unwrap(),
                                text,
                                "written again; {context}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn loading_as_a_ruleset() {
        let mut table = open_table("shogi", &["impasse=declare27".to_string()], None).unwrap();
        table.play("7g7f").unwrap();
        let text = table
            .record(RecordFormat::Kif, &Occasion::default())
            .unwrap();
        let bytes = encode(&text, TextEncoding::ShiftJis).unwrap();
        let info = chaturanga_variants::find("shogi").unwrap();
        let (hosted, options) = chaturanga_variants::visit("shogi", LoadShogi(info, &bytes))
            .unwrap()
            .unwrap();
        assert_eq!(options, ["impasse=declare27"]);
        assert_eq!(hosted, table.fen());
        struct LoadShogi<'a>(&'static VariantInfo, &'a [u8]);
        impl Visitor for LoadShogi<'_> {
            type Output = Result<(String, Vec<String>), String>;
            fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> Self::Output {
                let (hosted, options) =
                    load::<P>(self.0, Some("g.kif"), self.1).map_err(|e| e.to_string())?;
                Ok((hosted.fen(), options))
            }
        }
        // Another ruleset's record is refused.
        struct AsChess<'a>(&'a [u8]);
        impl Visitor for AsChess<'_> {
            type Output = String;
            fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> String {
                match load::<P>(info, Some("g.kif"), self.0) {
                    Err(e) => e.to_string(),
                    Ok(_) => "loaded".to_string(),
                }
            }
        }
        assert_eq!(
            chaturanga_variants::visit("chess", AsChess(&bytes)).unwrap(),
            "the record is a game of shogi, not chess"
        );
    }

    #[test]
    fn a_chess960_record_loads_under_chess960() {
        // As lichess writes a Chess960 game: the Variant tag names it, the FEN gives the array.
        let text = b"[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
            [FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 e5 *\n";
        struct Load<'a>(&'a [u8]);
        impl Visitor for Load<'_> {
            type Output = Result<(String, Vec<String>), String>;
            fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output {
                let (hosted, options) =
                    load::<P>(info, Some("g.pgn"), self.0).map_err(|e| e.to_string())?;
                Ok((hosted.fen(), options))
            }
        }
        let (fen, options) = chaturanga_variants::visit("chess", Load(text))
            .unwrap()
            .unwrap();
        assert_eq!(options, ["chess960=on"]);
        assert!(
            fen.starts_with("bbqnnrkr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/BBQNNRKR w"),
            "{fen}"
        );
    }

    #[test]
    fn bad_records_are_typed_errors() {
        let error = |name: Option<&str>, text: &[u8]| match read_games(name, text) {
            Err(e) => e,
            Ok(_) => panic!("{:?} read", String::from_utf8_lossy(text)),
        };
        assert!(matches!(
            error(Some("g.pgn"), b"[Variant \"Atomic\"]\n\n1. e4 *\n"),
            LoadError::UnknownVariant(_)
        ));
        assert!(matches!(
            error(Some("g.pgn"), b"[RuleOptions \"bogus=1\"]\n\n1. e4 *\n"),
            LoadError::Options(_)
        ));
        let e = error(Some("g.pgn"), b"1. e4 e5 2. Ke3 *\n");
        assert!(matches!(e, LoadError::Pgn(_)), "{e}");
        assert!(e.to_string().contains("2. Ke3 (ply 3)"), "{e}");
        assert!(matches!(error(None, b"hello"), LoadError::File(_)));
        assert!(matches!(error(Some("g.pgn"), b""), LoadError::NoGame));
        let e = error(Some("g.kif"), "   1 ７五歩(77)\n".as_bytes());
        assert!(matches!(e, LoadError::Record(_)), "{e}");
        // A resignation the moves do not show is the record's result.
        let games = read_games(Some("g.pgn"), b"1. e4 e5 1-0\n").unwrap();
        let finished = games[0].table.finished().unwrap();
        assert_eq!(
            (finished.result.as_str(), finished.reason),
            ("1-0", Reason::Resignation)
        );
        let games = read_games(
            Some("g.pgn"),
            b"[Termination \"Time forfeit\"]\n\n1. e4 e5 0-1\n",
        )
        .unwrap();
        assert_eq!(
            games[0].table.finished().unwrap().reason,
            Reason::TimeForfeit
        );
    }
}
