//! The words the rulesets give players, in languages other than English: the names of the
//! men, the moves told in words, the rule options' labels and what each value means.
//!
//! The rulesets write these in English (`KindLegend::name`, `OptionSpec::label`, ...); a
//! translation is data, one file per language that a translator edits without touching
//! code: `crates/variants/words/<lang>.tsv`, embedded at build time and read once. The file
//! is keyed by the English text, as gettext's catalogues are:
//!
//! ```text
//! # a comment
//! king<TAB>király
//! Drawn after {} plies<TAB>{} féllépés után döntetlen
//! [shogi daishogi]
//! knight<TAB>lovas
//! ```
//!
//! - one entry a line, the English text, a tab, the translation; blank lines and lines
//!   starting with `#` are skipped;
//! - `{}` stands for a value filled in later (an option's number); the translation keeps as
//!   many as the English has;
//! - a line `[id id ...]` starts a section whose entries hold only for those rulesets, where
//!   one English word needs two translations (chess's knight is a `huszár`, shogi's a
//!   `lovas`); `[*]` goes back to entries for every ruleset;
//! - a text with one number in it that has no entry of its own is looked up with `{}` for
//!   the number (`king (9 disks)` as `king ({} disks)`), so Makarenko's forty heights of
//!   king take one line.
//!
//! A text without an entry stays English. The tests (`lib.rs`) check that every name, move
//! in words, label and value's words of every ruleset has an entry in every language, and
//! that no entry is left that nothing uses.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The languages the rulesets' words are offered in, English first. A language here has a
/// name for every ruleset in the registry (`VariantInfo::names`) and a file of words.
pub const LANGUAGES: &[&str] = &["en", "hu"];

/// Each language's file of words (English has none: it is the key).
const SOURCES: &[(&str, &str)] = &[("hu", include_str!("../words/hu.tsv"))];

/// The language a tag names, if this crate has words for it: `hu`, `HU`, `hu-HU`, `hu_HU`
/// are Hungarian (the primary subtag, in any case). Anything else, however long or odd, is
/// `None`, so the caller can fall back to English without further checks.
pub fn language(tag: &str) -> Option<&'static str> {
    let primary = tag.split(['-', '_']).next()?;
    LANGUAGES
        .iter()
        .find(|lang| lang.eq_ignore_ascii_case(primary))
        .copied()
}

/// One language's table.
#[derive(Debug, Default)]
pub(crate) struct Table {
    /// Entries for every ruleset, by their English.
    pub(crate) general: HashMap<&'static str, Entry>,
    /// Entries for one ruleset, by (ruleset id, English).
    pub(crate) by_ruleset: HashMap<(&'static str, &'static str), Entry>,
}

/// One line of a file of words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Entry {
    /// The ruleset of its section, `None` for every ruleset.
    pub(crate) ruleset: Option<&'static str>,
    /// The English text.
    pub(crate) english: &'static str,
    /// The translation.
    pub(crate) translation: &'static str,
    /// Its line in the file, which a section's entries for several rulesets share.
    pub(crate) line: usize,
}

impl Table {
    /// Reads a file of words, with a line for each problem (a line without a tab, an empty
    /// side, an entry given twice, `{}` counts that differ). A problem line is left out.
    pub(crate) fn parse(text: &'static str) -> (Table, Vec<String>) {
        let mut table = Table::default();
        let mut problems = Vec::new();
        // `None`: entries for every ruleset.
        let mut section: Option<Vec<&'static str>> = None;
        for (n, line) in text.lines().enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let n = n + 1;
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(ids) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                let ids: Vec<&'static str> = ids.split_whitespace().collect();
                section = match ids.as_slice() {
                    ["*"] => None,
                    [] => {
                        problems.push(format!("line {n}: a section names no ruleset"));
                        None
                    }
                    _ => Some(ids),
                };
                continue;
            }
            let Some((english, translation)) = line.split_once('\t') else {
                problems.push(format!("line {n}: no tab between English and translation"));
                continue;
            };
            if english.trim().is_empty() || translation.trim().is_empty() {
                problems.push(format!("line {n}: an empty side"));
                continue;
            }
            if english.trim() != english || translation.trim() != translation {
                problems.push(format!("line {n}: spaces around a side"));
                continue;
            }
            if english.matches("{}").count() != translation.matches("{}").count() {
                problems.push(format!("line {n}: the `{{}}` differ: {english:?}"));
                continue;
            }
            let entry = |ruleset| Entry {
                ruleset,
                english,
                translation,
                line: n,
            };
            let repeated = match &section {
                None => table.general.insert(english, entry(None)).is_some(),
                Some(ids) => ids.iter().fold(false, |repeated, &id| {
                    let given = table.by_ruleset.insert((id, english), entry(Some(id)));
                    given.is_some() || repeated
                }),
            };
            if repeated {
                problems.push(format!("line {n}: {english:?} is given twice"));
            }
        }
        (table, problems)
    }

    /// The translation of `english` for ruleset `ruleset` (any ruleset's where `None`), with
    /// the entry it came from.
    pub(crate) fn find<'a>(
        &self,
        ruleset: Option<&str>,
        english: &'a str,
    ) -> Option<(Cow<'a, str>, Entry)> {
        let exact = |text: &str| -> Option<Entry> {
            ruleset
                .and_then(|id| self.by_ruleset.get(&(id, text)))
                .or_else(|| self.general.get(text))
                .copied()
        };
        if let Some(entry) = exact(english) {
            return Some((Cow::Borrowed(entry.translation), entry));
        }
        // One number, looked up as `{}` and put back.
        let start = english.find(|c: char| c.is_ascii_digit())?;
        let len = english[start..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(english.len() - start);
        let number = &english[start..start + len];
        let rest = &english[start + len..];
        if rest.contains(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let template = format!("{}{{}}{rest}", &english[..start]);
        let entry = exact(&template)?;
        let filled = entry.translation.replacen("{}", number, 1);
        Some((Cow::Owned(filled), entry))
    }
}

/// The table of `lang`, read the first time it is asked for; `None` for English and for
/// languages without words.
pub(crate) fn table(lang: &str) -> Option<&'static Table> {
    static TABLES: OnceLock<Vec<Table>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        SOURCES
            .iter()
            .map(|(_, text)| Table::parse(text).0)
            .collect()
    });
    let at = SOURCES.iter().position(|(l, _)| *l == lang)?;
    tables.get(at)
}

/// The files of words, each language's with its problems (for the tests).
#[cfg(test)]
pub(crate) fn sources() -> impl Iterator<Item = (&'static str, Table, Vec<String>)> {
    SOURCES.iter().map(|(lang, text)| {
        let (table, problems) = Table::parse(text);
        (*lang, table, problems)
    })
}

/// `english` in language `lang` (a code of [`LANGUAGES`]) where the words of that language
/// have an entry for every ruleset, else `english` itself: English, unknown languages and
/// texts without an entry fall back to the English.
pub fn translated<'a>(lang: &str, english: &'a str) -> &'a str {
    match table(lang).and_then(|t| t.general.get(english)) {
        Some(entry) => entry.translation,
        None => english,
    }
}

/// `english`, a word of ruleset `ruleset` (a man's name, its moves in words, an option's
/// label or a value's words), in language `lang`: the ruleset's own entry, else the entry for
/// every ruleset, else the text with its one number looked up as `{}`; English where none
/// is found.
pub fn translated_for<'a>(lang: &str, ruleset: &str, english: &'a str) -> Cow<'a, str> {
    table(lang)
        .and_then(|t| t.find(Some(ruleset), english))
        .map_or(Cow::Borrowed(english), |(t, _)| t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_is_its_primary_subtag_in_any_case() {
        for tag in ["hu", "HU", "hu-HU", "hu_hu", "Hu-x-private"] {
            assert_eq!(language(tag), Some("hu"), "{tag}");
        }
        assert_eq!(language("en-GB"), Some("en"));
        for tag in [
            "",
            "-",
            "hun",
            "de",
            "zh-Hant-TW",
            "h\u{fc}",
            &"x".repeat(10_000),
        ] {
            assert_eq!(language(tag), None, "{tag}");
        }
    }

    #[test]
    fn sections_numbers_and_fallbacks() {
        let text = "# comment\n\nking\tkirály\nking ({} disks)\tkirály ({} korong)\n\
                    knight\thuszár\n[shogi daishogi]\nknight\tlovas\n[*]\npawn\tgyalog\n";
        let (table, problems) = Table::parse(text);
        assert!(problems.is_empty(), "{problems:?}");
        let find = |ruleset, english| table.find(ruleset, english).map(|(t, _)| t.into_owned());
        assert_eq!(find(Some("chess"), "knight").as_deref(), Some("huszár"));
        assert_eq!(find(Some("shogi"), "knight").as_deref(), Some("lovas"));
        assert_eq!(find(Some("daishogi"), "knight").as_deref(), Some("lovas"));
        assert_eq!(find(None, "knight").as_deref(), Some("huszár"));
        assert_eq!(find(Some("shogi"), "pawn").as_deref(), Some("gyalog"));
        assert_eq!(
            find(Some("makarenko"), "king (19 disks)").as_deref(),
            Some("király (19 korong)")
        );
        assert_eq!(find(None, "king (1 2 disks)"), None);
        assert_eq!(find(None, "queen"), None);
        // The public lookups fall back to the English.
        assert_eq!(translated("en", "king"), "king");
        assert_eq!(translated("xx", "king"), "king");
        assert_eq!(translated_for("de", "chess", "king"), "king");
    }

    #[test]
    fn problems_are_named_by_line() {
        let text = "king\n\tx\nking\tkirály\nking\tkirály\nDrawn after {} plies\tdöntetlen\n[]\n \
                    pawn\tgyalog\n";
        let (_, problems) = Table::parse(text);
        assert_eq!(problems.len(), 6, "{problems:?}");
        assert!(problems[0].starts_with("line 1:"), "{problems:?}");
        assert!(problems[2].contains("twice"), "{problems:?}");
        assert!(problems[3].contains("{}"), "{problems:?}");
    }
}
