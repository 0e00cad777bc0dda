//! The legend names every man a scene can show, in every ruleset: random games from the start
//! (several seeds), every symbol on the boards, in the hands, dropped or promoted to must have
//! an entry; and the legend covers the ruleset's piece table.

use chaturanga_rules::scene::Viewer;
use chaturanga_rules::{Legend, OptionValues, PieceStyle};
use chaturanga_session::{Table, open, open_table, option_specs};
use chaturanga_variants::CATALOGUE;
use std::collections::BTreeSet;

const GAMES: u64 = 3;
const MAX_PLIES: usize = 200;

/// The options a server would draw in secret (Chex's draw order), fixed here.
fn secret_options(id: &str, seed: u64) -> Vec<String> {
    option_specs(id)
        .unwrap()
        .iter()
        .filter(|s| matches!(s.values, OptionValues::Seed))
        .map(|s| format!("{}={}", s.name, seed + 7))
        .collect()
}

/// Entries are unique by symbol, named in lower case, and say how the man moves in one line.
fn check_entries(id: &str, legend: &Legend) {
    let mut seen = BTreeSet::new();
    for k in &legend.kinds {
        assert!(seen.insert(k.symbol.as_str()), "{id}: {} twice", k.symbol);
        assert!(!k.symbol.is_empty(), "{id}: an empty symbol");
        assert!(!k.name.trim().is_empty(), "{id}: {} has no name", k.symbol);
        assert_eq!(k.name, k.name.to_lowercase(), "{id}: {}", k.symbol);
        assert!(
            !k.moves.trim().is_empty(),
            "{id}: {} has no moves",
            k.symbol
        );
        assert!(!k.moves.contains('\n'), "{id}: {} moves", k.symbol);
    }
}

/// Every symbol the scene shows (men and hands on every board) and the legal moves name
/// (drops, promotions).
fn symbols_now(table: &dyn Table) -> BTreeSet<String> {
    let mut symbols = BTreeSet::new();
    for board in table.scene(Viewer::Arbiter).boards {
        symbols.extend(board.men.into_iter().map(|m| m.piece));
        symbols.extend(board.hands.into_iter().map(|h| h.piece));
    }
    for m in table.legal() {
        symbols.extend(m.shape.drop);
        // Large shogi writes a promotion `+`, not the piece it becomes.
        symbols.extend(m.shape.promotion.filter(|p| p != "+"));
    }
    symbols
}

fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn every_man_seen_in_play_has_a_legend_entry_in_every_ruleset() {
    let mut rulesets = 0;
    for info in CATALOGUE.iter().filter(|v| v.implemented) {
        rulesets += 1;
        let mut shown = BTreeSet::new();
        for game in 0..GAMES {
            let mut table = open_table(info.id, &secret_options(info.id, game), None).unwrap();
            let legend = table.legend();
            check_entries(info.id, &legend);
            let mut seed = 0x9E37_79B9_7F4A_7C15 ^ (game + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
            for _ in 0..MAX_PLIES {
                for symbol in symbols_now(table.as_ref()) {
                    assert!(
                        legend.get(&symbol).is_some(),
                        "{}: no legend entry for {symbol} (game {game}, at {})",
                        info.id,
                        table.fen()
                    );
                    shown.insert(symbol);
                }
                let legal = table.legal();
                if legal.is_empty() {
                    break;
                }
                let pick = &legal[(next(&mut seed) % legal.len() as u64) as usize].text;
                table.play(pick).unwrap();
            }
            // The legend does not change as the game goes on.
            assert_eq!(table.legend(), legend, "{}", info.id);
        }
        assert!(!shown.is_empty(), "{}: nothing shown", info.id);
    }
    assert_eq!(rulesets, 29);
}

/// The legend of each ruleset's start under default options (Chex: with a draw order).
fn legend_of(id: &str, options: &[String]) -> Legend {
    let mut options = options.to_vec();
    options.extend(secret_options(id, 0));
    open_table(id, &options, None).unwrap().legend()
}

#[test]
fn the_legend_covers_the_piece_table() {
    for info in CATALOGUE.iter().filter(|v| v.implemented) {
        let legend = legend_of(info.id, &[]);
        // Rulesets whose pieces are all table data expose the table itself.
        let session = open(info.id, 1).unwrap();
        if let Some(table) = session.board_pieces() {
            let symbols: Vec<&str> = table.pieces.iter().map(|p| p.symbol.as_str()).collect();
            let listed: Vec<&str> = legend.kinds.iter().map(|k| k.symbol.as_str()).collect();
            assert_eq!(listed, symbols, "{}", info.id);
            for (entry, piece) in legend.kinds.iter().zip(table.pieces) {
                assert_eq!(entry.name, piece.name, "{}", info.id);
            }
        }
    }
    // Men that random play may never reach: promoted shogi men, dai's primed letters, the
    // lions and lion promotions, bughouse's promoted men, frozen and tall men.
    let required: &[(&str, &[&str])] = &[
        ("shogi", &["K", "R", "+R", "+B", "+S", "+N", "+L", "+P"]),
        ("minishogi", &["+S", "+B", "+R", "+P"]),
        ("torishogi", &["+S", "+F"]),
        ("yarishogi", &["+R", "+B", "+N", "+P"]),
        (
            "chushogi",
            &["N", "+O", "+H", "+D", "+E", "+X", "+P", "+I", "Q", "K"],
        ),
        (
            "daishogi",
            &[
                "L!", "+O", "A'", "+A'", "C'", "+C'", "X'", "+X'", "F'", "+F'", "P'", "+P'", "+H",
                "+D",
            ],
        ),
        ("bughouse", &["P", "Q", "K", "Q~", "R~", "B~", "N~"]),
        ("taktika", &["R", "B", "Q", "-R", "-B", "-Q"]),
        ("makarenko", &["P", "P{2}", "R", "N", "B", "B{6}", "Q", "K"]),
        ("gess", &["S"]),
        ("congo", &["L", "G", "E", "C", "N", "M", "P", "S"]),
        ("chex", &["K", "Q", "R", "B", "N", "P"]),
        ("threeplayer", &["P", "N", "B", "R", "Q", "K"]),
        ("xiangqi", &["K", "A", "B", "N", "R", "C", "P"]),
    ];
    for (id, symbols) in required {
        let legend = legend_of(id, &[]);
        for symbol in *symbols {
            assert!(legend.get(symbol).is_some(), "{id}: no {symbol}");
        }
    }
    let chu = legend_of("chushogi", &[]);
    assert_eq!(chu.kinds.len(), 39);
    assert_eq!(chu.get("+R").unwrap().name, "dragon king (promoted rook)");
    assert!(chu.get("N").unwrap().moves.contains("two king steps"));
    assert!(chu.get("+H").unwrap().moves.contains("lion power"));
    assert_eq!(legend_of("daishogi", &[]).kinds.len(), 55);
    assert_eq!(
        legend_of("congo", &[]).get("M").unwrap().name,
        "monkey",
        "congo"
    );
    // Rule options that change which men exist change the legend.
    let reserve = legend_of("makarenko", &["tall=reserve".into()]);
    assert!(reserve.get("D").is_some());
    assert!(legend_of("makarenko", &[]).get("D").is_none());
    let king = legend_of("makarenko", &["tall=king".into()]);
    assert!(king.get("K{47}").is_some());
    assert_eq!(king.kinds.len(), 47);
}

#[test]
fn each_ruleset_has_its_style() {
    let expected = |id: &str| match id {
        "shogi" | "minishogi" | "torishogi" | "yarishogi" | "chushogi" | "daishogi" => {
            PieceStyle::Shogi
        }
        "xiangqi" => PieceStyle::Xiangqi,
        "congo" => PieceStyle::Congo,
        "gess" => PieceStyle::Stones,
        _ => PieceStyle::Western,
    };
    for info in CATALOGUE.iter().filter(|v| v.implemented) {
        assert_eq!(
            legend_of(info.id, &[]).style,
            expected(info.id),
            "{}",
            info.id
        );
    }
}
