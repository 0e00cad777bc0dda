//! What a front end needs to draw and name a ruleset's men without knowing its rules: the
//! family of piece pictures ([`PieceStyle`]) and, for every symbol a scene can show, the
//! piece's name and how it moves ([`KindLegend`]).
//!
//! Every position type implements [`Position::legend`](crate::Position::legend). Positions
//! built on piece tables take it from the table ([`Legend::of_pieces`]), so the legend and
//! the scenes name men by the same symbols. Each entry may carry a picture of the man's
//! moves ([`MoveDiagram`], module [`diagram`]).

pub mod diagram;

pub use diagram::{DiagramLattice, Mark, MarkKind, MarkMode, MoveDiagram};

use crate::piece::PieceType;

/// The family of piece pictures a ruleset is drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// Chess men (the chess family, and every ruleset with no pictures of its own).
    #[default]
    Western,
    /// Wedge-shaped tiles with a name, pointing at the opponent (the shogi family).
    Shogi,
    /// Round discs with a character (xiangqi).
    Xiangqi,
    /// Congo's animals.
    Congo,
    /// Plain stones (Gess).
    Stones,
}

impl PieceStyle {
    /// Every style, in declaration order.
    pub const ALL: [PieceStyle; 5] = [
        PieceStyle::Western,
        PieceStyle::Shogi,
        PieceStyle::Xiangqi,
        PieceStyle::Congo,
        PieceStyle::Stones,
    ];

    /// The style's name in data (`western`, `shogi`, `xiangqi`, `congo`, `stones`).
    pub fn name(self) -> &'static str {
        match self {
            PieceStyle::Western => "western",
            PieceStyle::Shogi => "shogi",
            PieceStyle::Xiangqi => "xiangqi",
            PieceStyle::Congo => "congo",
            PieceStyle::Stones => "stones",
        }
    }
}

/// One symbol of the legend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindLegend {
    /// The symbol exactly as scenes write it (`SceneMan::piece`, `SceneHand::piece`): `P`,
    /// `+E`, `A'`, `L!`, `Q~`, `P{2}`.
    pub symbol: String,
    /// The English name, lower case (`gold general`, `dragon king (promoted rook)`).
    pub name: String,
    /// How it moves, in one line: Betza where the piece table's Betza says it all, words
    /// where the movement is code.
    pub moves: String,
    /// Whether [`KindLegend::moves`] is words a player reads rather than Betza, which only
    /// developers do: clients show the one and draw the diagram instead of the other.
    pub moves_in_words: bool,
    /// How it moves as a picture, for players; `None` where no picture says it (a man that
    /// does not move, a Gess stone, a disk in reserve).
    pub diagram: Option<MoveDiagram>,
}

impl KindLegend {
    /// An entry from its three texts, the moves in words, with no diagram.
    pub fn new(symbol: &str, name: &str, moves: &str) -> Self {
        KindLegend {
            symbol: symbol.to_string(),
            name: name.to_string(),
            moves: moves.to_string(),
            moves_in_words: true,
            diagram: None,
        }
    }

    /// The entry with a diagram of its moves.
    pub fn with_diagram(mut self, diagram: MoveDiagram) -> Self {
        self.diagram = Some(diagram);
        self
    }
}

/// The pictures and names of a ruleset's men.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Legend {
    /// The family of pictures.
    pub style: PieceStyle,
    /// One entry per symbol a scene of the ruleset may show, in the piece table's order.
    pub kinds: Vec<KindLegend>,
}

impl Legend {
    /// The legend of a piece table: one entry per piece type, with its symbol and name,
    /// [`moves_text`] for its movement and its diagram: the one given by hand
    /// ([`PieceType::with_diagram`]), else the one its moves draw
    /// ([`MoveDiagram::of_piece`]).
    pub fn of_pieces(style: PieceStyle, pieces: &[PieceType]) -> Legend {
        Legend {
            style,
            kinds: pieces
                .iter()
                .map(|p| KindLegend {
                    symbol: p.symbol.clone(),
                    name: p.name.clone(),
                    moves: moves_text(p),
                    moves_in_words: p.moves_in_words.is_some(),
                    diagram: p.diagram.clone().or_else(|| MoveDiagram::of_piece(p)),
                })
                .collect(),
        }
    }

    /// The entry of `symbol`, if any.
    pub fn get(&self, symbol: &str) -> Option<&KindLegend> {
        self.kinds.iter().find(|k| k.symbol == symbol)
    }
}

/// How a piece type moves, in one line: its words where the table gives them
/// ([`PieceType::in_words`]), else its Betza with the zone moves, bent rides and
/// confinement that Betza alone does not say.
pub fn moves_text(piece: &PieceType) -> String {
    if let Some(words) = &piece.moves_in_words {
        return words.clone();
    }
    let mut parts = Vec::new();
    if !piece.betza.is_empty() {
        parts.push(piece.betza.clone());
    }
    // Region names are identifiers (`across-river`); a legend reads them as words.
    let words = |region: &str| region.replace('-', " ");
    for (region, betza) in &piece.zone_betza {
        parts.push(format!("{betza} from the {} cells", words(region)));
    }
    for bent in &piece.bent {
        parts.push(format!(
            "one {} step then {} slides outward, or the reverse",
            bent.step, bent.slide
        ));
    }
    if let Some(region) = &piece.confined_to {
        parts.push(format!("never leaves its {}", words(region)));
    }
    if parts.is_empty() {
        "does not move".to_string()
    } else {
        parts.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn style_names_are_distinct_lower_case_words() {
        let names: Vec<&str> = PieceStyle::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["western", "shogi", "xiangqi", "congo", "stones"]);
        assert_eq!(PieceStyle::default(), PieceStyle::Western);
    }

    #[test]
    fn a_table_legend_says_what_betza_leaves_out() {
        let soldier = PieceType::new("P", "soldier", "fW")
            .unwrap()
            .in_zone("across-river", "fsW")
            .unwrap();
        let advisor = PieceType::new("A", "advisor", "F")
            .unwrap()
            .confined("palace");
        let duke = PieceType::new("D", "duke", "").unwrap().with_bent('W', 'F');
        let frozen = PieceType::new("-R", "frozen rook", "").unwrap();
        let lion = PieceType::new("N", "lion", "KNAD")
            .unwrap()
            .in_words("two king steps");
        let legend =
            Legend::of_pieces(PieceStyle::Xiangqi, &[soldier, advisor, duke, frozen, lion]);
        let moves: Vec<&str> = legend.kinds.iter().map(|k| k.moves.as_str()).collect();
        assert_eq!(
            moves,
            [
                "fW; fsW from the across river cells",
                "F; never leaves its palace",
                "one W step then F slides outward, or the reverse",
                "does not move",
                "two king steps",
            ]
        );
        assert_eq!(legend.get("-R").unwrap().name, "frozen rook");
        assert!(legend.get("K").is_none());
    }
}
