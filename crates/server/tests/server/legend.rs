//! `GET /api/variants` gives every ruleset the style of its men and a legend that names every
//! symbol its states may show, with a diagram of each man's moves where a picture can say
//! them.

use crate::common::Server;
use serde_json::Value;
use std::collections::BTreeSet;

#[test]
fn the_listing_has_a_style_and_a_legend_for_every_ruleset() {
    let server = Server::start("legend");
    let (status, listing) = server.get("/api/variants", None);
    assert_eq!(status, 200);
    let variants = listing["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 29);
    let styles = ["western", "shogi", "xiangqi", "congo", "stones"];
    for v in variants {
        let id = v["id"].as_str().unwrap();
        let style = v["style"]
            .as_str()
            .unwrap_or_else(|| panic!("{id}: no style"));
        assert!(styles.contains(&style), "{id}: {style}");
        let pieces = v["pieces"].as_array().unwrap();
        assert!(!pieces.is_empty(), "{id}");
        let mut symbols = BTreeSet::new();
        for p in pieces {
            let text = |field: &str| p[field].as_str().unwrap_or_default().to_string();
            assert!(symbols.insert(text("symbol")), "{id}: {p} twice");
            assert!(!text("symbol").is_empty(), "{id}: {p}");
            assert!(!text("name").is_empty(), "{id}: {p}");
            assert!(!text("moves").is_empty(), "{id}: {p}");
            let diagram = &p["diagram"];
            if diagram.is_null() {
                continue;
            }
            let radius = diagram["radius"].as_i64().unwrap();
            assert!(["square", "hex"].contains(&diagram["lattice"].as_str().unwrap()));
            let marks = diagram["marks"].as_array().unwrap();
            assert!(!marks.is_empty(), "{id}: {p}");
            for m in marks {
                let (dx, dy) = (m["dx"].as_i64().unwrap(), m["dy"].as_i64().unwrap());
                assert!(dx.abs() <= radius && dy.abs() <= 2 * radius, "{id}: {m}");
                assert!(m["what"].is_string(), "{id}: {m}");
                // Only what departs from the usual is written.
                assert_ne!(m["only"], "move-or-capture", "{id}: {m}");
                assert_ne!(m["initial"], false, "{id}: {m}");
                assert_ne!(m["continues"], false, "{id}: {m}");
            }
        }
    }
    let find = |id: &str| -> &Value { variants.iter().find(|v| v["id"] == id).unwrap() };
    for (id, style) in [
        ("chess", "western"),
        ("shogi", "shogi"),
        ("chushogi", "shogi"),
        ("daishogi", "shogi"),
        ("xiangqi", "xiangqi"),
        ("congo", "congo"),
        ("gess", "stones"),
        ("taktika", "western"),
        ("makarenko", "western"),
        ("threeplayer", "western"),
        ("chex", "western"),
    ] {
        assert_eq!(find(id)["style"], style, "{id}");
    }
    let named = |id: &str, symbol: &str| -> String {
        find(id)["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["symbol"] == symbol)
            .unwrap_or_else(|| panic!("{id}: no {symbol}"))["name"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(named("chess", "N"), "knight");
    assert_eq!(named("shogi", "+P"), "tokin");
    assert_eq!(named("chushogi", "+R"), "dragon king (promoted rook)");
    assert_eq!(named("daishogi", "L!"), "lion");
    assert_eq!(named("xiangqi", "C"), "cannon");
    assert_eq!(named("congo", "M"), "monkey");
    assert_eq!(named("gess", "S"), "stone");
    assert_eq!(named("bughouse", "Q~"), "promoted queen");
    let piece = |id: &str, symbol: &str| -> Value {
        find(id)["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["symbol"] == symbol)
            .unwrap()
            .clone()
    };
    let marks = |id: &str, symbol: &str| -> Vec<Value> {
        piece(id, symbol)["diagram"]["marks"]
            .as_array()
            .unwrap()
            .clone()
    };
    // The knight's eight leaps, exactly as written.
    let knight = piece("chess", "N")["diagram"].clone();
    assert_eq!(knight["lattice"], "square");
    assert_eq!(knight["radius"], 2);
    assert_eq!(
        knight["marks"][0].to_string(),
        r#"{"dx":-1,"dy":2,"what":"leap"}"#
    );
    assert_eq!(knight["marks"].as_array().unwrap().len(), 8);
    // The pawn's double step is an initial move-only lame leap.
    assert_eq!(
        marks("chess", "P")[0].to_string(),
        r#"{"dx":0,"dy":2,"initial":true,"only":"move","what":"lame"}"#
    );
    // The cannon captures by hopping, the rook's lines go on, the soldier steps sideways
    // across the river.
    assert!(
        marks("xiangqi", "C")
            .iter()
            .any(|m| m["what"] == "hop" && m["only"] == "capture")
    );
    assert_eq!(
        marks("xiangqi", "R")
            .iter()
            .filter(|m| m["continues"] == true)
            .count(),
        4
    );
    assert!(
        marks("xiangqi", "P")
            .iter()
            .any(|m| m["zone"] == "across-river")
    );
    assert!(marks("chushogi", "N").iter().all(|m| m["what"] == "lion"));
    // Betza is for developers: the listing says which moves are words a player reads.
    assert_eq!(piece("chess", "N")["moves_in_words"], false);
    // The key clients draw a man by is his English name, in every language.
    assert_eq!(piece("chess", "N")["key"], "knight");
    assert_eq!(piece("makarenko", "D")["moves_in_words"], true);
    assert_eq!(piece("gess", "S")["moves_in_words"], true);
    assert_eq!(piece("hexchess", "R")["diagram"]["lattice"], "hex");
    assert!(piece("gess", "S")["diagram"].is_null());
    assert!(piece("taktika", "-R")["diagram"].is_null());
    // Men only some options bring are listed too: Makarenko's reserve disk and tall kings.
    assert!(!named("makarenko", "D").is_empty());
    assert!(!named("makarenko", "K{47}").is_empty());
}

#[test]
fn the_listing_in_hungarian_has_every_word_for_players_in_hungarian_and_the_rest_as_in_english() {
    use chaturanga_variants::words::translated_for;
    let server = Server::start("legend-hu");
    let (_, english) = server.get("/api/variants", None);
    let (status, hungarian) = server.get("/api/variants?lang=hu", None);
    assert_eq!(status, 200);
    assert_eq!(
        (&english["lang"], &hungarian["lang"]),
        (&"en".into(), &"hu".into())
    );
    let english = english["variants"].as_array().unwrap();
    let hungarian = hungarian["variants"].as_array().unwrap();
    assert_eq!(english.len(), hungarian.len());
    for (en, hu) in english.iter().zip(hungarian) {
        let id = en["id"].as_str().unwrap();
        assert_eq!(en["names"], hu["names"], "{id}");
        assert_eq!(en["name"], en["names"]["en"], "{id}");
        assert_eq!(hu["name"], hu["names"]["hu"], "{id}");
        // What changes is the words, each as the table has it; everything else is the same.
        let mut expected = en.clone();
        let words = |value: &mut Value| {
            let english = value.as_str().unwrap().to_string();
            let translated = translated_for("hu", id, &english);
            assert_ne!(translated, "", "{id}: {english}");
            *value = Value::from(translated.as_ref());
        };
        expected["name"] = hu["names"]["hu"].clone();
        for piece in expected["pieces"].as_array_mut().unwrap() {
            words(&mut piece["name"]);
            if piece["moves_in_words"] == true {
                words(&mut piece["moves"]);
            }
        }
        for option in expected["options"].as_array_mut().unwrap() {
            words(&mut option["label"]);
            for pair in option["words"].as_array_mut().unwrap() {
                words(&mut pair[1]);
            }
        }
        assert_eq!(&expected, hu, "{id}");
    }
    let find = |id: &str| -> &Value { hungarian.iter().find(|v| v["id"] == id).unwrap() };
    let piece = |id: &str, symbol: &str| -> Value {
        find(id)["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["symbol"] == symbol)
            .unwrap()
            .clone()
    };
    assert_eq!(find("xiangqi")["name"], "Hsziangcsi");
    assert_eq!(piece("chess", "N")["name"], "huszár");
    // Drawn by his English name whatever the language.
    assert_eq!(piece("chess", "N")["key"], "knight");
    assert_eq!(piece("shogi", "N")["name"], "lovas");
    assert_eq!(piece("makarenko", "K{12}")["name"], "király (12 korong)");
    assert_eq!(piece("chess", "N")["moves"], "N");
    let claims = &find("chess")["options"][0];
    assert_eq!(claims["label"], "Döntetlen igénylése");
    assert_eq!(claims["name"], "fide-claims");
    // A region's tag is its language; an unknown or odd one is English, never an error.
    let (_, regional) = server.get("/api/variants?lang=hu-HU", None);
    assert_eq!(regional["lang"], "hu");
    for odd in ["de", "zh-Hant-TW", "%zz", "", "x&lang"] {
        let (status, listing) = server.get(&format!("/api/variants?lang={odd}"), None);
        assert_eq!((status, &listing["lang"]), (200, &"en".into()), "{odd}");
    }
}
