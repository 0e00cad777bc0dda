//! `GET /api/variants`: every ruleset with its options, its board drawing and the legend of
//! its men (style, names, moves, move diagrams), as data; computed once, compressed, with an
//! `ETag`.

use super::compressed::{Compressed, tag_of};
use axum::body::Bytes;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use chaturanga_rules::legend::{MarkMode, MoveDiagram};
use chaturanga_rules::scene::Viewer;
use chaturanga_rules::{KindLegend, OptionValues};
use chaturanga_session::{open_table, option_specs};
use chaturanga_variants::CATALOGUE;
use serde_json::{Value, json};
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
                "name": k.name,
                "moves": k.moves,
                "moves_in_words": k.moves_in_words,
                "diagram": k.diagram.as_ref().map(diagram_json),
            })
        })
        .collect();
    Some(json!({
        "id": info.id,
        "name": info.name,
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

/// Every implemented ruleset as JSON, compressed, computed once (the first time takes
/// seconds: [`warm`] does it when the server starts).
fn listing() -> &'static Compressed {
    static LISTING: OnceLock<Compressed> = OnceLock::new();
    LISTING.get_or_init(|| {
        let variants: Vec<Value> = CATALOGUE
            .iter()
            .filter(|v| v.implemented)
            .filter_map(|v| describe(v.id))
            .collect();
        let body = json!({ "variants": variants }).to_string();
        let tag = tag_of(body.as_bytes());
        Compressed::new(Bytes::from(body), "application/json", tag)
    })
}

/// Computes the listing on a blocking thread, so that no visitor waits for it.
pub async fn warm() {
    let _ = tokio::task::spawn_blocking(listing).await;
}

/// `GET /api/variants`.
pub async fn list(headers: HeaderMap) -> Response {
    match tokio::task::spawn_blocking(listing).await {
        Ok(listing) => listing.respond(&headers),
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
