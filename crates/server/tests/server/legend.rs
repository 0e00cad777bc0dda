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
    assert_eq!(piece("makarenko", "D")["moves_in_words"], true);
    assert_eq!(piece("gess", "S")["moves_in_words"], true);
    assert_eq!(piece("hexchess", "R")["diagram"]["lattice"], "hex");
    assert!(piece("gess", "S")["diagram"].is_null());
    assert!(piece("taktika", "-R")["diagram"].is_null());
    // Men only some options bring are listed too: Makarenko's reserve disk and tall kings.
    assert!(!named("makarenko", "D").is_empty());
    assert!(!named("makarenko", "K{47}").is_empty());
}
