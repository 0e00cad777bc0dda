//! The catalogue's rulesets, one module each, and the registry that hands them out by id.
//!
//! Front ends never match on a ruleset: they implement [`Visitor`] once, generically over
//! [`Ruleset`], and [`visit`] instantiates it for the id asked for.

pub mod avalanche;
pub mod bughouse;
pub mod bughouse_live;
pub mod capablanca;
pub mod chess;
pub mod chex;
pub mod chushogi;
pub mod congo;
pub mod daishogi;
pub mod darkchess;
pub mod doublechess;
pub mod doublemove;
mod family;
pub mod gess;
pub mod grand;
pub mod hexchess;
mod large_shogi;
pub mod losing;
pub mod maharajah;
pub mod makarenko;
pub mod minishogi;
pub mod omega;
pub mod outer;
pub mod progressive;
pub mod renaissance;
pub mod shogi;
mod shogi_family;
pub mod speed;
pub mod taktika;
pub mod threeplayer;
pub mod torishogi;
pub mod xiangqi;
pub mod yarishogi;

use chaturanga_rules::Ruleset;
use std::fmt;

/// A ruleset of the catalogue and how far it is implemented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// Id, as on the command line (`chess`).
    pub id: &'static str,
    /// English name.
    pub name: &'static str,
    /// Number of players.
    pub players: usize,
    /// Fairy-Stockfish's name for it, where that engine knows it.
    pub fairy_stockfish: Option<&'static str>,
    /// Whether the rules are implemented.
    pub implemented: bool,
}

const fn info(
    id: &'static str,
    name: &'static str,
    players: usize,
    fairy_stockfish: Option<&'static str>,
    implemented: bool,
) -> VariantInfo {
    VariantInfo {
        id,
        name,
        players,
        fairy_stockfish,
        implemented,
    }
}

/// All 29 rulesets of the catalogue, in id order.
pub const CATALOGUE: &[VariantInfo] = &[
    info("avalanche", "Avalanche Chess", 2, None, true),
    info("bughouse", "Bughouse", 4, Some("bughouse"), true),
    info(
        "capablanca",
        "Capablanca chess",
        2,
        Some("capablanca"),
        true,
    ),
    info("chess", "Chess", 2, Some("chess"), true),
    info("chex", "Chex", 2, None, true),
    info("chushogi", "Chu shogi", 2, None, true),
    info("congo", "Congo", 2, None, true),
    info("daishogi", "Dai shogi", 2, None, true),
    info("darkchess", "Dark Chess", 2, None, true),
    info("doublechess", "Double Chess", 2, None, true),
    info("doublemove", "Double-move chess", 2, None, true),
    info("gess", "Gess", 2, None, true),
    info("grand", "Grand Chess", 2, Some("grand"), true),
    info("hexchess", "Gliński's hexagonal chess", 2, None, true),
    info("losing", "Losing chess", 2, None, true),
    info("maharajah", "Maharajah and the Sepoys", 2, None, true),
    info("makarenko", "Makarenko Chess", 2, None, true),
    info("minishogi", "Minishogi", 2, Some("minishogi"), true),
    info("omega", "Omega Chess", 2, None, true),
    info("outer", "Big Outer Chess", 2, None, true),
    info("progressive", "Progressive Chess", 2, None, true),
    info("renaissance", "Renaissance Chess", 2, None, true),
    info("shogi", "Shogi", 2, Some("shogi"), true),
    info("speed", "Speed chess", 2, None, true),
    info("taktika", "Taktika", 2, None, true),
    info("threeplayer", "Three-Player Chess", 3, None, true),
    info("torishogi", "Tori shogi", 2, Some("torishogi"), true),
    info("xiangqi", "Xiangqi", 2, Some("xiangqi"), true),
    info("yarishogi", "Yari shogi", 2, Some("yarishogi"), true),
];

/// A name another program gives one of our rulesets under given rule options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The other program's name.
    pub name: &'static str,
    /// Our ruleset id.
    pub ruleset: &'static str,
    /// The rule options (`name=value`) that make our ruleset that program's game.
    pub options: &'static [&'static str],
}

/// Fairy-Stockfish's names for our rulesets under options other than their defaults (its
/// names for the defaults are [`VariantInfo::fairy_stockfish`]). Its `giveaway`, `suicide`
/// and `losers` are not here: they castle, count pieces at a stalemate, or make capture a
/// duty only where it is not check, none of which our losing chess does.
pub const FAIRY_STOCKFISH_ALIASES: &[Alias] = &[Alias {
    name: "antichess",
    ruleset: "losing",
    options: &["en-passant=on", "king-promotion=on"],
}];

/// The implemented rulesets.
pub fn implemented() -> impl Iterator<Item = &'static VariantInfo> {
    CATALOGUE.iter().filter(|v| v.implemented)
}

/// Something to do with a ruleset's position type, whatever the ruleset.
pub trait Visitor {
    /// What the visit produces.
    type Output;
    /// Called with the position type of the ruleset asked for.
    fn visit<P: Ruleset>(self, info: &'static VariantInfo) -> Self::Output;
}

/// A ruleset id that is not in the catalogue, or not implemented yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantError {
    /// No such ruleset.
    Unknown(String),
    /// In the catalogue but not implemented yet.
    NotImplemented(&'static str),
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Unknown(id) => write!(
                f,
                "unknown variant {id:?} (known: {})",
                implemented().map(|v| v.id).collect::<Vec<_>>().join(", ")
            ),
            VariantError::NotImplemented(id) => write!(f, "variant {id} is not implemented yet"),
        }
    }
}

impl std::error::Error for VariantError {}

/// Finds a ruleset by id (or Fairy-Stockfish name).
pub fn find(id: &str) -> Result<&'static VariantInfo, VariantError> {
    let info = CATALOGUE
        .iter()
        .find(|v| v.id == id || v.fairy_stockfish == Some(id))
        .ok_or_else(|| VariantError::Unknown(id.chars().take(40).collect()))?;
    if info.implemented {
        Ok(info)
    } else {
        Err(VariantError::NotImplemented(info.id))
    }
}

/// Runs `visitor` with the position type of ruleset `id`.
pub fn visit<V: Visitor>(id: &str, visitor: V) -> Result<V::Output, VariantError> {
    let info = find(id)?;
    Ok(match info.id {
        "avalanche" => visitor.visit::<avalanche::AvalanchePosition>(info),
        "capablanca" => visitor.visit::<capablanca::CapablancaPosition>(info),
        "chess" => visitor.visit::<chess::ChessPosition>(info),
        "chex" => visitor.visit::<chex::ChexPosition>(info),
        "chushogi" => visitor.visit::<chushogi::ChuShogiPosition>(info),
        "congo" => visitor.visit::<congo::CongoPosition>(info),
        "daishogi" => visitor.visit::<daishogi::DaiShogiPosition>(info),
        "darkchess" => visitor.visit::<darkchess::DarkChessPosition>(info),
        "doublechess" => visitor.visit::<doublechess::DoubleChessPosition>(info),
        "doublemove" => visitor.visit::<doublemove::DoubleMovePosition>(info),
        "gess" => visitor.visit::<gess::GessPosition>(info),
        "grand" => visitor.visit::<grand::GrandPosition>(info),
        "hexchess" => visitor.visit::<hexchess::HexChessPosition>(info),
        "losing" => visitor.visit::<losing::LosingPosition>(info),
        "maharajah" => visitor.visit::<maharajah::MaharajahPosition>(info),
        "makarenko" => visitor.visit::<makarenko::MakarenkoPosition>(info),
        "minishogi" => visitor.visit::<minishogi::MinishogiPosition>(info),
        "omega" => visitor.visit::<omega::OmegaPosition>(info),
        "outer" => visitor.visit::<outer::OuterPosition>(info),
        "progressive" => visitor.visit::<progressive::ProgressivePosition>(info),
        "renaissance" => visitor.visit::<renaissance::RenaissancePosition>(info),
        "shogi" => visitor.visit::<shogi::ShogiPosition>(info),
        "speed" => visitor.visit::<speed::SpeedPosition>(info),
        "taktika" => visitor.visit::<taktika::TaktikaPosition>(info),
        "threeplayer" => visitor.visit::<threeplayer::ThreePlayerPosition>(info),
        "bughouse" => visitor.visit::<bughouse::BughousePosition>(info),
        "torishogi" => visitor.visit::<torishogi::ToriShogiPosition>(info),
        "xiangqi" => visitor.visit::<xiangqi::XiangqiPosition>(info),
        "yarishogi" => visitor.visit::<yarishogi::YariShogiPosition>(info),
        other => {
            return Err(VariantError::NotImplemented(
                CATALOGUE
                    .iter()
                    .find(|v| v.id == other)
                    .map_or("?", |v| v.id),
            ));
        }
    })
}
