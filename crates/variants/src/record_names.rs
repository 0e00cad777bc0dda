//! What game records call our rulesets: PGN's `Variant` values, written as other programs
//! write them and read in every spelling those programs and our older records use.

use crate::{Alias, CATALOGUE, FAIRY_STOCKFISH_ALIASES, VariantInfo};

/// Other spellings of PGN `Variant` values, each with the value it stands for: python-chess's
/// names of standard chess (lichess writes `From Position` for a game from a FEN) and of
/// antichess.
const SPELLINGS: &[(&str, &str)] = &[
    ("Chess", "Standard"),
    ("Classical", "Standard"),
    ("Normal", "Standard"),
    ("From Position", "Standard"),
    ("Anti chess", "antichess"),
    ("Anti", "antichess"),
    ("Fischerandom", "Chess960"),
    ("Fischer Random", "Chess960"),
    ("Chess 960", "Chess960"),
];

/// Names that game records give our rulesets under rule options, where Fairy-Stockfish's
/// UCI names them otherwise: lichess and python-chess write `Chess960` for chess's Chess960
/// (Fairy-Stockfish plays it as `chess` with `UCI_Chess960`).
const RECORD_ALIASES: &[Alias] = &[Alias {
    name: "Chess960",
    ruleset: "chess",
    options: &["chess960=on"],
}];

/// The aliases whose rule options all hold among `options` (`name=value` items).
fn alias_for(info: &VariantInfo, options: &[String]) -> Option<&'static Alias> {
    RECORD_ALIASES
        .iter()
        .chain(FAIRY_STOCKFISH_ALIASES)
        .find(|a| a.ruleset == info.id && a.options.iter().all(|o| options.iter().any(|g| g == o)))
}

/// The `Variant` value a PGN record of `info` under `options` (`name=value`; those not at
/// their defaults suffice) carries: the name another program gives the ruleset under those
/// options (`Antichess` for losing chess with en passant and king promotion), else
/// [`VariantInfo::pgn`] (`Standard`, `Capablanca`), else the id.
pub fn pgn_variant(info: &VariantInfo, options: &[String]) -> String {
    if let Some(alias) = alias_for(info, options) {
        let mut chars = alias.name.chars();
        return chars.next().map_or_else(String::new, |c| {
            c.to_ascii_uppercase().to_string() + chars.as_str()
        });
    }
    info.pgn.unwrap_or(info.id).to_string()
}

/// The ruleset a PGN `Variant` value names, with the rule options the name implies
/// (`Antichess`: losing chess with `en-passant=on` and `king-promotion=on`). Case does not
/// matter; ids (our older records), [`VariantInfo::pgn`] values, Fairy-Stockfish's names and
/// aliases, English names and python-chess's spellings of standard chess and antichess are
/// read. `None` for a name we do not play (Atomic, Crazyhouse, ...).
pub fn find_pgn_variant(name: &str) -> Option<(&'static VariantInfo, &'static [&'static str])> {
    let name = name.trim();
    let name = SPELLINGS
        .iter()
        .find(|(spelling, _)| spelling.eq_ignore_ascii_case(name))
        .map_or(name, |(_, meant)| meant);
    let same = |other: Option<&str>| other.is_some_and(|o| o.eq_ignore_ascii_case(name));
    if let Some(info) = CATALOGUE
        .iter()
        .filter(|v| v.implemented)
        .find(|v| same(Some(v.id)) || same(v.pgn) || same(v.fairy_stockfish) || same(Some(v.name)))
    {
        return Some((info, &[]));
    }
    let alias = RECORD_ALIASES
        .iter()
        .chain(FAIRY_STOCKFISH_ALIASES)
        .find(|a| a.name.eq_ignore_ascii_case(name))?;
    let info = CATALOGUE
        .iter()
        .find(|v| v.implemented && v.id == alias.ruleset)?;
    Some((info, alias.options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find;

    fn items(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_written_and_read() {
        let chess = find("chess").unwrap();
        assert_eq!(pgn_variant(chess, &[]), "Standard");
        let losing = find("losing").unwrap();
        assert_eq!(pgn_variant(losing, &[]), "losing");
        assert_eq!(
            pgn_variant(
                losing,
                &items(&["en-passant=on", "king-promotion=on", "fide-claims=on"])
            ),
            "Antichess"
        );
        assert_eq!(pgn_variant(losing, &items(&["en-passant=on"])), "losing");
        assert_eq!(pgn_variant(find("capablanca").unwrap(), &[]), "Capablanca");
        for (name, id) in [
            ("Standard", "chess"),
            ("chess", "chess"),
            ("From Position", "chess"),
            ("normal", "chess"),
            ("Capablanca", "capablanca"),
            ("capablanca", "capablanca"),
            ("Grand", "grand"),
            ("Xiangqi", "xiangqi"),
            ("Shogi", "shogi"),
            ("omega", "omega"),
            ("Omega Chess", "omega"),
            ("losing", "losing"),
        ] {
            let (info, options) = find_pgn_variant(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!((info.id, options), (id, &[][..]), "{name}");
        }
        for name in ["Antichess", "antichess", "Anti"] {
            let (info, options) = find_pgn_variant(name).unwrap();
            assert_eq!(info.id, "losing");
            assert_eq!(options, ["en-passant=on", "king-promotion=on"]);
        }
        for name in ["Chess960", "chess960", "Fischerandom", "Chess 960"] {
            let (info, options) = find_pgn_variant(name).unwrap();
            assert_eq!(
                (info.id, options),
                ("chess", &["chess960=on"][..]),
                "{name}"
            );
        }
        assert_eq!(pgn_variant(chess, &items(&["chess960=on"])), "Chess960");
        assert_eq!(pgn_variant(chess, &items(&["chess960=off"])), "Standard");
        for name in ["Atomic", "Crazyhouse", "", "Giveaway"] {
            assert!(find_pgn_variant(name).is_none(), "{name}");
        }
        // Every value we write is read back as its ruleset.
        for info in CATALOGUE.iter().filter(|v| v.implemented) {
            let (found, _) = find_pgn_variant(&pgn_variant(info, &[])).unwrap();
            assert_eq!(found.id, info.id);
        }
    }
}
