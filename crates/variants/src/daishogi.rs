//! Dai shogi (`daishogi`); see `docs/rules/daishogi.md` and `large_shogi.rs`.

use crate::chushogi::large_pieces;
use crate::large_shogi::{self as ls, LargeShogi, LargeShogiPosition, PromotionStyle, Roles};
use chaturanga_rules::standard::SpecError;
use chaturanga_rules::{OptionSpec, PieceType};

/// The dai shogi ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct DaiShogi;

/// A dai shogi position.
pub type DaiShogiPosition = LargeShogiPosition<4, 55, DaiShogi>;

/// (symbol, name, Betza, promotes to), HaChu's codes.
const PIECES: [(&str, &str, &str, Option<&str>); 55] = [
    ("K", "king", "K", None),
    ("+E", "crown prince", "K", None),
    ("E", "drunk elephant", "FsfW", Some("+E")),
    ("G", "gold general", "WfF", Some("+G")),
    ("S", "silver general", "FfW", Some("+S")),
    ("C", "copper general", "fFvW", Some("+C")),
    ("I", "iron general", "fK", Some("+I")),
    ("U", "stone general", "fF", Some("+U")),
    ("N", "knight", "ffN", Some("+N")),
    ("A'", "angry boar", "W", Some("+A'")),
    ("C'", "cat sword", "F", Some("+C'")),
    ("W", "evil wolf", "fFfsW", Some("+W")),
    ("X'", "violent ox", "W2", Some("+X'")),
    ("F'", "flying dragon", "F2", Some("+F'")),
    ("F", "ferocious leopard", "FvW", Some("+F")),
    ("T", "blind tiger", "FsbW", Some("+T")),
    ("P'", "go-between", "vW", Some("+P'")),
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
    ("L!", "lion", "KNAD", None),
    ("Q", "free king", "Q", None),
    ("+G", "rook (promoted gold)", "R", None),
    ("+S", "vertical mover (promoted silver)", "sWvR", None),
    ("+C", "side mover (promoted copper)", "vWsR", None),
    ("+I", "gold (promoted iron general)", "WfF", None),
    ("+U", "gold (promoted stone general)", "WfF", None),
    ("+N", "gold (promoted knight)", "WfF", None),
    ("+A'", "gold (promoted angry boar)", "WfF", None),
    ("+C'", "gold (promoted cat sword)", "WfF", None),
    ("+W", "gold (promoted evil wolf)", "WfF", None),
    ("+X'", "gold (promoted violent ox)", "WfF", None),
    ("+F'", "gold (promoted flying dragon)", "WfF", None),
    ("+F", "bishop (promoted leopard)", "B", None),
    ("+T", "flying stag", "FsWvR", None),
    ("+P'", "drunk elephant (promoted go-between)", "FsfW", None),
    ("+P", "tokin", "WfF", None),
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

/// Western (Hodges) abbreviations by symbol: chu shogi's for the pieces the games share, and
/// for dai's own those of the English literature (Wikipedia's "Dai shogi"): I iron general,
/// St stone general, N knight, AB angry boar, CS cat sword, EW evil wolf, VO violent ox, FD
/// flying dragon (chosen from that article's style without a copy of it at hand; other
/// texts may write IG or SG for the two generals). A promoted piece is `+` and its
/// unpromoted piece's abbreviation (`+St`, `+AB`), except the crown prince. Readers also take
/// the spellings in the third column.
const WESTERN: [ls::Abbreviation; 55] = [
    ("K", "K", &[]),
    ("+E", "CP", &["+DE"]),
    ("E", "DE", &[]),
    ("G", "G", &[]),
    ("S", "S", &[]),
    ("C", "C", &[]),
    ("I", "I", &[]),
    ("U", "St", &[]),
    ("N", "N", &[]),
    ("A'", "AB", &[]),
    ("C'", "CS", &[]),
    ("W", "EW", &[]),
    ("X'", "VO", &[]),
    ("F'", "FD", &[]),
    ("F", "FL", &[]),
    ("T", "BT", &[]),
    ("P'", "GB", &[]),
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
    ("L!", "Ln", &[]),
    ("Q", "FK", &[]),
    ("+G", "+G", &[]),
    ("+S", "+S", &[]),
    ("+C", "+C", &[]),
    ("+I", "+I", &[]),
    ("+U", "+St", &[]),
    ("+N", "+N", &[]),
    ("+A'", "+AB", &[]),
    ("+C'", "+CS", &[]),
    ("+W", "+EW", &[]),
    ("+X'", "+VO", &[]),
    ("+F'", "+FD", &[]),
    ("+F", "+FL", &[]),
    ("+T", "+BT", &[]),
    ("+P'", "+GB", &[]),
    ("+P", "+P", &[]),
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

/// H. G. Muller's values for the dai shogi pieces (those of chu as in
/// [`crate::chushogi::CHU_VALUES`], and his estimates for the dai-only pieces), a pawn being
/// 40; a promoted piece is valued as the piece it becomes.
const DAI_VALUES: &[(&str, i32)] = &[
    ("E", 201),
    ("G", 151),
    ("S", 100),
    ("C", 100),
    ("I", 80),
    ("U", 50),
    ("N", 60),
    ("A'", 60),
    ("C'", 70),
    ("W", 80),
    ("X'", 200),
    ("F'", 150),
    ("F", 150),
    ("T", 152),
    ("P'", 50),
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
    ("L!", 1000),
    ("Q", 600),
    ("+G", 300),
    ("+S", 200),
    ("+C", 200),
    ("+I", 151),
    ("+U", 151),
    ("+N", 151),
    ("+A'", 151),
    ("+C'", 151),
    ("+W", 151),
    ("+X'", 151),
    ("+F'", 151),
    ("+F", 250),
    ("+T", 300),
    ("+P'", 201),
    ("+P", 151),
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

impl LargeShogi for DaiShogi {
    const ID: &'static str = "daishogi";
    const SIZE: i32 = 15;
    const ZONE: i32 = 5;
    const START: &'static str = "lnuicsgkgsciunl/a1c'1f1tet1f1c'1a/1x'1a'1wxl!ow1a'1x'1/rf'mvbhdqdhbvmf'r/ppppppppppppppp/4p'5p'4/15/15/15/4P'5P'4/PPPPPPPPPPPPPPP/RF'MVBHDQDHBVMF'R/1X'1A'1WOL!XW1A'1X'1/A1C'1F1TET1F1C'1A/LNUICSGKGSCIUNL b - 1";
    const PROMOTION: PromotionStyle = PromotionStyle::Shogi;
    const ROLES: Roles = Roles {
        lions: &["L!", "+O"],
        falcon: "+H",
        eagle: "+D",
        pawn: "P",
        go_between: "P'",
        lance: "L",
    };
    const WESTERN: &'static [ls::Abbreviation] = &WESTERN;

    fn option_specs() -> &'static [OptionSpec] {
        const SPECS: [OptionSpec; 3] = [ls::lion_trading("off"), ls::BARE_KING, ls::REPETITION];
        &SPECS
    }

    fn values() -> &'static [(&'static str, i32)] {
        DAI_VALUES
    }

    fn pieces() -> Result<Vec<PieceType>, SpecError> {
        large_pieces(
            &PIECES,
            &["K", "+E"],
            &[
                ("P", "last-rank"),
                ("L", "last-rank"),
                ("I", "last-rank"),
                ("U", "last-rank"),
                ("N", "last-two"),
            ],
        )
    }
}
