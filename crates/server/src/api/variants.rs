//! `GET /api/variants`: every ruleset with its options and its board drawing, as data.

use crate::error::ApiError;
use axum::Json;
use chaturanga_rules::OptionValues;
use chaturanga_rules::scene::Viewer;
use chaturanga_session::{open_table, option_specs};
use chaturanga_variants::CATALOGUE;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The options of `variant` that the server draws at random and keeps secret.
pub fn secret_option_names(variant: &str) -> Vec<&'static str> {
    secret_option_names_checked(variant)
        .map(|v| v.into_iter().map(|(name, ..)| name).collect())
        .unwrap_or_default()
}

/// The secret options of `variant` with their ranges; an unknown ruleset is an error.
pub fn secret_option_names_checked(
    variant: &str,
) -> Result<Vec<(&'static str, u32, u32)>, ApiError> {
    Ok(option_specs(variant)?
        .iter()
        .filter_map(|spec| match spec.values {
            OptionValues::Seed(lo, hi) => Some((spec.name, lo, hi)),
            _ => None,
        })
        .collect())
}

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
        .filter(|spec| !matches!(spec.values, OptionValues::Seed(..)))
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
    }))
}

/// Every implemented ruleset, computed once.
pub async fn list() -> Json<Value> {
    static LIST: OnceLock<Value> = OnceLock::new();
    let value = LIST.get_or_init(|| {
        let variants: Vec<Value> = CATALOGUE
            .iter()
            .filter(|v| v.implemented)
            .filter_map(|v| describe(v.id))
            .collect();
        json!({ "variants": variants })
    });
    Json(value.clone())
}
