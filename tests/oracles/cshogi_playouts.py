#!/usr/bin/env python3
"""Random shogi playouts with cshogi (PyPI `cshogi`, pinned in requirements.txt), printed for
the Rust differential test `crates/variants/tests/rulesets/oracles/cshogi.rs`.

Usage: cshogi_playouts.py <seed> <games> <max plies>

cshogi is a shogi library built on the move generator of the Apery / YaneuraOu engines, a
code base independent of Fairy-Stockfish (the other shogi oracle, pyffish_playouts.py). It
speaks our notation: `Board(sfen)`, `Board.sfen()` and `cshogi.move_to_usi(move)` are SFEN and
USI exactly as in docs/rules/shogi.md, so nothing is converted or normalised:
  * SFEN: board, side (`b` Black / sente, `w` White), hands in the order R B G S N L P with
    Black's first and counts before the letter (`S2Pp`), `-` for empty hands, and the move
    number counting plies from 1 (it grows by one per move);
  * `Board.legal_moves` lists every legal move, including the declined optional promotions
    that some engines omit (`8h2b` next to `8h2b+`, a pawn entering the zone unpromoted), and
    without the pawn drops that give mate (uchifuzume), which our rules forbid as well
    (shogi.md "Drops" 3; shared/reference/README.md). It ignores repetition, like our legal
    moves, so the games run through sennichite; the Rust side plays through draws.

Output lines (tab-separated), as in pyffish_playouts.py:
  G <start sfen> <origin>     a game starts; origin `start` (the Rust side then uses its own
                              start position, so the first P line checks our setup) or `fen`
  P <sfen> <moves> <status>   a position: SFEN, the sorted USI legal moves separated by
                              spaces, and `ongoing`, or the result when there is no legal move
  M <move>                    the move played (chosen with random.Random(seed))

Results: with no legal move the side to move loses (shogi.md Decision 12, cshogi's
`is_game_over`): `1-0` or `0-1` (Black first), `checkmate` if `Board.is_check()`, else
`stalemate`. Even-numbered games start from the start position, odd-numbered ones cycle
through the scenarios of shogi.md (the second one stalemated). A game stops after <max
plies> moves or when there is no legal move. A summary goes to stderr.
"""
import random
import sys

try:
    import cshogi
except ImportError as error:
    sys.exit(
        f"cshogi is missing ({error}); install the oracles with "
        "`python3 -m pip install -r tests/oracles/requirements.txt`"
    )

# Scenarios of docs/rules/shogi.md (2-11, 13-15; 11 is stalemated), as in pyffish_playouts.py.
SHOGI_FENS = [
    "4k4/9/9/9/9/9/4P4/9/4K4 b P 1",
    "8k/6+R2/9/9/9/9/9/9/K8 w - 1",
    "4k4/9/9/9/9/9/4+P4/9/4K4 b P 1",
    "4k4/9/9/9/9/9/9/9/4K4 b NLP 1",
    "4k4/6P2/9/7N1/9/9/9/9/4K4 b - 1",
    "7nk/9/7G1/9/9/9/9/9/K8 b P 1",
    "9/4K4/9/9/9/9/9/4k4/9 b 2RB2G2S2N2L7Pb2g2s2n2l11p 1",
    "RRBBKGGSS/+N+N7/9/9/9/9/9/9/4k4 b 2P2g2s2n4l16p 1",
    "4k4/9/5S3/9/9/9/9/9/4K4 b - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b S 1",
    "7nk/9/7G1/9/9/9/9/9/K8 b G 1",
    "7nk/9/7GP/9/9/9/9/9/K8 b - 1",
    "7nk/9/9/9/9/9/9/9/K8 b P 1",
    "5k3/9/9/9/4R4/9/9/9/K8 b - 1",
]


def legal_usi(board):
    return sorted(cshogi.move_to_usi(m) for m in board.legal_moves)


def status(board):
    """Our status text for a position without legal moves: the side to move loses."""
    if not board.is_game_over():
        sys.exit(f"cshogi has no legal move but no game end in {board.sfen()}")
    result = "0-1" if board.turn == cshogi.BLACK else "1-0"
    return f"{result} {'checkmate' if board.is_check() else 'stalemate'}"


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit("usage: cshogi_playouts.py <seed> <games> <max plies>")
    seed, games, max_plies = (int(a) for a in sys.argv[1:4])
    for sfen in SHOGI_FENS:
        board = cshogi.Board(sfen)
        if board.sfen() != sfen:
            sys.exit(f"cshogi reads {sfen} as {board.sfen()}")
        # The side not to move must not be in check.
        fields = sfen.split(" ")
        fields[1] = "w" if fields[1] == "b" else "b"
        if cshogi.Board(" ".join(fields)).is_check():
            sys.exit(f"{sfen}: the side not to move is in check")
    rng = random.Random(seed)
    positions = finished = 0
    out = sys.stdout
    for g in range(games):
        if g % 2 == 0:
            board, origin = cshogi.Board(), "start"
        else:
            board, origin = cshogi.Board(SHOGI_FENS[(g // 2) % len(SHOGI_FENS)]), "fen"
        out.write(f"G\t{board.sfen()}\t{origin}\n")
        plies = 0
        while True:
            legal = legal_usi(board)
            st = "ongoing" if legal else status(board)
            out.write(f"P\t{board.sfen()}\t{' '.join(legal)}\t{st}\n")
            positions += 1
            if not legal:
                finished += 1
                break
            if plies >= max_plies:
                break
            move = rng.choice(legal)
            out.write(f"M\t{move}\n")
            board.push_usi(move)
            plies += 1
    print(
        f"cshogi: {games} games, {positions} positions, {finished} without legal moves",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
