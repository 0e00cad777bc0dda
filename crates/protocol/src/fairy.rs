//! Fairy-Stockfish's UCI dialect: what UCI clients written for that engine expect of us.
//!
//! For the chess family our notation already is Fairy-Stockfish's (`e2e4`, `a10a9`, `P@e4`,
//! its FEN). The rulesets we write in shogi notation (the USI family: SFEN, `7g7f`,
//! `P*5e`) are translated on the way in and out (`chaturanga_session::to_fairy` and the
//! other translations): `c3c4`, `P@e5`, `…/LNSGKGSNL[Pp] w - - 0 1`. USI keeps USI's
//! notation.
//!
//! After `setoption name UCI_Variant`, Fairy-Stockfish describes the variant in one line,
//! `info string variant NAME files F ranks R pocket P template T startpos FEN`, except for
//! the variants XBoard knows itself; we do the same, with its pocket sizes and templates for
//! the variants it has (a table of its data, like XBoard's in `xboard_setup`).

use chaturanga_rules::geometry::Geometry;
use chaturanga_session::{
    GameSession, fairy_halfmove_clock, fen_from_fairy, fen_to_fairy, from_fairy, start_to_fairy,
    to_fairy,
};

/// The variants Fairy-Stockfish does not announce because XBoard knows them (its
/// `standard_variants`).
const XBOARD_OWN: &[&str] = &[
    "normal",
    "nocastle",
    "fischerandom",
    "knightmate",
    "3check",
    "makruk",
    "shatranj",
    "asean",
    "seirawan",
    "crazyhouse",
    "bughouse",
    "suicide",
    "giveaway",
    "losers",
    "atomic",
    "capablanca",
    "gothic",
    "janus",
    "caparandom",
    "grand",
    "shogi",
    "xiangqi",
    "duck",
    "berolina",
    "spartan",
];

/// Fairy-Stockfish's pocket size and template for the variants of its that we play and it
/// announces (the pocket is its variant's own `pocketSize`, or its count of piece types).
const ANNOUNCED: &[(&str, u32, &str)] = &[
    ("chess", 0, "fairy"),
    ("minishogi", 5, "shogi"),
    ("torishogi", 9, "shogi"),
    ("yarishogi", 8, "shogi"),
    ("antichess", 0, "giveaway"),
];

/// How a UCI session writes the moves and positions of the ruleset it plays.
#[derive(Clone, Copy, Debug)]
pub struct Dialect {
    /// The board, for the cell names.
    geometry: Option<&'static Geometry>,
    /// Whether our notation (SFEN, USI moves) is translated.
    translated: bool,
    /// The halfmove clock of the client's last FEN, which our SFEN does not keep: it counts
    /// on until the position's own clock restarts.
    setup_clock: u32,
}

impl Dialect {
    /// UCI's dialect for the ruleset `session` plays: Fairy-Stockfish's.
    pub fn uci(session: &dyn GameSession) -> Dialect {
        Dialect {
            geometry: session.geometry(),
            translated: session.variant().usi,
            setup_clock: 0,
        }
    }

    /// Our own notation, unchanged (USI, and UCI before a ruleset is known).
    pub fn ours() -> Dialect {
        Dialect {
            geometry: None,
            translated: false,
            setup_clock: 0,
        }
    }

    /// Whether this dialect writes anything differently from our notation.
    pub fn translates(&self) -> bool {
        self.translated
    }

    /// Our move text as the client writes it.
    pub fn move_out(&self, ours: &str) -> String {
        if self.translated {
            to_fairy(self.geometry, ours)
        } else {
            ours.to_string()
        }
    }

    /// The client's move text in our notation.
    pub fn move_in(&self, theirs: &str) -> String {
        if self.translated {
            from_fairy(self.geometry, theirs)
        } else {
            theirs.to_string()
        }
    }

    /// The client's FEN in our notation (`None`: the start position), remembering the clock
    /// our notation does not write.
    pub fn fen_in(&mut self, theirs: Option<&str>) -> Result<Option<String>, String> {
        self.setup_clock = 0;
        let Some(theirs) = theirs else {
            return Ok(None);
        };
        if self.translated {
            let ours = fen_from_fairy(theirs)?;
            self.setup_clock = fairy_halfmove_clock(theirs);
            Ok(Some(ours))
        } else {
            Ok(Some(theirs.to_string()))
        }
    }

    /// The session's position as the client writes it.
    pub fn fen_out(&self, session: &dyn GameSession) -> String {
        let quiet = session.quiet_plies();
        // The clock read with the FEN counts on while no move since has restarted it.
        let clock = if quiet as usize == session.moves_played().len() {
            quiet + self.setup_clock
        } else {
            quiet
        };
        self.fen_text(&session.fen(), clock)
    }

    /// A FEN of ours, whose halfmove clock is `quiet_plies` where it does not write one
    /// (SFEN), as the client writes it.
    pub fn fen_text(&self, fen: &str, quiet_plies: u32) -> String {
        if self.translated {
            fen_to_fairy(fen, quiet_plies)
        } else {
            fen.to_string()
        }
    }

    /// A start position as the client's variant announcement writes it.
    pub fn start_out(&self, session: &dyn GameSession) -> String {
        if self.translated {
            start_to_fairy(&session.start_fen())
        } else {
            session.start_fen()
        }
    }
}

/// The `info string variant` line describing the ruleset `session` plays under the name
/// the GUI chose, as Fairy-Stockfish writes it; `None` for the variants it does not
/// announce. Rulesets it does not have get the same line (their pocket is 0: none of them
/// has hands), with `players N` where they are not for two.
pub fn announcement(session: &dyn GameSession, name: &str, dialect: &Dialect) -> Option<String> {
    if XBOARD_OWN.contains(&name) {
        return None;
    }
    let (pocket, template) = ANNOUNCED
        .iter()
        .find(|(known, ..)| *known == name)
        .map(|&(_, pocket, template)| (pocket, template))
        .unwrap_or((
            0,
            if session.variant().usi {
                "shogi"
            } else {
                "fairy"
            },
        ));
    let mut text = format!("info string variant {name}");
    if let Some(geometry) = session.geometry() {
        let (files, ranks) = geometry.bounding_box();
        text.push_str(&format!(" files {files} ranks {ranks}"));
    }
    text.push_str(&format!(" pocket {pocket} template {template}"));
    if session.players() != 2 {
        text.push_str(&format!(" players {}", session.players()));
    }
    text.push_str(&format!(" startpos {}", dialect.start_out(session)));
    Some(text)
}
