//! Untrusted text never panics: mutated FENs and random move strings give typed errors.

use crate::common;

use chaturanga_rules::Ruleset;
use chaturanga_variants::{VariantInfo, Visitor, implemented, visit};
use common::Rng;

const ALPHABET: &[u8] = b"0123456789/ +-*~[]wbKQRBNPkqrbnpacdefgh,.xX@#\t9999";

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(4) {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
            2 if at < bytes.len() => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
            _ => bytes.truncate(at),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

struct Hostile;

impl Visitor for Hostile {
    type Output = (usize, usize);

    fn visit<P: Ruleset>(self, _: &'static VariantInfo) -> (usize, usize) {
        let options = common::options::<P>(&[]);
        let start = P::start_position(&options).unwrap();
        let seeds = [
            start.fen(),
            "4k3/3p4/8/4P3/8/8/8/4K3 b - d6 0 1".to_string(),
        ];
        let mut rng = Rng::new(7);
        let (mut accepted, mut rejected) = (0, 0);
        for i in 0..20_000 {
            let text = mutate(&mut rng, &seeds[i % seeds.len()]);
            match P::from_fen_with(&options, &text) {
                Ok(p) => {
                    accepted += 1;
                    // Whatever was accepted must be a working position.
                    let mut moves = Vec::new();
                    p.legal_moves(&mut moves);
                    let again =
                        P::from_fen_with(&options, &p.fen()).expect("written FEN reads back");
                    assert_eq!(again.fen(), p.fen());
                }
                Err(e) => {
                    rejected += 1;
                    assert!(!e.to_string().is_empty());
                }
            }
            let mv = mutate(&mut rng, "e2e4");
            let _ = start.parse_move(&mv);
        }
        for extreme in [
            "",
            " ",
            "/",
            "99999999999999999999",
            "8/8/8/8/8/8/8/8/8/8/8/8",
            "+",
            "*",
        ] {
            assert!(P::from_fen_with(&options, extreme).is_err(), "{extreme:?}");
        }
        (accepted, rejected)
    }
}

#[test]
fn mutated_fens_and_moves_never_panic() {
    for info in implemented() {
        let (accepted, rejected) = visit(info.id, Hostile).unwrap();
        assert!(
            accepted > 0 && rejected > 0,
            "{}: {accepted} accepted, {rejected} rejected",
            info.id
        );
    }
}
