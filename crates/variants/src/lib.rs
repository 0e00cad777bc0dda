//! The catalogue's rulesets, one module each, and the registry that hands them out by id.
//!
//! Front ends never match on a ruleset: they implement [`Visitor`] once, generically over
//! [`Ruleset`], and [`visit`] instantiates it for the id asked for.

pub mod avalanche;
pub mod bughouse;
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
pub mod record_names;
pub mod renaissance;
pub mod shogi;
mod shogi_family;
pub mod speed;
pub mod taktika;
pub mod threeplayer;
pub mod torishogi;
pub mod weights;
pub mod words;
pub mod xiangqi;
pub mod yarishogi;

use chaturanga_rules::Ruleset;
use chaturanga_rules::position::excerpt;
use std::fmt;

/// A ruleset of the catalogue and what the front ends need to know of it besides its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// Id, as on the command line (`chess`): the position type's [`Ruleset::ID`].
    pub id: &'static str,
    /// English name.
    pub name: &'static str,
    /// The name in other languages, `(language, name)`: one for each of
    /// [`words::LANGUAGES`] but English (a test holds the registry to it).
    pub names: &'static [(&'static str, &'static str)],
    /// Number of players.
    pub players: usize,
    /// Fairy-Stockfish's name for it, where that engine knows it.
    pub fairy_stockfish: Option<&'static str>,
    /// XBoard's name for it where that is not the id (`normal` for chess).
    pub xboard: Option<&'static str>,
    /// PGN's `Variant` value for it in other programs (lichess, pychess, python-chess), where
    /// they know it (`Standard` for chess); our records write it, and the id otherwise.
    pub pgn: Option<&'static str>,
    /// The start position (FEN) other programs give it under that name, where it is not
    /// ours: Capablanca's standard array, which Fairy-Stockfish, pychess and XBoard set up,
    /// where ours is the catalogue's. A record whose game starts elsewhere names its start.
    pub foreign_start: Option<&'static str>,
    /// Whether it is of the shogi family, whose engine protocol is USI: USI GUIs are offered
    /// these first.
    pub usi: bool,
    /// Perft depth of `bench` from the start position: about a second or more.
    pub bench_perft_depth: u32,
    /// Depth of the search benchmark (`bench --search`): about a second or less.
    pub bench_search_depth: u32,
    /// Whether the rules are implemented.
    pub implemented: bool,
}

impl VariantInfo {
    /// An implemented ruleset called `name` for `players` players; the registry sets the id.
    const fn new(name: &'static str, players: usize) -> Self {
        VariantInfo {
            id: "",
            name,
            names: &[],
            players,
            fairy_stockfish: None,
            xboard: None,
            pgn: None,
            foreign_start: None,
            usi: false,
            bench_perft_depth: 4,
            bench_search_depth: 7,
            implemented: true,
        }
    }

    /// The ruleset's names in other languages than English, `(language, name)`.
    const fn names(mut self, names: &'static [(&'static str, &'static str)]) -> Self {
        self.names = names;
        self
    }

    const fn fairy_stockfish(mut self, name: &'static str) -> Self {
        self.fairy_stockfish = Some(name);
        self
    }

    const fn xboard(mut self, name: &'static str) -> Self {
        self.xboard = Some(name);
        self
    }

    const fn pgn(mut self, name: &'static str) -> Self {
        self.pgn = Some(name);
        self
    }

    const fn foreign_start(mut self, fen: &'static str) -> Self {
        self.foreign_start = Some(fen);
        self
    }

    const fn usi(mut self) -> Self {
        self.usi = true;
        self
    }

    const fn bench(mut self, perft_depth: u32, search_depth: u32) -> Self {
        self.bench_perft_depth = perft_depth;
        self.bench_search_depth = search_depth;
        self
    }

    const fn with_id(mut self, id: &'static str) -> Self {
        self.id = id;
        self
    }

    /// The ruleset's name in language `lang` (a code of [`words::LANGUAGES`]: `hu`), English
    /// where it has none in that language.
    pub fn name_in(&self, lang: &str) -> &'static str {
        self.names
            .iter()
            .find(|(l, _)| *l == lang)
            .map_or(self.name, |&(_, name)| name)
    }

    /// The ruleset's name in every language it has one in, English first.
    pub fn all_names(&self) -> impl Iterator<Item = (&'static str, &'static str)> + use<> {
        std::iter::once(("en", self.name)).chain(self.names.iter().copied())
    }

    /// XBoard's name for the ruleset: [`VariantInfo::xboard`], or else the id.
    pub fn xboard_name(&self) -> &'static str {
        self.xboard.unwrap_or(self.id)
    }
}

/// The registry: every ruleset's position type once, with its facts. The catalogue and
/// [`visit`] both come from this list, and the id is the position type's [`Ruleset::ID`], so
/// a ruleset is added by one line here (and its module above).
macro_rules! registry {
    ($( $position:ty => $info:expr ),* $(,)?) => {
        /// All rulesets of the catalogue, in id order.
        pub const CATALOGUE: &[VariantInfo] = &[
            $( $info.with_id(<$position as Ruleset>::ID) ),*
        ];

        /// Runs `visitor` with the position type of the catalogue's entry `info`.
        fn visit_entry<V: Visitor>(info: &'static VariantInfo, visitor: V) -> Option<V::Output> {
            $(
                if info.id == <$position as Ruleset>::ID {
                    return Some(visitor.visit::<$position>(info));
                }
            )*
            None
        }
    };
}

registry! {
    avalanche::AvalanchePosition => VariantInfo::new("Avalanche Chess", 2)
        .names(&[("hu", "Lavinasakk")]),
    bughouse::BughousePosition => VariantInfo::new("Bughouse", 4)
        .names(&[("hu", "Bogárház")])
        .fairy_stockfish("bughouse")
        .pgn("Bughouse"),
    capablanca::CapablancaPosition => VariantInfo::new("Capablanca chess", 2)
        .names(&[("hu", "Capablanca")])
        .fairy_stockfish("capablanca")
        .pgn("Capablanca")
        .foreign_start(capablanca::STANDARD_START)
        .bench(5, 7),
    chess::ChessPosition => VariantInfo::new("Chess", 2)
        .names(&[("hu", "Sakk")])
        .fairy_stockfish("chess")
        .xboard("normal")
        .pgn("Standard")
        .bench(6, 7),
    chex::ChexPosition => VariantInfo::new("Chex", 2)
        .names(&[("hu", "Sax")]),
    chushogi::ChuShogiPosition => VariantInfo::new("Chu shogi", 2)
        .names(&[("hu", "Csusógi")])
        .xboard("chu")
        .usi(),
    congo::CongoPosition => VariantInfo::new("Congo", 2)
        .names(&[("hu", "Kongó")]),
    daishogi::DaiShogiPosition => VariantInfo::new("Dai shogi", 2)
        .names(&[("hu", "Daisógi")])
        .xboard("dai")
        .usi()
        .bench(4, 6),
    darkchess::DarkChessPosition => VariantInfo::new("Dark Chess", 2)
        .names(&[("hu", "Sötét sakk")]),
    doublechess::DoubleChessPosition => VariantInfo::new("Double Chess", 2)
        .names(&[("hu", "Dupla sakk")])
        .bench(5, 7),
    doublemove::DoubleMovePosition => VariantInfo::new("Double-move chess", 2)
        .names(&[("hu", "Duplalépéses sakk")])
        .bench(4, 5),
    gess::GessPosition => VariantInfo::new("Gess", 2)
        .names(&[("hu", "Általános sakk")])
        .bench(3, 7),
    grand::GrandPosition => VariantInfo::new("Grand Chess", 2)
        .names(&[("hu", "Grand sakk")])
        .fairy_stockfish("grand")
        .pgn("Grand"),
    hexchess::HexChessPosition => VariantInfo::new("Gliński's hexagonal chess", 2)
        .names(&[("hu", "Hexasakk")])
        .bench(5, 7),
    losing::LosingPosition => VariantInfo::new("Losing chess", 2)
        .names(&[("hu", "Francia sakk")])
        .bench(5, 7),
    maharajah::MaharajahPosition => VariantInfo::new("Maharajah and the Sepoys", 2)
        .names(&[("hu", "A maharadzsa és a szipojok")])
        .bench(5, 7),
    makarenko::MakarenkoPosition => VariantInfo::new("Makarenko Chess", 2)
        .names(&[("hu", "Makarenko-sakk")]),
    minishogi::MinishogiPosition => VariantInfo::new("Minishogi", 2)
        .names(&[("hu", "Minisógi")])
        .fairy_stockfish("minishogi")
        .xboard("5x5+5_shogi")
        .pgn("Minishogi")
        .usi(),
    omega::OmegaPosition => VariantInfo::new("Omega Chess", 2)
        .names(&[("hu", "Omegasakk")])
        .bench(5, 6),
    outer::OuterPosition => VariantInfo::new("Big Outer Chess", 2)
        .names(&[("hu", "Nagy külső sakk")])
        .bench(4, 6),
    progressive::ProgressivePosition => VariantInfo::new("Progressive Chess", 2)
        .names(&[("hu", "Progresszív sakk")])
        .bench(4, 5),
    renaissance::RenaissancePosition => VariantInfo::new("Renaissance Chess", 2)
        .names(&[("hu", "Reneszánsz sakk")])
        .bench(4, 6),
    shogi::ShogiPosition => VariantInfo::new("Shogi", 2)
        .names(&[("hu", "Sógi")])
        .fairy_stockfish("shogi")
        .pgn("Shogi")
        .usi(),
    speed::SpeedPosition => VariantInfo::new("Speed chess", 2)
        .names(&[("hu", "Gyors sakk")])
        .bench(8, 7),
    taktika::TaktikaPosition => VariantInfo::new("Taktika", 2)
        .names(&[("hu", "Taktika")]),
    threeplayer::ThreePlayerPosition => VariantInfo::new("Three-Player Chess", 3)
        .names(&[("hu", "Háromszemélyes sakk")])
        .bench(5, 7),
    torishogi::ToriShogiPosition => VariantInfo::new("Tori shogi", 2)
        .names(&[("hu", "Torisógi")])
        .fairy_stockfish("torishogi")
        .pgn("Torishogi")
        .usi(),
    xiangqi::XiangqiPosition => VariantInfo::new("Xiangqi", 2)
        .names(&[("hu", "Hsziangcsi")])
        .fairy_stockfish("xiangqi")
        .pgn("Xiangqi")
        .bench(4, 6),
    yarishogi::YariShogiPosition => VariantInfo::new("Yari shogi", 2)
        .names(&[("hu", "Jarisógi")])
        .fairy_stockfish("yarishogi")
        .pgn("Yarishogi")
        .usi(),
}

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
/// names for the defaults are [`VariantInfo::fairy_stockfish`]). Where a name is also one
/// of our ids, its game differs from our default (`capablanca`: Capablanca's final array,
/// ours the catalogue's; `torishogi`: two swallows on a file, and the repeater loses;
/// `minishogi`: a repetition loses for Black): a client of Fairy-Stockfish's dialect (UCI,
/// USI) means its game, so the alias comes first there. Its `giveaway`, `suicide` and
/// `losers` are not here: they castle, count pieces at a stalemate, or make capture a duty
/// only where it is not check, none of which our losing chess does.
pub const FAIRY_STOCKFISH_ALIASES: &[Alias] = &[
    Alias {
        name: "antichess",
        ruleset: "losing",
        options: &["en-passant=on", "king-promotion=on"],
    },
    Alias {
        name: "capablanca",
        ruleset: "capablanca",
        options: &["setup=standard"],
    },
    Alias {
        name: "minishogi",
        ruleset: "minishogi",
        options: &["repetition=sente-loses"],
    },
    Alias {
        name: "torishogi",
        ruleset: "torishogi",
        options: &["swallows-per-file=2", "repetition=repeater-loses"],
    },
];

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
        .ok_or_else(|| VariantError::Unknown(excerpt(id)))?;
    if info.implemented {
        Ok(info)
    } else {
        Err(VariantError::NotImplemented(info.id))
    }
}

/// Runs `visitor` with the position type of ruleset `id`.
pub fn visit<V: Visitor>(id: &str, visitor: V) -> Result<V::Output, VariantError> {
    let info = find(id)?;
    visit_entry(info, visitor).ok_or(VariantError::NotImplemented(info.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaturanga_geometry::Lattice;
    use chaturanga_rules::legend::{DiagramLattice, MarkKind, MarkMode};
    use chaturanga_rules::{Legend, OptionValues, RuleOptions};

    #[test]
    fn the_catalogue_is_in_id_order_and_every_id_is_visited() {
        assert_eq!(CATALOGUE.len(), 29);
        assert!(CATALOGUE.windows(2).all(|w| w[0].id < w[1].id));
        struct Id;
        impl Visitor for Id {
            type Output = &'static str;
            fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> &'static str {
                P::ID
            }
        }
        for info in CATALOGUE {
            assert_eq!(visit(info.id, Id), Ok(info.id));
        }
        assert_eq!(find("normal").map(|v| v.id).ok(), None);
        assert_eq!(
            CATALOGUE
                .iter()
                .find(|v| v.xboard_name() == "normal")
                .map(|v| v.id),
            Some("chess")
        );
    }

    #[test]
    fn every_ruleset_has_a_name_in_every_language() {
        for info in CATALOGUE {
            let languages: Vec<&str> = info.all_names().map(|(lang, _)| lang).collect();
            assert_eq!(languages, words::LANGUAGES, "{}", info.id);
            for (lang, name) in info.all_names() {
                assert!(!name.trim().is_empty(), "{} {lang}", info.id);
                assert_eq!(info.name_in(lang), name);
            }
        }
        let chess = find("chess").unwrap();
        assert_eq!(
            (chess.name_in("hu"), chess.name_in("xx")),
            ("Sakk", "Chess")
        );
    }

    /// A ruleset's option specs.
    struct Specs;

    impl Visitor for Specs {
        type Output = &'static [chaturanga_rules::OptionSpec];
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> Self::Output {
            P::option_specs()
        }
    }

    /// Every text ruleset `id` gives players: the names of its men under every choice of its
    /// options, their moves where told in words, its options' labels and their values' words.
    fn texts_of(id: &str) -> Vec<String> {
        let mut texts = Vec::new();
        for (legend, _) in visit(id, Legends).unwrap() {
            for kind in legend.kinds {
                texts.push(kind.name);
                if kind.moves_in_words {
                    texts.push(kind.moves);
                }
            }
        }
        for spec in visit(id, Specs).unwrap() {
            texts.push(spec.label.to_string());
            texts.extend(spec.words.iter().map(|(_, words)| words.to_string()));
        }
        texts.sort();
        texts.dedup();
        texts
    }

    #[test]
    fn every_word_of_every_ruleset_has_a_translation_and_every_translation_is_used() {
        let texts: Vec<(&str, Vec<String>)> =
            CATALOGUE.iter().map(|v| (v.id, texts_of(v.id))).collect();
        let mut sources = 0;
        for (lang, table, problems) in words::sources() {
            sources += 1;
            assert!(problems.is_empty(), "{lang}: {problems:#?}");
            let mut used = std::collections::BTreeSet::new();
            let mut missing = Vec::new();
            for (id, texts) in &texts {
                for text in texts {
                    match table.find(Some(id), text) {
                        Some((_, entry)) => {
                            used.insert(entry.line);
                        }
                        None => missing.push(format!("{id}: {text}")),
                    }
                }
            }
            assert!(missing.is_empty(), "{lang} has no words for {missing:#?}");
            let mut unused: Vec<_> = table
                .general
                .values()
                .chain(table.by_ruleset.values())
                .filter(|entry| !used.contains(&entry.line))
                .map(|entry| format!("line {}: {}", entry.line, entry.english))
                .collect();
            unused.sort();
            unused.dedup();
            assert!(unused.is_empty(), "{lang}: nothing uses {unused:#?}");
            // A section names rulesets of the registry.
            for entry in table.by_ruleset.values() {
                let id = entry.ruleset.unwrap();
                assert!(find(id).is_ok(), "{lang} line {}: {id}", entry.line);
            }
        }
        assert_eq!(sources + 1, words::LANGUAGES.len());
        // The shogi family's knight is not chess's, and Makarenko's kings are one line.
        assert_eq!(words::translated_for("hu", "chess", "knight"), "huszár");
        assert_eq!(words::translated_for("hu", "shogi", "knight"), "lovas");
        assert_eq!(
            words::translated_for("hu", "makarenko", "king (23 disks)"),
            "király (23 korong)"
        );
        assert_eq!(
            words::translated("hu", "Draw claims"),
            "Döntetlen igénylése"
        );
    }

    /// The men's names of the Hungarian rules pages (`docs/rules/hu/terms-*.tsv`,
    /// `english<TAB>hungarian`, where those files are): the words of the site must name a man
    /// as its rules page does. A name the words have several translations of (chess's and
    /// shogi's knight) must be one of them; a term that is no man's name here (Gess's
    /// `ring`) is the page's own.
    #[test]
    fn the_words_name_the_men_as_the_rules_pages_do() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules");
        for (lang, table, _) in words::sources() {
            let Ok(files) = std::fs::read_dir(dir.join(lang)) else {
                continue;
            };
            for file in files.flatten() {
                let name = file.file_name().to_string_lossy().into_owned();
                if !(name.starts_with("terms-") && name.ends_with(".tsv")) {
                    continue;
                }
                let text = std::fs::read_to_string(file.path()).unwrap();
                for line in text
                    .lines()
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                {
                    let (english, page) = line.split_once('\t').unwrap_or((line, ""));
                    let ours: std::collections::BTreeSet<String> = std::iter::once(None)
                        .chain(CATALOGUE.iter().map(|v| Some(v.id)))
                        .filter_map(|id| table.find(id, english))
                        .map(|(t, _)| t.into_owned())
                        .collect();
                    assert!(
                        ours.is_empty() || ours.iter().any(|t| t == page),
                        "{name}: {english:?} is {page:?} on the rules pages, {ours:?} here"
                    );
                }
            }
        }
    }

    /// Men no picture can show, with the reason.
    const WITHOUT_DIAGRAM: &[(&str, &str, &str)] = &[
        (
            "gess",
            "S",
            "a stone moves only as part of a 3x3 footprint of stones, whose shape decides the move",
        ),
        ("makarenko", "D", "a disk in reserve is placed, never moved"),
        ("taktika", "-R", "a frozen man does not move"),
        ("taktika", "-B", "a frozen man does not move"),
        ("taktika", "-Q", "a frozen man does not move"),
    ];

    /// The legends of a ruleset's start under its default options and under each other
    /// choice of its options that choose among words (Makarenko's tall towers bring men the
    /// default has not), with whether its board is hexagonal.
    struct Legends;

    impl Visitor for Legends {
        type Output = Vec<(Legend, bool)>;
        fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> Self::Output {
            let mut choices = vec![Vec::new()];
            for spec in P::option_specs() {
                if let OptionValues::Choice(words) = spec.values {
                    for word in words.iter().filter(|&&w| w != spec.default) {
                        choices.push(vec![format!("{}={word}", spec.name)]);
                    }
                }
            }
            choices
                .into_iter()
                .filter_map(|items| {
                    let options = RuleOptions::parse(P::option_specs(), &items).ok()?;
                    // Some choices need others (Chess960's start arrays); those are skipped.
                    let position = P::start_position(&options).ok()?;
                    let hex = position
                        .board_geometry()
                        .is_some_and(|g| g.lattice() == Lattice::Hex);
                    Some((position.legend(), hex))
                })
                .collect()
        }
    }

    #[test]
    fn every_man_of_every_ruleset_has_a_diagram_or_a_reason_for_none() {
        let mut drawn = 0;
        for info in CATALOGUE {
            let legends = visit(info.id, Legends).unwrap();
            assert!(!legends.is_empty(), "{}", info.id);
            for (legend, hex) in legends {
                for kind in &legend.kinds {
                    let what = format!("{} {}", info.id, kind.symbol);
                    let excused = WITHOUT_DIAGRAM
                        .iter()
                        .any(|&(id, symbol, _)| (id, symbol) == (info.id, kind.symbol.as_str()));
                    let Some(diagram) = &kind.diagram else {
                        assert!(excused, "{what}: no diagram");
                        continue;
                    };
                    assert!(!excused, "{what}: has a diagram, so it is not excused");
                    drawn += 1;
                    let lattice = if hex {
                        DiagramLattice::Hex
                    } else {
                        DiagramLattice::Square
                    };
                    assert_eq!(diagram.lattice, lattice, "{what}");
                    assert!(!diagram.marks.is_empty(), "{what}: no marks");
                    assert!((2..=5).contains(&diagram.radius), "{what}");
                    for m in &diagram.marks {
                        let far = lattice.distance(m.dx.into(), m.dy.into());
                        assert!(
                            (1..=u32::from(diagram.radius)).contains(&far),
                            "{what}: {m:?} outside radius {}",
                            diagram.radius
                        );
                        if hex {
                            assert_eq!((m.dx + m.dy) % 2, 0, "{what}: {m:?} is not a cell");
                        }
                    }
                }
            }
        }
        assert!(drawn > 400, "{drawn} diagrams");
    }

    /// The default legend's diagram of `symbol` in ruleset `id`.
    fn diagram_of(id: &str, symbol: &str) -> chaturanga_rules::legend::MoveDiagram {
        let (legend, _) = visit(id, Legends).unwrap().remove(0);
        legend.get(symbol).unwrap().diagram.clone().unwrap()
    }

    /// How many marks of `what` a diagram has.
    fn count(diagram: &chaturanga_rules::legend::MoveDiagram, what: MarkKind) -> usize {
        diagram.marks.iter().filter(|m| m.what == what).count()
    }

    #[test]
    fn men_whose_moves_are_code_are_drawn_by_hand() {
        // Lions reach every cell two away or nearer by lion power.
        for (id, lion) in [("chushogi", "N"), ("chushogi", "+O"), ("daishogi", "L!")] {
            let d = diagram_of(id, lion);
            assert_eq!(
                (d.radius, d.marks.len(), count(&d, MarkKind::Lion)),
                (2, 24, 24)
            );
        }
        // The horned falcon: lion power straight ahead, slides elsewhere.
        let falcon = diagram_of("chushogi", "+H");
        let lion: Vec<(i8, i8)> = falcon
            .marks
            .iter()
            .filter(|m| m.what == MarkKind::Lion)
            .map(|m| (m.dx, m.dy))
            .collect();
        assert_eq!(lion, [(0, 2), (0, 1)]);
        assert_eq!(count(&falcon, MarkKind::Slide), 7 * 3);
        let eagle = diagram_of("daishogi", "+D");
        assert_eq!(count(&eagle, MarkKind::Lion), 4);
        assert_eq!(count(&eagle, MarkKind::Slide), 6 * 3);
        // Congo's monkey steps without capturing and captures by hopping.
        let monkey = diagram_of("congo", "M");
        assert_eq!(count(&monkey, MarkKind::Step), 8);
        assert_eq!(count(&monkey, MarkKind::Hop), 8);
        assert!(monkey.marks.iter().all(|m| match m.what {
            MarkKind::Hop => m.mode == MarkMode::Capture && m.dx.abs().max(m.dy.abs()) == 2,
            _ => m.mode == MarkMode::Move,
        }));
        // The crocodile slides towards the river from either side and along it in it.
        let crocodile = diagram_of("congo", "C");
        let zones: Vec<(i8, i8, &str)> = crocodile
            .marks
            .iter()
            .filter_map(|m| Some((m.dx, m.dy, m.zone.as_deref()?)))
            .collect();
        assert_eq!(
            zones,
            [
                (0, 3, "own-side"),
                (0, 2, "own-side"),
                (-3, 0, "river"),
                (-2, 0, "river"),
                (2, 0, "river"),
                (3, 0, "river"),
                (0, -2, "far-side"),
                (0, -3, "far-side"),
            ]
        );
        // Chex writes its own legend; its men move as chess men do.
        let pawn = diagram_of("chex", "P");
        assert_eq!(pawn.marks.len(), 3);
        assert_eq!(count(&diagram_of("chex", "N"), MarkKind::Leap), 8);
    }

    #[test]
    fn hexagonal_men_are_drawn_on_the_hex_lattice() {
        let rook = diagram_of("hexchess", "R");
        assert_eq!(rook.lattice, DiagramLattice::Hex);
        // Six lines, each going on beyond the picture.
        let lines = rook.marks.iter().filter(|m| m.continues).count();
        assert_eq!((lines, count(&rook, MarkKind::Slide)), (6, 18));
        let knight = diagram_of("hexchess", "N");
        assert_eq!(
            (knight.marks.len(), count(&knight, MarkKind::Leap)),
            (12, 12)
        );
        let bishop = diagram_of("hexchess", "B");
        assert_eq!(bishop.marks.iter().filter(|m| m.continues).count(), 6);
        let king = diagram_of("hexchess", "K");
        assert_eq!((king.radius, count(&king, MarkKind::Step)), (2, 12));
        let pawn = diagram_of("hexchess", "P");
        let initial: Vec<(i8, i8)> = pawn
            .marks
            .iter()
            .filter(|m| m.initial)
            .map(|m| (m.dx, m.dy))
            .collect();
        assert_eq!(initial, [(0, 4)]);
    }
}
