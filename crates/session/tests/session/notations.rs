//! A table offers the ruleset's own move notations, writes every move played in each of them
//! (what the server sends as `notations`), and plays moves given in them: Western notation in
//! shogi and in chu and dai shogi.

use chaturanga_rules::scene::Viewer;
use chaturanga_session::{Table, open_table};

/// A table of `variant` from its start.
fn table(variant: &str) -> Box<dyn Table> {
    open_table(variant, &[], None).unwrap_or_else(|e| panic!("{variant}: {e}"))
}

/// The moves played, in the table's notation `name`.
fn written(table: &dyn Table, name: &str) -> Vec<String> {
    let i = table
        .notations()
        .iter()
        .position(|n| *n == name)
        .unwrap_or_else(|| panic!("no {name} among {:?}", table.notations()));
    table
        .moves_seen(Viewer::Arbiter)
        .into_iter()
        .map(|m| m.notations[i].clone())
        .collect()
}

#[test]
fn shogi_and_the_large_shogis_write_and_read_western_notation() {
    let mut shogi = table("shogi");
    assert_eq!(shogi.notations(), ["csa", "kif", "western"]);
    assert_eq!(shogi.play("P-7f").unwrap(), "7g7f");
    assert_eq!(written(shogi.as_ref(), "western"), ["P-7f"]);

    let mut chu = table("chushogi");
    assert_eq!(chu.notations(), ["western"]);
    // Western text and coordinates alike; each move is written back in Western notation.
    for (text, coordinates) in [
        ("P-7h", "7i7h"),
        ("P-6e", "6d6e"),
        ("7j7i", "7j7i"),
        ("gb-4f", "4e4f"),
        ("Ln-6g", "7i6g"),
    ] {
        assert_eq!(chu.play(text).unwrap(), coordinates, "{text}");
    }
    assert_eq!(
        written(chu.as_ref(), "western"),
        ["P-7h", "P-6e", "Ln-7i", "GB-4f", "Ln-6g"]
    );

    let mut dai = table("daishogi");
    assert_eq!(dai.notations(), ["western"]);
    assert_eq!(dai.play("St-12n").unwrap(), "13o12n");
    assert_eq!(written(dai.as_ref(), "western"), ["St-12n"]);
}
