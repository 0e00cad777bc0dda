//! Chu shogi (`chushogi`); see `docs/rules/chushogi.md` and `large_shogi.rs`.

use crate::family::piece;
use crate::large_shogi::{self as ls, LargeShogi, LargeShogiPosition, PromotionStyle, Roles};
use chaturanga_rules::standard::SpecError;
use chaturanga_rules::weights::EvalWeights;
use chaturanga_rules::{OptionSpec, OptionValues, PieceType};

/// The chu shogi ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct ChuShogi;

/// A chu shogi position.
pub type ChuShogiPosition = LargeShogiPosition<3, 39, ChuShogi>;

const PROMOTION: OptionSpec = OptionSpec {
    name: "promotion",
    values: OptionValues::Choice(&["seed", "lishogi"]),
    default: "seed",
    help: "seed: promote on entering, by capturing from inside the zone (not pawns), pawns on the last rank; lishogi: also pawns by capture and lances on the last rank",
    label: "Promotion",
    words: &[
        (
            "seed",
            "Men promote on entering the zone or capturing inside it; pawns only on the last rank",
        ),
        (
            "lishogi",
            "As on lishogi: pawns also promote by capturing in the zone, lances on the last rank",
        ),
    ],
};

/// (symbol, name, Betza, promotes to).
const PIECES: [(&str, &str, &str, Option<&str>); 39] = [
    ("K", "king", "K", None),
    ("+E", "crown prince", "K", None),
    ("E", "drunk elephant", "FsfW", Some("+E")),
    ("G", "gold general", "WfF", Some("+G")),
    ("S", "silver general", "FfW", Some("+S")),
    ("C", "copper general", "fFvW", Some("+C")),
    ("F", "ferocious leopard", "FvW", Some("+F")),
    ("T", "blind tiger", "FsbW", Some("+T")),
    ("I", "go-between", "vW", Some("+I")),
    ("P", "pawn", "fW", Some("+P")),
    ("L", "lance", "fR", Some("+L")),
    ("A", "reverse chariot", "vR", Some("+A")),
    ("O", "kirin", "FD", Some("+O")),
    ("X", "phoenix", "WA", Some("+X")),
    ("M", "side mover", "vWsR", Some("+M")),
    ("V", "vertical mover", "sWvR", Some("+V")),
    ("B", "bishop", "B", Some("+B")),
    ("R", "rook", "R", Some("+R")),
    ("H", "dragon horse", "BW", Some("+H")),
    ("D", "dragon king", "RF", Some("+D")),
    ("N", "lion", "KNAD", None),
    ("Q", "free king", "Q", None),
    ("+P", "tokin", "WfF", None),
    ("+I", "drunk elephant (promoted go-between)", "FsfW", None),
    ("+G", "rook (promoted gold)", "R", None),
    ("+S", "vertical mover (promoted silver)", "sWvR", None),
    ("+C", "side mover (promoted copper)", "vWsR", None),
    ("+F", "bishop (promoted leopard)", "B", None),
    ("+T", "flying stag", "FsWvR", None),
    ("+L", "white horse", "vRfB", None),
    ("+A", "whale", "vRbB", None),
    ("+O", "lion (promoted kirin)", "KNAD", None),
    ("+X", "free king (promoted phoenix)", "Q", None),
    ("+M", "free boar", "BsR", None),
    ("+V", "flying ox", "BvR", None),
    ("+B", "dragon horse (promoted bishop)", "BW", None),
    ("+R", "dragon king (promoted rook)", "RF", None),
    ("+H", "horned falcon", "BsRbRfWfD", None),
    ("+D", "soaring eagle", "RbBfFfA", None),
];

/// Western (Hodges) abbreviations by symbol, as the Chu Shogi League and Hodges's *Middle
/// Shogi Manual* write them: a promoted piece is `+` and its unpromoted piece's abbreviation
/// (`+BT` the flying stag, `+DK` the soaring eagle), except the crown prince. Readers also
/// take the spellings in the third column.
const WESTERN: [ls::Abbreviation; 39] = [
    ("K", "K", &[]),
    ("+E", "CP", &["+DE"]),
    ("E", "DE", &[]),
    ("G", "G", &[]),
    ("S", "S", &[]),
    ("C", "C", &[]),
    ("F", "FL", &[]),
    ("T", "BT", &[]),
    ("I", "GB", &[]),
    ("P", "P", &[]),
    ("L", "L", &[]),
    ("A", "RC", &[]),
    ("O", "Kr", &["Ky"]),
    ("X", "Ph", &[]),
    ("M", "SM", &[]),
    ("V", "VM", &[]),
    ("B", "B", &[]),
    ("R", "R", &[]),
    ("H", "DH", &[]),
    ("D", "DK", &[]),
    ("N", "Ln", &[]),
    ("Q", "FK", &[]),
    ("+P", "+P", &[]),
    ("+I", "+GB", &[]),
    ("+G", "+G", &[]),
    ("+S", "+S", &[]),
    ("+C", "+C", &[]),
    ("+F", "+FL", &[]),
    ("+T", "+BT", &[]),
    ("+L", "+L", &[]),
    ("+A", "+RC", &[]),
    ("+O", "+Kr", &["+Ky"]),
    ("+X", "+Ph", &[]),
    ("+M", "+SM", &[]),
    ("+V", "+VM", &[]),
    ("+B", "+B", &[]),
    ("+R", "+R", &[]),
    ("+H", "+DH", &[]),
    ("+D", "+DK", &[]),
];

/// Builds the piece list of a large shogi variant from (symbol, name, Betza, promotion).
pub fn large_pieces(
    table: &[(&str, &str, &str, Option<&str>)],
    royal: &[&str],
    forced: &[(&str, &str)],
) -> Result<Vec<PieceType>, SpecError> {
    table
        .iter()
        .map(|&(symbol, name, betza, promotes)| {
            let mut p = piece(symbol, name, betza)?;
            if royal.contains(&symbol) {
                p = p.royal();
            }
            if let Some(to) = promotes {
                p = p.promotes_in_zone("zone", to);
            }
            if let Some(&(_, region)) = forced.iter().find(|(s, _)| *s == symbol) {
                p = p.must_promote_in(region);
            }
            Ok(p)
        })
        .collect()
}

/// H. G. Muller's chu shogi piece values (the ones his engine HaChu plays with), a pawn being
/// 40 and a lion 1000: by far the most careful estimates published for chu. A promoted piece
/// is valued as the piece it becomes; the royal pieces are valued by the engine.
pub const CHU_VALUES: &[(&str, i32)] = &[
    ("E", 201),
    ("G", 151),
    ("S", 100),
    ("C", 100),
    ("F", 150),
    ("T", 152),
    ("I", 50),
    ("P", 40),
    ("L", 150),
    ("A", 150),
    ("O", 154),
    ("X", 153),
    ("M", 200),
    ("V", 200),
    ("B", 250),
    ("R", 300),
    ("H", 350),
    ("D", 400),
    ("N", 1000),
    ("Q", 600),
    ("+P", 151),
    ("+I", 201),
    ("+G", 300),
    ("+S", 200),
    ("+C", 200),
    ("+F", 250),
    ("+T", 300),
    ("+L", 350),
    ("+A", 250),
    ("+O", 1000),
    ("+X", 600),
    ("+M", 400),
    ("+V", 400),
    ("+B", 350),
    ("+R", 400),
    ("+H", 500),
    ("+D", 550),
];

impl LargeShogi for ChuShogi {
    const ID: &'static str = "chushogi";
    const SIZE: i32 = 12;
    const ZONE: i32 = 4;
    const START: &'static str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";
    const PROMOTION: PromotionStyle = PromotionStyle::Chu;
    const ROLES: Roles = Roles {
        lions: &["N", "+O"],
        falcon: "+H",
        eagle: "+D",
        pawn: "P",
        go_between: "I",
        lance: "L",
    };
    const WESTERN: &'static [ls::Abbreviation] = &WESTERN;

    fn option_specs() -> &'static [OptionSpec] {
        const SPECS: [OptionSpec; 4] = [
            ls::lion_trading("on"),
            PROMOTION,
            ls::BARE_KING,
            ls::REPETITION,
        ];
        &SPECS
    }

    fn pieces() -> Result<Vec<PieceType>, SpecError> {
        large_pieces(&PIECES, &["K", "+E"], &[])
    }

    fn values() -> &'static [(&'static str, i32)] {
        CHU_VALUES
    }

    fn weights() -> Result<EvalWeights, SpecError> {
        crate::weights::family("chushogi")
    }
}
