//! The evaluation weights of each ruleset family, as data: `crates/variants/weights/*.txt`,
//! written by `chaturanga tune` (see `docs/tuning.md`). A family without tuned weights has a
//! file that names none, so its rulesets evaluate with the defaults.

use chaturanga_rules::EvalWeights;
use chaturanga_rules::standard::SpecError;

/// Each family's weights file, by name.
pub const FAMILIES: [(&str, &str); 5] = [
    ("chess", include_str!("../weights/chess.txt")),
    ("chushogi", include_str!("../weights/chushogi.txt")),
    ("minishogi", include_str!("../weights/minishogi.txt")),
    ("shogi", include_str!("../weights/shogi.txt")),
    ("xiangqi", include_str!("../weights/xiangqi.txt")),
];

/// The weights of family `name`, named after it (the defaults, unnamed, for a name without a
/// file).
pub fn family(name: &str) -> Result<EvalWeights, SpecError> {
    match FAMILIES.iter().find(|(family, _)| *family == name) {
        Some((family, text)) => {
            let mut weights = EvalWeights::parse(text).map_err(SpecError::Weights)?;
            weights.family = family.to_string();
            Ok(weights)
        }
        None => Ok(EvalWeights::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_file_reads() {
        for (name, _) in FAMILIES {
            assert!(family(name).is_ok(), "{name}: {:?}", family(name));
        }
        assert_eq!(family("none"), Ok(EvalWeights::default()));
    }
}
