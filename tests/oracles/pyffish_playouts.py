#!/usr/bin/env python3
"""Random playouts with pyffish (Fairy-Stockfish 0.0.90 on PyPI), printed for the Rust
differential test `crates/variants/tests/oracle_pyffish.rs`.

Usage: pyffish_playouts.py <config> <seed> <games> <max plies>

A config is one of our rulesets under some rule options, reproduced by a pyffish variant:

  config               pyffish variant                 our ruleset and options
  grand                grand (built-in)                grand
  capablanca           capablanca-seed (ini)           capablanca
  capablanca-standard  capablanca (built-in)           capablanca setup=standard
  speed                speedchess (ini)                speed
  losing               frenchchess (ini)               losing
  losing-lichess       antichess (built-in)            losing en-passant=on king-promotion=on
  maharajah            maharajah-seed (ini)            maharajah
  chess                chess (built-in)                chess (a sanity check of the set-up)

The "(ini)" variants are defined in `pyffish-seed-variants.ini` next to this script (a copy of
`shared/reference/pyffish-seed-variants.ini`), loaded with `pyffish.load_variant_config`.

Output lines (tab-separated):
  G <start fen> <origin>      a game starts; origin is `start` when the FEN is the variant's
                              start position (the Rust side then sets the game up with its own
                              start position, so the first P line checks our setup), else `fen`
  P <fen> <moves> <status>    a position: FEN, the sorted legal moves separated by spaces, and
                              `ongoing`, or the result when there is no legal move
  M <move>                    the move played (chosen with random.Random(seed))

Even-numbered games start from the start position, odd-numbered ones cycle through a few
positions of interest per config (the scenarios of the rules files, some of them already over;
the second one of each list is such a finished position, so that short runs compare a result).
A game stops after <max plies> moves or when there is no legal move. Games are not stopped by
draw rules (repetition, fifty moves, dead positions): pyffish's legal moves ignore them, and the
Rust side plays through them.

Every FEN and move list comes from pyffish.get_fen / pyffish.legal_moves(variant, start fen,
moves played since the start), so pyffish replays the whole game each time.

Conventions of pyffish 0.0.90, checked by hand for these variants:
  * Cells are file letter plus decimal rank, also for ranks >= 10: grand `a1a10`, `j9j10a`,
    `e9d10`; empty runs in FEN are decimal numbers (`10`). Promotions append the lower-case
    piece letter (`e7e8q`, `c7c8c`, `b7b8k` in antichess); grand's optional promotions list the
    plain move too (`c7c8` and `c7c8q`). Castling is written as the king's move (`e1g1`;
    Capablanca `f1i1` and `f1c1`).
  * Castling rights are written `KQkq` (also on the 10-file Capablanca board, where the king
    stands on f1 and the rooks on a1/j1); maharajah writes `kq` (White has no castling).
  * Piece letters: Capablanca and Grand use `c` for the rook-knight (chancellor / marshal) and
    `a` for the bishop-knight (archbishop / cardinal); maharajah-seed writes the White
    Maharajah (an amazon) as `M`, the sepoys as ordinary black letters. A sepoy pawn on rank 1
    stays `p`. No promoted-piece markers (`~`) appear in these variants.
  * En passant: pyffish writes the target square whenever an enemy pawn attacks it after a
    double step, even when the capture is illegal (pinned pawn, king in check); e.g. after
    ...c7c5 in `7k/2p5/8/KP5r/8/8/8/8 b` it writes `c6` although b5c6 is illegal. Our FEN writes
    a target only when an en passant capture onto it is legal. NORMALISATION: a target is kept
    only if some legal move ends on it and pyffish.is_capture says it captures (a pawn's
    diagonal step onto the empty target); otherwise the field becomes `-`. Kept targets are
    written concatenated in ascending cell order (rank, then file), as in our FEN. frenchchess
    (enPassantRegion = -) and speedchess never write a target. Nothing else is normalised.
  * pyffish.game_result(variant, fen, moves) gives the value for the side to move: -VALUE_MATE
    (-32000) loses, +VALUE_MATE wins (antichess / frenchchess: no legal move, or no pieces
    left), 0 draws. It is converted to our result, first player first: `1-0`, `0-1`, `1/2-1/2`,
    plus a reason: `checkmate` when pyffish.gives_check says the side to move is in check
    (this sees maharajah-seed's pseudo-royal amazon too), `stalemate` otherwise; for the
    losing configs (the side to move wins) `all-pieces-lost` when the side to move has no
    piece left on the board, `no-legal-moves` otherwise. pyffish does not tell these two
    apart (both are +VALUE_MATE); the reason comes from the FEN.

Cost: every pyffish call re-initialises the variant (UCI::init_variant), about 3 ms, so a
position costs about 6 ms whatever the board. A summary goes to stderr.
"""
import os
import random
import re
import sys

try:
    import pyffish as sf
except ImportError as error:
    sys.exit(
        f"pyffish is missing ({error}); install the oracles with "
        "`python3 -m pip install -r tests/oracles/requirements.txt` (pyffish==0.0.90)"
    )

INI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyffish-seed-variants.ini")

CAPABLANCA_FENS = [
    "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1",
    "k9/2A7/1K8/10/10/10/10/10 b - - 0 1",
    "5kr3/10/10/10/10/10/10/R4K3R w KQ - 0 1",
    "1r3k4/10/10/10/10/10/10/R4K3R w KQ - 0 1",
    "7k2/4P5/10/10/10/10/10/K9 w - - 0 1",
    "5k4/6p3/10/5P4/10/10/10/K9 b - - 0 1",
    "k9/2Q7/10/10/10/10/10/9K b - - 0 1",
]

LOSING_FENS = [
    "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
    "8/8/8/p7/P7/8/8/8 w - - 0 1",
    "4k3/1p1p1p1p/8/P1P1P1P1/8/8/8/4K3 b - - 0 1",
    "8/8/8/8/8/8/3k4/4K3 w - - 0 1",
    "8/1P6/8/8/8/8/8/k7 w - - 0 1",
    "8/8/8/8/8/8/8/K5r1 w - - 0 1",
]

# config: (pyffish variant, kind of ending, positions of interest). Mostly the scenarios of the
# rules files; four of those have the side not to move in check, so they are moved here: grand
# scenario 6 (Ke4 is attacked by the marshal f2; king on e7 instead), capablanca scenario 8
# (Kf8 attacked by the pawn e7; king on h8), maharajah scenario 1 (a Maharajah on d6 attacks
# Ke8 by its knight leap; c6, also attacked by sepoys, instead) and maharajah scenario 4 (the
# Maharajah e1 attacks Ke8 along the open e-file; king on d8).
CONFIGS = {
    "grand": (
        "grand",
        "check",
        [
            "4k5/10/3p6/10/4P5/10/10/10/10/4K5 b - - 0 1",
            "k9/10/1Q8/10/10/10/10/10/10/9K b - - 0 1",
            "r8r/1nb1kcabn1/10/2P7/10/10/10/10/1NB1KCABN1/R8R w - - 0 1",
            "r3k4r/6P3/10/10/10/10/10/10/1NBQKCAB2/R9 w - - 0 1",
            "r4n1b1r/6P3/10/4k5/10/10/10/10/1NBQKCABN1/R8R w - - 0 1",
            "r6k1r/6P3/10/10/10/10/10/10/1NBQKCABN1/R8R b - - 0 1",
            "4k5/9P/10/10/10/10/10/10/1NBQKC1BN1/R8R w - - 0 1",
            "r3k4r/2P1P5/10/10/10/10/10/10/3p1p4/R4K3R w - - 0 1",
            "9k/10/3p6/10/K1P6r/10/10/10/10/10 b - - 0 1",
        ],
    ),
    "capablanca": ("capablanca-seed", "check", CAPABLANCA_FENS),
    "capablanca-standard": ("capablanca", "check", CAPABLANCA_FENS),
    "speed": (
        "speedchess",
        "check",
        [
            "k4/2P2/5/5/NQKBR w - - 0 1",
            "2k2/2Q2/2K2/5/5 b - - 0 1",
            "k4/2P2/5/5/N1KBR w - - 0 1",
            "k3b/3P1/5/5/NQKB1 w - - 0 1",
            "k4/2Q2/5/5/4K b - - 0 1",
        ],
    ),
    "losing": ("frenchchess", "losing", LOSING_FENS),
    "losing-lichess": ("antichess", "losing", LOSING_FENS),
    "maharajah": (
        "maharajah-seed",
        "check",
        [
            "rnbqkbnr/pppppppp/2M5/8/8/8/8/8 w kq - 0 1",
            "r7/1k6/8/4p3/2pq4/4n1n1/8/M6r w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/3M4/8/8/8 w kq - 0 1",
            "3k4/8/8/8/1b6/8/3n4/4M3 w - - 0 1",
            "4k3/8/8/8/8/8/2p5/7M b - - 0 1",
            "4k2r/8/8/8/8/8/8/M7 b k - 0 1",
            "4k2r/8/8/8/8/M7/8/8 b k - 0 1",
            "4k3/8/8/8/8/8/8/4M3 b - - 0 1",
            "k7/8/8/1M6/8/8/8/8 b - - 0 1",
        ],
    ),
    "chess": (
        "chess",
        "check",
        [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "7k/2p5/8/KP5r/8/8/8/8 b - - 0 1",
            "k7/2Q5/8/8/8/8/8/7K b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ],
    ),
}

MOVE = re.compile(r"^([a-z]+)([0-9]+)([a-z]+)([0-9]+)(.*)$")
CELL = re.compile(r"([a-z]+)([0-9]+)")


def cell_key(cell: str):
    """Ascending cell order of our FEN: by rank, then by file."""
    file, rank = CELL.fullmatch(cell).groups()
    return (int(rank), len(file), file)


def destination(move: str) -> str:
    """The cell a coordinate move ends on (`e5d6` -> `d6`, `j9j10a` -> `j10`)."""
    m = MOVE.fullmatch(move)
    return m.group(3) + m.group(4) if m else ""


class Stats:
    positions = 0
    finished = 0
    ep_dropped = 0
    ep_kept = 0


def normalise_fen(variant, start, moves, fen, legal, stats):
    """pyffish's FEN with the en passant field reduced to targets a legal capture uses."""
    fields = fen.split(" ")
    if len(fields) < 4 or fields[3] == "-":
        return fen
    kept = []
    for file, rank in CELL.findall(fields[3]):
        cell = file + rank
        if any(
            destination(m) == cell and sf.is_capture(variant, start, moves, m) for m in legal
        ):
            kept.append(cell)
    if kept:
        stats.ep_kept += 1
    else:
        stats.ep_dropped += 1
    fields[3] = "".join(sorted(kept, key=cell_key)) or "-"
    return " ".join(fields)


def status(variant, kind, start, moves, fen):
    """Our status text for a position without legal moves."""
    value = sf.game_result(variant, start, moves)
    white_to_move = fen.split(" ")[1] == "w"
    if value == 0:
        result = "1/2-1/2"
    elif (value > 0) == white_to_move:
        result = "1-0"
    else:
        result = "0-1"
    if kind == "losing":
        board, turn = fen.split(" ")[:2]
        mine = str.isupper if turn == "w" else str.islower
        reason = "no-legal-moves" if any(mine(c) for c in board) else "all-pieces-lost"
    elif sf.gives_check(variant, start, moves):
        reason = "checkmate"
    else:
        reason = "stalemate"
    return f"{result} {reason}"


def main() -> None:
    if len(sys.argv) != 5 or sys.argv[1] not in CONFIGS:
        sys.exit(
            "usage: pyffish_playouts.py <config> <seed> <games> <max plies>; configs: "
            + ", ".join(CONFIGS)
        )
    config = sys.argv[1]
    seed, games, max_plies = (int(a) for a in sys.argv[2:5])
    with open(INI, encoding="utf-8") as ini:
        sf.load_variant_config(ini.read())
    variant, kind, fens = CONFIGS[config]
    if variant not in sf.variants():
        sys.exit(f"pyffish does not know variant {variant} (is {INI} loaded?)")
    for fen in fens:
        if sf.validate_fen(fen, variant) != sf.FEN_OK:
            sys.exit(f"pyffish rejects {fen} for {variant}")
        # The side not to move must not be in check (pyffish accepts such FENs silently).
        fields = fen.split(" ")
        fields[1] = "b" if fields[1] == "w" else "w"
        fields[3] = "-"
        if sf.gives_check(variant, " ".join(fields), []):
            sys.exit(f"{fen}: the side not to move is in check")
    rng = random.Random(seed)
    stats = Stats()
    out = sys.stdout
    for g in range(games):
        if g % 2 == 0:
            start, origin = sf.start_fen(variant), "start"
        else:
            start, origin = fens[(g // 2) % len(fens)], "fen"
        out.write(f"G\t{start}\t{origin}\n")
        moves = []
        while True:
            legal = sorted(sf.legal_moves(variant, start, moves))
            fen = normalise_fen(
                variant, start, moves, sf.get_fen(variant, start, moves), legal, stats
            )
            st = "ongoing" if legal else status(variant, kind, start, moves, fen)
            out.write(f"P\t{fen}\t{' '.join(legal)}\t{st}\n")
            stats.positions += 1
            if not legal:
                stats.finished += 1
                break
            if len(moves) >= max_plies:
                break
            move = rng.choice(legal)
            out.write(f"M\t{move}\n")
            moves.append(move)
    print(
        f"{config} ({variant}): {games} games, {stats.positions} positions, "
        f"{stats.finished} without legal moves; en passant fields kept {stats.ep_kept}, "
        f"dropped {stats.ep_dropped}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
