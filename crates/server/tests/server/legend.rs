//! `GET /api/variants` gives every ruleset the style of its men and a legend that names every
//! symbol its states may show.

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
    // Men only some options bring are listed too: Makarenko's reserve disk and tall kings.
    assert!(!named("makarenko", "D").is_empty());
    assert!(!named("makarenko", "K{47}").is_empty());
}
