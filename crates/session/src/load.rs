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
                    .ok_or_else(|| LoadError::UnknownVariant(name.chars().take(40).collect()))?;
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
