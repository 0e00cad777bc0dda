//! Our record files, as the binary writes them (`record` and `play`'s `save`), read by other
//! programs and read back by `replay`: seeded random games, from the start and from set-up
//! positions, with rule options, in PGN (Variant, SetUp/FEN and RuleOptions tags), KIF
//! (Shift_JIS `.kif`, UTF-8 `.kifu`) and CSA.
//!
//! - python-chess reads chess and, where our losing chess is lichess's antichess (our
//!   `en-passant=on king-promotion=on`, which the PGN names `Antichess`), antichess; its
//!   Variant tag chooses the board and SetUp/FEN the start.
//! - pyffish (Fairy-Stockfish) replays the SAN of chess, antichess, Capablanca chess (both
//!   arrays: the seed's only through the record's SetUp/FEN) and Grand chess.
//! - cshogi reads shogi's KIF and CSA.
//!
//! Each reader must replay every move and reach our final position; `chaturanga replay` must
//! read each file back to the same final FEN and the same rule options.
//! `tests/oracles/record_readers.py` drives the Python programs. Not read by them: xiangqi
//! (our PGN's SAN names the horse `N`, Fairy-Stockfish's `H`: no common text to compare),
//! and the other shogi rulesets (cshogi knows only shogi).
//!
//! The test needs `python3` (or `CHATURANGA_PYTHON`) with the packages of
//! `tests/oracles/requirements.txt`; it fails, with instructions, when they are missing.

use chaturanga_session::{GameSession, open};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const INSTALL: &str = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt`, or set CHATURANGA_PYTHON to a Python that has them";

/// How the binary writes the file.
#[derive(Clone, Copy)]
enum Writer {
    /// `chaturanga record … --format F`, its standard output saved as the file.
    Record(&'static str),
    /// `chaturanga play …` with the moves typed, then `save FILE`.
    Play,
}

/// Who reads it.
#[derive(Clone, Copy)]
enum Reader {
    /// python-chess, which must take the record for this `uci_variant`.
    PythonChess(&'static str),
    /// pyffish, under this Fairy-Stockfish variant.
    Pyffish(&'static str),
    CshogiKif,
    CshogiCsa,
}

struct Case {
    id: &'static str,
    variant: &'static str,
    options: &'static [&'static str],
    /// Random plies before the position the record starts from (0: the start position).
    setup_plies: usize,
    plies: usize,
    writer: Writer,
    /// The file's extension, which chooses its format and encoding.
    extension: &'static str,
    readers: &'static [Reader],
}

const CASES: &[Case] = &[
    Case {
        id: "chess",
        variant: "chess",
        options: &[],
        setup_plies: 0,
        plies: 80,
        writer: Writer::Record("pgn"),
        extension: "pgn",
        readers: &[Reader::PythonChess("chess"), Reader::Pyffish("chess")],
    },
    Case {
        id: "chess-setup",
        variant: "chess",
        options: &["fide-claims=on"],
        setup_plies: 21,
        plies: 60,
        writer: Writer::Play,
        extension: "pgn",
        readers: &[Reader::PythonChess("chess"), Reader::Pyffish("chess")],
    },
    Case {
        id: "antichess",
        variant: "losing",
        options: &["en-passant=on", "king-promotion=on"],
        setup_plies: 0,
        plies: 120,
        writer: Writer::Play,
        extension: "pgn",
        readers: &[
            Reader::PythonChess("antichess"),
            Reader::Pyffish("antichess"),
        ],
    },
    Case {
        id: "capablanca-seed",
        variant: "capablanca",
        options: &[],
        setup_plies: 0,
        plies: 80,
        writer: Writer::Record("pgn"),
        extension: "pgn",
        readers: &[Reader::Pyffish("capablanca")],
    },
    Case {
        id: "capablanca-standard",
        variant: "capablanca",
        options: &["setup=standard"],
        setup_plies: 0,
        plies: 80,
        writer: Writer::Play,
        extension: "pgn",
        readers: &[Reader::Pyffish("capablanca")],
    },
    Case {
        id: "grand",
        variant: "grand",
        options: &[],
        setup_plies: 0,
        plies: 80,
        writer: Writer::Record("pgn"),
        extension: "pgn",
        readers: &[Reader::Pyffish("grand")],
    },
    Case {
        id: "shogi-sjis",
        variant: "shogi",
        options: &["impasse=declare27", "max-plies=300"],
        setup_plies: 0,
        plies: 100,
        writer: Writer::Play,
        extension: "kif",
        readers: &[Reader::CshogiKif],
    },
    Case {
        id: "shogi-utf8",
        variant: "shogi",
        options: &["impasse=declare24"],
        setup_plies: 0,
        plies: 100,
        writer: Writer::Play,
        extension: "kifu",
        readers: &[Reader::CshogiKif],
    },
    Case {
        id: "shogi-record-kif",
        variant: "shogi",
        options: &[],
        setup_plies: 0,
        plies: 100,
        writer: Writer::Record("kif"),
        extension: "kifu",
        readers: &[Reader::CshogiKif],
    },
    Case {
        id: "shogi-csa",
        variant: "shogi",
        options: &["max-plies=300"],
        setup_plies: 0,
        plies: 100,
        writer: Writer::Record("csa"),
        extension: "csa",
        readers: &[Reader::CshogiCsa],
    },
    Case {
        id: "shogi-csa-setup",
        variant: "shogi",
        options: &["impasse=declare27"],
        setup_plies: 40,
        plies: 60,
        writer: Writer::Play,
        extension: "csa",
        readers: &[Reader::CshogiCsa],
    },
];

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Random legal moves until the game ends or `plies` are played; the moves.
fn random_moves(session: &mut dyn GameSession, rng: &mut Rng, plies: usize) -> Vec<String> {
    let mut moves = Vec::new();
    while moves.len() < plies && session.finished().is_none() {
        let legal = session.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len())].clone();
        session.play(&mv).expect("a legal move plays");
        moves.push(mv);
    }
    moves
}

/// One game of a case: its start FEN when set up, its moves, our final FEN.
struct Played {
    start: Option<String>,
    start_fen: String,
    moves: Vec<String>,
    fen: String,
}

fn play_case(case: &Case, rng: &mut Rng) -> Played {
    let mut session = open(case.variant, 1).expect("the ruleset opens");
    let options: Vec<String> = case.options.iter().map(|o| o.to_string()).collect();
    session.set_rule_options(&options).expect("valid options");
    session.reset(None).expect("the start position");
    let mut start = None;
    if case.setup_plies > 0 {
        random_moves(session.as_mut(), rng, case.setup_plies);
        let mut fen = session.fen();
        if case.variant == "shogi" {
            // KIF and CSA keep no move number for a set-up position: it is 1 there.
            let mut fields: Vec<&str> = fen.split(' ').collect();
            *fields.last_mut().expect("SFEN fields") = "1";
            fen = fields.join(" ");
        }
        session.reset(Some(&fen)).expect("our own FEN");
        start = Some(fen);
    }
    let start_fen = session.fen();
    let moves = random_moves(session.as_mut(), rng, case.plies);
    Played {
        start,
        start_fen,
        moves,
        fen: session.fen(),
    }
}

fn game_args(case: &Case, played: &Played) -> Vec<String> {
    let mut args = vec![case.variant.to_string()];
    if !case.options.is_empty() {
        args.push("--option".to_string());
        args.extend(case.options.iter().map(|o| o.to_string()));
    }
    if let Some(fen) = &played.start {
        args.push("--fen".to_string());
        args.push(fen.clone());
    }
    args
}

fn write_file(case: &Case, played: &Played, path: &Path) {
    let binary = env!("CARGO_BIN_EXE_chaturanga");
    match case.writer {
        Writer::Record(format) => {
            let mut args = vec!["record".to_string()];
            args.extend(game_args(case, played));
            args.extend(["--format".to_string(), format.to_string()]);
            if !played.moves.is_empty() {
                args.push("--moves".to_string());
                args.extend(played.moves.iter().cloned());
            }
            let out = Command::new(binary).args(&args).output().expect("runs");
            assert!(
                out.status.success(),
                "{}: record failed: {}",
                case.id,
                String::from_utf8_lossy(&out.stderr)
            );
            std::fs::write(path, &out.stdout).expect("the file is written");
        }
        Writer::Play => {
            let mut args = vec!["play".to_string()];
            args.extend(game_args(case, played));
            args.extend(["--engine-plays".to_string(), "none".to_string()]);
            let mut child = Command::new(binary)
                .args(&args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("runs");
            let mut script = String::new();
            for mv in &played.moves {
                script.push_str(mv);
                script.push('\n');
            }
            script.push_str(&format!("save {}\nquit\n", path.display()));
            let mut stdin = child.stdin.take().expect("stdin");
            let writer = std::thread::spawn(move || stdin.write_all(script.as_bytes()));
            let out = child.wait_with_output().expect("play ends");
            writer
                .join()
                .expect("writer")
                .expect("play reads its input");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{}: play failed: {}",
                case.id,
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                stdout.contains(&format!("saved to {}", path.display())),
                "{}: play did not save:\n{stdout}",
                case.id
            );
            assert!(!stdout.contains("error"), "{}: {stdout}", case.id);
        }
    }
}

fn python() -> String {
    std::env::var("CHATURANGA_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Runs the readers on `input` (the script's stdin lines); their output lines.
fn read_with_python(input: &str) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracles/record_readers.py"
    );
    let mut child = Command::new(python())
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}; {INSTALL}", python()));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("the readers run");
    let written = writer.join().expect("the writer thread");
    assert!(
        output.status.success(),
        "a reader failed ({INSTALL}):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    written.expect("the readers read their input");
    String::from_utf8(output.stdout).expect("utf-8 output")
}

/// `chaturanga replay FILE`'s final FEN and options.
fn replay(path: &Path) -> (String, Option<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_chaturanga"))
        .arg("replay")
        .arg(path)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "replay {}: {}\n{stdout}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let field = |name: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::to_string)
    };
    (
        field("fen: ").unwrap_or_else(|| panic!("no fen in {stdout}")),
        field("options: "),
    )
}

#[test]
fn python_chess_pyffish_and_cshogi_read_our_records_and_replay_reads_them_back() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("chaturanga-record-readers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut rng = Rng(20_261_204);
    let mut input = String::new();
    let mut expected = Vec::new();
    for case in CASES {
        let played = play_case(case, &mut rng);
        assert!(played.moves.len() >= 10, "{}: a game too short", case.id);
        let path = dir.join(format!("{}.{}", case.id, case.extension));
        write_file(case, &played, &path);
        println!(
            "{}: {} plies{}, {} readers",
            path.display(),
            played.moves.len(),
            if played.start.is_some() {
                " from a set-up position"
            } else {
                ""
            },
            case.readers.len()
        );
        if case.extension == "kif" {
            let bytes = std::fs::read(&path).expect("the file");
            assert!(
                std::str::from_utf8(&bytes).is_err(),
                "{}: a .kif file is Shift_JIS, not UTF-8",
                case.id
            );
        }
        let (fen, options) = replay(&path);
        assert_eq!(fen, played.fen, "{}: replay's final FEN", case.id);
        let wanted = (!case.options.is_empty()).then(|| case.options.join(" "));
        assert_eq!(options, wanted, "{}: replay's options", case.id);
        for (n, reader) in case.readers.iter().enumerate() {
            let ident = format!("{}/{n}", case.id);
            let (name, extra) = match reader {
                Reader::PythonChess(_) => ("python-chess", String::new()),
                Reader::Pyffish(variant) => ("pyffish", format!("\t{variant}")),
                Reader::CshogiKif => ("cshogi-kif", String::new()),
                Reader::CshogiCsa => ("cshogi-csa", String::new()),
            };
            input.push_str(&format!("{ident}\t{name}\t{}{extra}\n", path.display()));
            expected.push((
                ident,
                *reader,
                played.fen.clone(),
                played.moves.len(),
                played.start_fen.clone(),
            ));
        }
    }
    let output = read_with_python(&input);
    let lines: Vec<Vec<&str>> = output.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), expected.len(), "{output}");
    for (line, (ident, reader, fen, plies, start)) in lines.iter().zip(&expected) {
        let [id, their_fen, their_plies, seen] = line[..] else {
            panic!("bad line {line:?}")
        };
        assert_eq!(id, ident);
        assert_eq!(their_plies, plies.to_string(), "{ident}: plies read");
        assert_eq!(their_fen, fen, "{ident}: the final position");
        match reader {
            Reader::PythonChess(variant) => assert_eq!(seen, *variant, "{ident}: the variant"),
            Reader::Pyffish(_) | Reader::CshogiKif | Reader::CshogiCsa => {
                assert_eq!(seen, start, "{ident}: the start position")
            }
        }
    }
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}
