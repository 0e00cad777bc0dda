//! `GET /api/variants?lang=L`: every ruleset with its options, its board drawing and the
//! legend of its men (style, names, moves, move diagrams), as data, its words in language
//! `L` (English by default); computed once per language, compressed, with an `ETag`.

use super::compressed::{Compressed, tag_of};
use axum::body::Bytes;
use axum::extract::RawQuery;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chaturanga_rules::legend::{MarkMode, MoveDiagram};
use chaturanga_rules::scene::Viewer;
use chaturanga_rules::{KindLegend, OptionValues};
use chaturanga_session::{open_table, option_specs};
use chaturanga_variants::CATALOGUE;
use chaturanga_variants::words::{LANGUAGES, language, translated_for};
use serde_json::{Map, Value, json};
use std::sync::OnceLock;

fn describe(id: &str) -> Option<Value> {
    let info = CATALOGUE.iter().find(|v| v.id == id)?;
    let table = open_table(id, &[], None).ok()?;
    let scene = table.scene(Viewer::Arbiter);
    let boards: Vec<Value> = scene
        .boards
        .iter()
        .map(|b| serde_json::from_str(&b.shape.geometry().to_json()).unwrap_or(Value::Null))
        .collect();
    let options: Vec<Value> = option_specs(id)
        .ok()?
        .iter()
        .filter(|spec| !matches!(spec.values, OptionValues::Seed))
        .map(|spec| {
            let values = match spec.values {
                OptionValues::Choice(words) => json!(words),
                _ => json!(spec.values.describe("|")),
            };
            json!({
                "name": spec.name,
                "values": values,
                "default": spec.default,
                "help": spec.help,
                "label": spec.label,
                "words": spec.words.iter().map(|&(value, words)| json!([value, words])).collect::<Vec<_>>(),
            })
        })
        .collect();
    let legend = table.legend();
    let pieces: Vec<Value> = every_kind(id, legend.kinds)
        .iter()
        .map(|k| {
            json!({
                "symbol": k.symbol,
                // The English name in every language: what clients draw the man by.
                "key": k.name,
                "name": k.name,
                "moves": k.moves,
                "moves_in_words": k.moves_in_words,
                "diagram": k.diagram.as_ref().map(diagram_json),
            })
        })
        .collect();
    let names: Map<String, Value> = info
        .all_names()
        .map(|(lang, name)| (lang.to_string(), json!(name)))
        .collect();
    Some(json!({
        "id": info.id,
        "name": info.name,
        "names": names,
        "players": table.players(),
        "player_names": (0..table.players()).map(|p| table.player_name(p)).collect::<Vec<_>>(),
        "teams": (0..table.players()).map(|p| table.team(p)).collect::<Vec<_>>(),
        "options": options,
        "records": table.record_formats().iter().map(|f| f.extension()).collect::<Vec<_>>(),
        "boards": boards,
        // The start position as a state's `boards` show it: the lobby's picture of the game.
        "start": serde_json::to_value(crate::wire::Boards(&scene.boards)).unwrap_or(Value::Null),
        "style": legend.style.name(),
        "pieces": pieces,
    }))
}

/// A move diagram as `{lattice, radius, marks}`, each mark `{dx, dy, what}` with only what
/// departs from the usual: `only` (`move` or `capture`), `initial`, `continues` (each only
/// when true) and `zone`. Chu and dai shogi list some 90 men with a diagram each, so the
/// usual is left out rather than repeated.
fn diagram_json(diagram: &MoveDiagram) -> Value {
    let marks: Vec<Value> = diagram
        .marks
        .iter()
        .map(|m| {
            let mut mark = json!({ "dx": m.dx, "dy": m.dy, "what": m.what.name() });
            if m.mode != MarkMode::MoveOrCapture {
                mark["only"] = json!(m.mode.name());
            }
            if m.initial {
                mark["initial"] = json!(true);
            }
            if m.continues {
                mark["continues"] = json!(true);
            }
            if let Some(zone) = &m.zone {
                mark["zone"] = json!(zone);
            }
            mark
        })
        .collect();
    json!({
        "lattice": diagram.lattice.name(),
        "radius": diagram.radius,
        "marks": marks,
    })
}

/// The legend entries of the default options (`kinds`), then those only other choices of an
/// option bring (Makarenko's taller towers and reserve disk): a game may be created with any
/// options, and the browser draws its men from this listing alone.
fn every_kind(id: &str, mut kinds: Vec<KindLegend>) -> Vec<KindLegend> {
    let Ok(specs) = option_specs(id) else {
        return kinds;
    };
    for spec in specs {
        let OptionValues::Choice(words) = spec.values else {
            continue;
        };
        for word in words.iter().filter(|&&w| w != spec.default) {
            let Ok(other) = open_table(id, &[format!("{}={word}", spec.name)], None) else {
                continue;
            };
            for kind in other.legend().kinds {
                if kinds.iter().all(|k| k.symbol != kind.symbol) {
                    kinds.push(kind);
                }
            }
        }
    }
    kinds
}

/// Every implemented ruleset as JSON in language `lang` (a code of [`LANGUAGES`]),
/// compressed, computed once per language. The English listing is built from the rulesets
/// (the first time takes seconds: [`warm`] does it when the server starts); another
/// language's is the English one with its words replaced, which takes milliseconds.
fn listing(lang: &'static str) -> &'static Compressed {
    static LISTINGS: [OnceLock<Compressed>; LANGUAGES.len()] =
        [const { OnceLock::new() }; LANGUAGES.len()];
    let at = LANGUAGES.iter().position(|&l| l == lang).unwrap_or(0);
    LISTINGS[at].get_or_init(|| {
        let body = if at == 0 {
            let variants: Vec<Value> = CATALOGUE
                .iter()
                .filter(|v| v.implemented)
                .filter_map(|v| describe(v.id))
                .collect();
            json!({ "lang": LANGUAGES[0], "variants": variants }).to_string()
        } else {
            let mut english: Value =
                serde_json::from_slice(listing(LANGUAGES[0]).body()).unwrap_or(Value::Null);
            english["lang"] = json!(lang);
            if let Some(variants) = english["variants"].as_array_mut() {
                variants.iter_mut().for_each(|v| localize(v, lang));
            }
            english.to_string()
        };
        let tag = tag_of(body.as_bytes());
        Compressed::new(Bytes::from(body), "application/json", tag)
    })
}

/// Puts one ruleset's English description (of [`describe`]) into language `lang`: its
/// `name`, its men's names and moves in words, its options' labels and words. What is no
/// word for players stays (ids, symbols, Betza, option values, `help`, which is for
/// developers), and a word without a translation stays English.
fn localize(variant: &mut Value, lang: &str) {
    let id = variant["id"].as_str().unwrap_or_default().to_string();
    let words = |value: &mut Value| {
        if let Some(english) = value.as_str() {
            *value = json!(translated_for(lang, &id, english));
        }
    };
    if let Some(name) = variant["names"].get(lang).cloned() {
        variant["name"] = name;
    }
    for piece in variant["pieces"].as_array_mut().into_iter().flatten() {
        words(&mut piece["name"]);
        if piece["moves_in_words"] == json!(true) {
            words(&mut piece["moves"]);
        }
    }
    for option in variant["options"].as_array_mut().into_iter().flatten() {
        words(&mut option["label"]);
        for pair in option["words"].as_array_mut().into_iter().flatten() {
            words(&mut pair[1]);
        }
    }
}

/// Computes the English listing on a blocking thread, so that no visitor waits for it.
pub async fn warm() {
    let _ = tokio::task::spawn_blocking(|| listing(LANGUAGES[0])).await;
}

/// Longest `lang` value looked at: a language tag is short, and anything longer is no
/// language of ours.
const MAX_LANG: usize = 35;

/// The language a query string's `lang` asks for: a language of [`LANGUAGES`] by its code
/// or any tag of it (`hu`, `hu-HU`, `HU`), English otherwise. An unknown or malformed value
/// is no error: a client may pass the browser's language as it is and get English.
fn asked_language(query: Option<&str>) -> &'static str {
    query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .filter_map(|pair| pair.strip_prefix("lang="))
        .find(|value| value.len() <= MAX_LANG)
        .and_then(language)
        .unwrap_or(LANGUAGES[0])
}

/// `GET /api/variants`.
pub async fn list(headers: HeaderMap, RawQuery(query): RawQuery) -> Response {
    let lang = asked_language(query.as_deref());
    match tokio::task::spawn_blocking(move || listing(lang)).await {
        Ok(listing) => {
            let mut response = listing.respond(&headers);
            response
                .headers_mut()
                .insert(header::CONTENT_LANGUAGE, HeaderValue::from_static(lang));
            response
        }
        Err(_) => super::ApiError::internal("the ruleset listing failed").into_response(),
    }
}

/// Whether `id` names a ruleset this server plays.
pub fn is_ruleset(id: &str) -> bool {
    CATALOGUE.iter().any(|v| v.id == id && v.implemented)
}

/// What the players of ruleset `id` are called (`white`, `black`: seat n plays player n),
/// read from its table once per ruleset (the names do not depend on the options); empty for
/// an id that is no ruleset this server plays.
pub fn player_names(id: &str) -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<OnceLock<Vec<&'static str>>>> = OnceLock::new();
    let Some(index) = CATALOGUE.iter().position(|v| v.id == id && v.implemented) else {
        return &[];
    };
    let slots = NAMES.get_or_init(|| CATALOGUE.iter().map(|_| OnceLock::new()).collect());
    slots[index].get_or_init(|| match open_table(id, &[], None) {
        Ok(table) => (0..table.players()).map(|p| table.player_name(p)).collect(),
        Err(_) => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_is_read_from_the_query_and_anything_else_is_english() {
        assert_eq!(asked_language(None), "en");
        assert_eq!(asked_language(Some("lang=hu")), "hu");
        assert_eq!(asked_language(Some("x=1&lang=hu-HU")), "hu");
        for odd in [
            "lang=",
            "lang=de",
            "lang=zh-Hant-TW",
            "lang=%68%75",
            "lang=hu%00",
            "language=hu",
            "lang",
        ] {
            assert_eq!(asked_language(Some(odd)), "en", "{odd}");
        }
        let long = format!("lang=hu-{}", "x".repeat(MAX_LANG));
        assert_eq!(asked_language(Some(&long)), "en");
    }

    #[test]
    fn a_localized_ruleset_has_its_words_in_the_language_and_the_rest_as_it_was() {
        let mut variant = json!({
            "id": "shogi",
            "name": "Shogi",
            "names": {"en": "Shogi", "hu": "Sógi"},
            "pieces": [
                {"symbol": "N", "name": "knight", "moves": "fN", "moves_in_words": false},
                {"symbol": "X", "name": "no such man", "moves": "lion: two king steps in one move (capturing on either or both, returning to the start, or passing), or a leap to any cell two away", "moves_in_words": true},
            ],
            "options": [{
                "name": "max-plies",
                "label": "Move limit",
                "help": "plies after which the game is drawn",
                "words": [["0", "No move limit"], ["*", "Drawn after {} plies, once the player to move is not in check"]],
            }],
        });
        localize(&mut variant, "hu");
        assert_eq!(variant["name"], "Sógi");
        assert_eq!(variant["names"]["en"], "Shogi");
        assert_eq!(variant["pieces"][0]["name"], "lovas");
        assert_eq!(variant["pieces"][0]["moves"], "fN");
        assert_eq!(variant["pieces"][1]["name"], "no such man");
        assert!(
            variant["pieces"][1]["moves"]
                .as_str()
                .unwrap()
                .starts_with("oroszlán:")
        );
        let option = &variant["options"][0];
        assert_eq!(option["label"], "Lépéskorlát");
        assert_eq!(option["help"], "plies after which the game is drawn");
        assert_eq!(option["words"][0], json!(["0", "Nincs lépéskorlát"]));
        assert!(
            option["words"][1][1]
                .as_str()
                .unwrap()
                .starts_with("{} féllépés")
        );
    }
}
