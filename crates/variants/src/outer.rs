//! Big Outer Chess (`outer`), 12x12 plus four corner cells, with zone-dependent pieces; see
//! `docs/rules/outer.md`.

use crate::family;
use chaturanga_geometry::GeometryBuilder;
use chaturanga_rules::standard::{CastlingDef, Rules, Spec, SpecError, StandardPosition};
use chaturanga_rules::{OptionSpec, OptionValues, RuleOptions, SetupProblem};

/// The Big Outer Chess ruleset.
#[derive(Clone, Copy, Default, Debug)]
pub struct Outer;

/// A Big Outer Chess position.
pub type OuterPosition = StandardPosition<3, 9, Outer>;

/// The start position (14x14 walled grid).
pub const START_FEN: &str = "n************n/*jrmwbqkbwmrj*/*pppppppppppp*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/*PPPPPPPPPPPP*/*JRMWBQKBWMRJ*/N************N w KQkq - 0 1";

const EN_PASSANT: OptionSpec = OptionSpec {
    name: "en-passant",
    values: OptionValues::Choice(&["two-cell", "any-advance"]),
    default: "two-cell",
    help: "two-cell: only two-cell advances can be taken en passant; any-advance: every advance of two or more cells (Blanchard)",
    label: "En passant",
    words: &[
        ("two-cell", "Only two-cell advances can be taken en passant"),
        (
            "any-advance",
            "Every advance of two or more cells can be taken en passant (Blanchard)",
        ),
    ],
};

const CASTLING_SAFETY: OptionSpec = OptionSpec {
    name: "castling-safety",
    values: OptionValues::Choice(&["chess", "strict"]),
    default: "chess",
    help: "chess: the king's path must be safe; strict: every cell between king and rook too (Blanchard)",
    label: "Castling",
    words: &[
        ("chess", "The king's path must be safe, as in chess"),
        (
            "strict",
            "Every cell between king and rook must be safe too (Blanchard)",
        ),
    ],
};

/// Lattice points of a square block of files `x0..=x1` and ranks `y0..=y1` (0-based).
fn block(x0: i32, x1: i32, y0: i32, y1: i32) -> Vec<(i32, i32)> {
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
        .collect()
}

impl Rules<3, 9> for Outer {
    const ID: &'static str = "outer";

    fn option_specs() -> &'static [OptionSpec] {
        &[EN_PASSANT, CASTLING_SAFETY, family::FIDE_CLAIMS]
    }

    fn build(options: &RuleOptions) -> Result<Spec<3>, SpecError> {
        let inner = block(4, 7, 4, 7);
        let middle: Vec<(i32, i32)> = block(2, 9, 2, 9)
            .into_iter()
            .filter(|p| !inner.contains(p))
            .collect();
        let geometry = GeometryBuilder::rectangle(12, 12)
            .with_cells(&[(-1, -1), (12, -1), (12, 12), (-1, 12)])
            .labels(|x, y| match (x, y) {
                (-1, -1) => "z1".into(),
                (12, -1) => "z2".into(),
                (12, 12) => "z3".into(),
                (-1, 12) => "z4".into(),
                _ => format!("{}{}", (b'a' + x as u8) as char, y + 1),
            })
            .colours(|x, y| (x + y).rem_euclid(2) as u8)
            .region("inner", vec![inner.clone(), inner])
            .region("middle", vec![middle.clone(), middle])
            .region("last-rank", family::mirrored_ranks(12, 12, &[11]))
            .region("pawn-start", family::mirrored_ranks(12, 12, &[1]))
            .region("before-last", family::mirrored_ranks(12, 12, &[9]))
            .region("back-rank", family::mirrored_ranks(12, 12, &[0]))
            .build()
            .map_err(family::board_error)?;
        let ep_max = if options.get("en-passant") == Some("any-advance") {
            4
        } else {
            2
        };
        let pieces = vec![
            // Later moves go one or two cells, first moves up to four; the last rank only by a
            // single step, so from the rank before the one before it a pawn steps once.
            family::zoned_piece(
                "P",
                "pawn",
                "fmR2fceF",
                &[("pawn-start", "fmR4fceF"), ("before-last", "fmWfceF")],
            )?
            .pawn()
            .en_passant_after(2, ep_max)
            .promotes("last-rank", &["Q", "R", "B", "W", "M", "J", "N"])
            .must_promote_in("last-rank"),
            family::zoned_piece(
                "N",
                "outer knight",
                "(4,1)Z",
                &[("inner", "N"), ("middle", "CA")],
            )?,
            family::piece("B", "bishop", "B")?,
            family::piece("R", "rook", "R")?,
            family::piece("Q", "queen", "Q")?,
            family::king()?,
            family::piece("W", "guard", "FC")?,
            family::zoned_piece("M", "matriarch", "Q", &[("inner", "Q3"), ("middle", "Q6")])?,
            family::zoned_piece("J", "jumper", "KHG", &[("inner", "K"), ("middle", "KDA")])?,
        ];
        let strict = options.get("castling-safety") == Some("strict");
        let mut castlings = vec![
            CastlingDef::new(0, 'K', ["g1", "j1", "k1", "i1"]),
            CastlingDef::new(0, 'Q', ["g1", "d1", "b1", "e1"]),
            CastlingDef::new(1, 'k', ["g12", "j12", "k12", "i12"]),
            CastlingDef::new(1, 'q', ["g12", "d12", "b12", "e12"]),
        ];
        for c in &mut castlings {
            c.safe_between = strict;
        }
        family::with(
            family::builder(Self::ID, geometry, options),
            pieces,
            castlings,
        )
        .start(START_FEN)
        .build()
    }

    fn is_dead(position: &OuterPosition) -> bool {
        family::bare_royals_are_dead(position)
    }

    fn validate(position: &OuterPosition) -> Vec<SetupProblem> {
        family::pawns_on_first_rank(position)
    }
}
