#!/usr/bin/env python3
"""Random playouts with pyffish (Fairy-Stockfish 0.0.90 on PyPI), printed for the Rust
differential test `crates/variants/tests/rulesets/oracles/pyffish.rs`.

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
  xiangqi              xiangqi (built-in)              xiangqi
  shogi                shogi (built-in)                shogi
  minishogi            minishogi (built-in)            minishogi
  torishogi            torishogi-seed (ini)            torishogi
  torishogi-two        torishogi (built-in)            torishogi swallows-per-file=2
  yarishogi            yarishogi (built-in)            yarishogi

The shogi-family configs differ from our defaults only in repetition rules (Fairy-Stockfish's
minishogi: a plain fourfold repetition loses for Black; torishogi: the repeater loses;
yarishogi: the game ends at the third occurrence), which never change a legal move list, and
in the drop mates below. Their lines are converted to our SFEN and USI (see "Shogi family").

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
  * Xiangqi: FEN letters as in our FEN (`r n b a k c p`, Red upper case, `w` for Red to move),
    the castling and en passant fields are always `-`, the fifth field counts plies since the
    last capture (soldier moves do not reset it) and the sixth the move number, exactly as
    ours; nothing is normalised. Cells are our a1-i10 (`b3b10`). With no legal move the side
    to move loses (game_result -VALUE_MATE both in and out of check), written `checkmate` or
    `stalemate` as above. pyffish's own repetition rules (perpetual check / chase) end games
    in its engine but not its legal move lists, so the playouts run through repetitions like
    through the other draw rules.

Shogi family (shogi, minishogi, torishogi, torishogi-two, yarishogi), checked by hand with
pyffish 0.0.90; the mapping is the one of the Board sections of docs/rules/<id>.md:
  * pyffish's FEN is `<board>[<hand>] <side> - - <halfmove clock> <fullmove>` (its start FENs
    `<board>[-] w 0 1`, without the castling and en passant fields). The board text is the
    SFEN board unchanged (same letters, `+X` for promoted pieces, rank a / White's back rank
    first, files from Black's left, i.e. file 9 (7, 5) first). The side is `w` for the first
    player (our Black, SFEN `b`) and `b` for the second (SFEN `w`). The hand lists each piece
    in hand as one letter, upper case for Black, in no fixed order (`[SPPp]`, `[]` when
    empty, `[-]` in start FENs); SFEN counts them in each ruleset's hand order (shogi
    R B G S N L P, minishogi R B G S P, torishogi F C P L R S, yarishogi R B N P: the order of
    `captures_to_hand` in our rulesets), Black's first, `2P` for two, `-` for none.
    CONVERSION: board kept, side swapped, hand recounted in our order; the SFEN move number
    (plies from 1) is the start position's plus the plies pyffish has counted since it,
    2 * (fullmove - 1) + (1 if `b` to move), from its fullmove and side fields. pyffish's
    halfmove clock is dropped (SFEN has none). The SFEN positions of interest below are
    converted the other way (fullmove = (SFEN number + 1) // 2, halfmove clock 0).
  * Cells: pyffish uses file letters a.. from Black's left and ranks 1.. from Black's side;
    USI numbers files from Black's right and letters ranks from White's side. On a board of
    F files and R ranks, pyffish `<letter><rank>` = USI `<F - index(letter)><letter
    number R - rank>` (a = index 0): shogi c3 = 7g, e9 = 5a, i1 = 1i; torishogi d1 = 4g.
    Moves: `c3c4` = `7g7f`; promotions end in `+` as in USI (`b2h8+` = `8h2b+`), declined
    optional promotions are listed without it, compulsory ones only with it; drops are
    `P@e5` for both sides (upper-case letter) = USI `P*5e`. Nothing else occurs.
  * UCHIFUZUME (a rules difference, not a bug of either side): pyffish lists a pawn drop
    (shogi, minishogi) or swallow drop (torishogi) that leaves the opponent in check without
    a legal move, and scores it as lost for the dropper; our rules forbid the drop (shogi.md
    "Drops" 3 and Decision 6, minishogi.md "Drops" and Decision 6, torishogi.md "Drops" 3 and
    Decision 9; shared/reference/README.md). CONVERSION: such drops are removed from pyffish's
    list before it is compared and before a move is chosen. A pawn or swallow attacks only
    the cell straight ahead and a drop uncovers nothing, so the only candidate is the drop
    on the cell in front of the enemy king; it is removed when pyffish says that after it the
    opponent is in check (gives_check) and has no legal move. Yari shogi allows drop mates
    (yarishogi.md "Drops" 3, Decision 4): nothing is removed there.
  * Results: with no legal move the side to move loses (shogi.md Decision 12; the other rules
    files' "End of game"): game_result is -VALUE_MATE then, written `checkmate` or
    `stalemate` by gives_check as for chess. When pyffish's only moves were removed drop
    mates, pyffish has no result to give; the side to move loses by the same rule, with the
    reason from gives_check. Repetitions are played through as for the other configs.

Cost: every pyffish call re-initialises the variant (UCI::init_variant), about 3 ms, so a
position costs about 6 ms whatever the board. A summary goes to stderr.
"""
import functools
import os
import random
import re
import sys

from oracle_common import SHOGI_SCENARIOS, alternate, line, playout_numbers, random_game, require

sf = require("pyffish")

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

# Scenarios of torishogi.md (2-11, 13) and a mate by a falcon, SFEN. In scenarios 2 and 3 the
# quail on 4d attacks White's phoenix on 4a with Black to move, so the phoenix stands on 6a;
# in scenario 11 the eagle on 4d attacks 7a: the phoenix stands on 6a there too.
TORISHOGI_FENS = [
    "1k5/7/7/3L3/7/7/3K3 b - 1",
    "5pk/6F/5C1/7/7/7/K6 w - 2",
    "1k5/7/7/3R3/7/7/3K3 b - 1",
    "3k3/7/3S3/3P3/7/7/K6 b - 1",
    "5pk/7/5C1/7/7/7/K6 b S 1",
    "3k3/7/7/7/7/7/K6 b SF 1",
    "3k3/7/7/4S2/7/7/K6 b S 1",
    "3k3/7/7/4S2/7/4S2/K6 b S 1",
    "3k3/7/2S4/7/7/7/K6 b - 1",
    "3k3/7/1F5/7/7/7/K6 b - 1",
    "3k3/7/4s2/7/7/7/K6 b S 1",
    "3k3/7/7/4+S2/7/7/K6 b S 1",
    "k6/7/7/3+S3/7/7/6K b - 1",
    "1k5/7/7/3+F3/7/7/6K b - 1",
    "3k3/7/+F6/7/7/7/K6 b - 1",
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
    # Scenarios 4-12 of xiangqi.md (scenario 8 stalemated, scenario 12 after the mating move),
    # two of the repetition tests' start positions, and two of Fairy-Stockfish's perft
    # positions.
    "xiangqi": (
        "xiangqi",
        "check",
        [
            "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1",
            "4k4/3P1P3/9/9/9/9/9/9/9/3K5 b - - 0 1",
            "3k5/9/9/9/9/9/9/9/3P5/2B1K4 w - - 0 1",
            "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 1 1",
            "5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1",
            "4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1",
            "5k3/9/9/9/4P4/9/4P4/9/9/3K5 w - - 0 1",
            "4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1",
            "3k1a2c/R3a3c/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "3k1r3/5c3/9/5R3/9/9/9/5K3/9/3C5 w - - 0 1",
            "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
            "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        ],
    ),
    # Shogi family: positions of interest in OUR SFEN (converted for pyffish), mostly the
    # scenarios of the rules files; the second one of each list is over (no legal move).
    "shogi": ("shogi", "shogi", SHOGI_SCENARIOS),
    # Scenarios 2-6 and 8-10 of minishogi.md, 10 after the mating drop.
    "minishogi": (
        "minishogi",
        "shogi",
        [
            "k4/5/2S2/5/4K b - 1",
            "3rk/4G/3G1/5/K4 w - 2",
            "k4/2S2/5/5/4K b - 1",
            "2S1k/5/5/5/K4 b - 1",
            "k4/2P2/5/5/4K b P 1",
            "3rk/5/3G1/5/K4 b P 1",
            "3gk/5/3G1/5/K4 b P 1",
            "4k/2r2/5/5/1K3 w - 1",
            "4k/2p2/2+B2/5/K4 w - 1",
            "3rk/5/3G1/5/K4 b G 1",
        ],
    ),
    "torishogi": ("torishogi-seed", "shogi", TORISHOGI_FENS),
    "torishogi-two": ("torishogi", "shogi", TORISHOGI_FENS),
    # Scenarios 2-8 and 10 of yarishogi.md, 6 after the drop mate; in 2-4 the piece on 4e
    # attacks White's king on 4a with Black to move, so the king stands on 6a.
    "yarishogi": (
        "yarishogi",
        "shogi",
        [
            "1k5/7/7/7/3N3/7/7/7/K6 b - 1",
            "5nk/6P/5+P1/7/7/7/7/7/K6 w - 2",
            "1k5/7/7/7/3B3/7/7/7/K6 b - 1",
            "1k5/7/7/7/3R3/7/7/7/K6 b - 1",
            "3k3/7/7/7/3+P3/7/7/7/K6 b - 1",
            "5nk/7/5+P1/7/7/7/7/7/K6 b P 1",
            "3k3/7/7/7/7/7/3P3/7/K6 b P 1",
            "3k3/7/7/7/7/7/7/7/K6 b NB 1",
            "3k3/1R5/7/7/7/7/7/7/K6 b - 1",
            "4k2/7/7/7/3R3/7/7/7/K6 b - 1",
        ],
    ),
}

# Shogi family: config -> (our hand order, the piece whose drop may not mate or None).
SHOGI_FAMILY = {
    "shogi": ("RBGSNLP", "P"),
    "minishogi": ("RBGSP", "P"),
    "torishogi": ("FCPLRS", "S"),
    "torishogi-two": ("FCPLRS", "S"),
    "yarishogi": ("RBNP", None),
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
    drop_mates = 0


def normalise_fen(variant, start, moves, fen, legal, stats=None):
    """pyffish's FEN with the en passant field reduced to targets a legal capture uses (counted
    in `stats`)."""
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
    if stats and kept:
        stats.ep_kept += 1
    elif stats:
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


# ---- Shogi family (see "Shogi family" in the docstring) -------------------------------------

FSF_MOVE = re.compile(r"(?:([A-Za-z])@|([a-z])([0-9]+))([a-z])([0-9]+)(\+?)")
FSF_HAND = re.compile(r"([0-9]*)([A-Za-z])")


class Board:
    """The size of a shogi-family board, from a FEN's board field (either dialect)."""

    def __init__(self, board: str):
        rows = board.split("/")
        self.ranks = len(rows)
        tokens = re.findall(r"[0-9]+|[A-Za-z]", rows[0])
        self.files = sum(int(t) if t.isdigit() else 1 for t in tokens)

    def usi_cell(self, file: str, rank: str) -> str:
        """pyffish cell (file letter, rank digits) -> USI cell (`c3` -> `7g` on 9x9)."""
        return f"{self.files - (ord(file) - ord('a'))}{chr(ord('a') + self.ranks - int(rank))}"

    def usi_move(self, move: str) -> str:
        """pyffish move -> USI: `c3c4` -> `7g7f`, `b2h8+` -> `8h2b+`, `P@e5` -> `P*5e`."""
        m = FSF_MOVE.fullmatch(move)
        if not m:
            sys.exit(f"unexpected pyffish move {move!r}")
        drop, ff, fr, tf, tr, promote = m.groups()
        to = self.usi_cell(tf, tr)
        if drop:
            return f"{drop.upper()}*{to}"
        return f"{self.usi_cell(ff, fr)}{to}{promote}"

    def king_cell(self, board: str, king: str):
        """The pyffish cell (file letter, rank) of the piece letter `king`, or None."""
        for i, row in enumerate(board.split("/")):
            file = 0
            for token in re.findall(r"[0-9]+|\+?[A-Za-z]", row):
                if token.isdigit():
                    file += int(token)
                    continue
                if token == king:
                    return chr(ord("a") + file), self.ranks - i
                file += 1
        return None


def fsf_ply(fen: str) -> int:
    """Plies since move 1 with the first player to move, from pyffish's side and fullmove."""
    fields = fen.split(" ")
    return 2 * (int(fields[-1]) - 1) + (1 if fields[1] == "b" else 0)


def sfen_to_fsf(sfen: str) -> str:
    """Our SFEN -> pyffish FEN (`... b S2Pp 1` -> `...[SPPp] w - - 0 1`)."""
    board, side, hand, number = sfen.split(" ")
    letters = "" if hand == "-" else "".join(
        letter * int(count or 1) for count, letter in FSF_HAND.findall(hand)
    )
    fullmove = (int(number) + 1) // 2
    return f"{board}[{letters}] {'w' if side == 'b' else 'b'} - - 0 {max(fullmove, 1)}"


def fsf_to_sfen(fen: str, order: str, start_fen: str, start_number: int) -> str:
    """pyffish FEN -> our SFEN: board kept, side swapped, hand recounted in `order`, move
    number = the start's plus the plies pyffish counted since the start."""
    fields = fen.split(" ")
    m = re.fullmatch(r"([^\[]*)\[([^\]]*)\]", fields[0])
    if not m or fields[1] not in ("w", "b"):
        sys.exit(f"unexpected pyffish FEN {fen!r}")
    board, hand = m.groups()
    counts = {}
    for count, letter in FSF_HAND.findall(hand.replace("-", "")):
        counts[letter] = counts.get(letter, 0) + int(count or 1)
    text = ""
    for letter in [c for c in order] + [c.lower() for c in order]:
        n = counts.pop(letter, 0)
        text += (str(n) if n > 1 else "") + letter if n else ""
    if counts:
        sys.exit(f"pieces in hand outside the hand order {order}: {counts} in {fen!r}")
    number = start_number + fsf_ply(fen) - fsf_ply(start_fen)
    return f"{board} {'b' if fields[1] == 'w' else 'w'} {text or '-'} {number}"


def drop_mates(variant, start, moves, fen, legal, piece, geometry, stats):
    """The drops of `piece` in pyffish's list `legal` that our rules forbid (uchifuzume): after
    them the opponent is in check and has no legal move. Only the drop straight in front of
    the enemy king can give check (the piece attacks only the cell ahead: Betza fW)."""
    if piece is None:
        return set()
    board = fen.split("[")[0]
    black = fen.split(" ")[1] == "w"
    king = geometry.king_cell(board, "k" if black else "K")
    if king is None:
        return set()
    file, rank = king
    drop = f"{piece}@{file}{rank - 1 if black else rank + 1}"
    if drop not in legal:
        return set()
    after = moves + [drop]
    if sf.gives_check(variant, start, after) and not sf.legal_moves(variant, start, after):
        stats.drop_mates += 1
        return {drop}
    return set()


def shogi_position(variant, start, moves, order, piece, geometry, start_number, stats):
    """A shogi-family position's `P` fields and moves, in our SFEN and USI."""
    theirs = sf.legal_moves(variant, start, moves)
    fen = sf.get_fen(variant, start, moves)
    legal = set(theirs) - drop_mates(variant, start, moves, fen, theirs, piece, geometry, stats)
    texts = sorted((geometry.usi_move(m), m) for m in legal)
    if legal:
        st = "ongoing"
    elif theirs:
        # Only removed drop mates: no legal move for us, so the side to move loses.
        loser_first = fen.split(" ")[1] == "w"
        check = sf.gives_check(variant, start, moves)
        st = f"{'0-1' if loser_first else '1-0'} {'checkmate' if check else 'stalemate'}"
    else:
        st = status(variant, "check", start, moves, fen)
    sfen = fsf_to_sfen(fen, order, start, start_number)
    return (sfen, " ".join(t for t, _ in texts), st), texts


def chess_position(variant, kind, start, moves, stats):
    """A position's `P` fields and moves, as pyffish writes them but for the en passant field."""
    legal = sorted(sf.legal_moves(variant, start, moves))
    fen = normalise_fen(variant, start, moves, sf.get_fen(variant, start, moves), legal, stats)
    st = "ongoing" if legal else status(variant, kind, start, moves, fen)
    return (fen, " ".join(legal), st), [(m, m) for m in legal]


def play(config, variant, kind, fens, seed, games, max_plies, stats):
    """The playouts of a config (a shogi-family one in our SFEN and USI)."""
    rng = random.Random(seed)
    for g in range(games):
        start = sf.start_fen(variant)
        moves = []
        if kind == "shogi":
            order, piece = SHOGI_FAMILY[config]
            ours, origin = alternate(g, fsf_to_sfen(start, order, start, 1), fens)
            if origin == "fen":
                start = sfen_to_fsf(ours)
            geometry = Board(start.split(" ")[0].split("[")[0])
            here = functools.partial(
                shogi_position, variant, start, moves, order, piece, geometry,
                int(ours.split(" ")[3]), stats,
            )
        else:
            ours, origin = alternate(g, start, fens)
            start = ours
            here = functools.partial(chess_position, variant, kind, start, moves, stats)
        line("G", ours, origin)

        def position():
            fields, choices = here()
            stats.positions += 1
            stats.finished += not choices
            return fields, [] if len(moves) >= max_plies else choices

        random_game(rng, max_plies + 1, position, moves.append)


def main() -> None:
    usage = "usage: pyffish_playouts.py <config> <seed> <games> <max plies>; configs: " + ", ".join(
        CONFIGS
    )
    if len(sys.argv) != 5 or sys.argv[1] not in CONFIGS:
        sys.exit(usage)
    config = sys.argv[1]
    seed, games, max_plies = playout_numbers(sys.argv[2:], usage)
    with open(INI, encoding="utf-8") as ini:
        sf.load_variant_config(ini.read())
    variant, kind, fens = CONFIGS[config]
    if variant not in sf.variants():
        sys.exit(f"pyffish does not know variant {variant} (is {INI} loaded?)")
    shogi = kind == "shogi"
    for fen in fens:
        if shogi:
            fen = sfen_to_fsf(fen)
        if sf.validate_fen(fen, variant) != sf.FEN_OK:
            sys.exit(f"pyffish rejects {fen} for {variant}")
        # The side not to move must not be in check (pyffish accepts such FENs silently).
        fields = fen.split(" ")
        fields[1] = "b" if fields[1] == "w" else "w"
        fields[3] = "-"
        if sf.gives_check(variant, " ".join(fields), []):
            sys.exit(f"{fen}: the side not to move is in check")
    stats = Stats()
    play(config, variant, kind, fens, seed, games, max_plies, stats)
    summary = (
        f"drop mates removed {stats.drop_mates}"
        if shogi
        else f"en passant fields kept {stats.ep_kept}, dropped {stats.ep_dropped}"
    )
    print(
        f"{config} ({variant}): {games} games, {stats.positions} positions, "
        f"{stats.finished} without legal moves; {summary}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
