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

from oracle_common import SHOGI_SCENARIOS, alternate, line, playout_numbers, random_game, require

cshogi = require("cshogi")


def legal_usi(board):
    return sorted(cshogi.move_to_usi(m) for m in board.legal_moves)


def status(board):
    """Our status text for a position without legal moves: the side to move loses."""
    if not board.is_game_over():
        sys.exit(f"cshogi has no legal move but no game end in {board.sfen()}")
    result = "0-1" if board.turn == cshogi.BLACK else "1-0"
    return f"{result} {'checkmate' if board.is_check() else 'stalemate'}"


def main() -> None:
    seed, games, max_plies = playout_numbers(
        sys.argv[1:], "usage: cshogi_playouts.py <seed> <games> <max plies>"
    )
    for sfen in SHOGI_SCENARIOS:
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
    for g in range(games):
        start, origin = alternate(g, cshogi.Board().sfen(), SHOGI_SCENARIOS)
        board = cshogi.Board(start)
        line("G", board.sfen(), origin)
        played = []

        def position():
            nonlocal positions, finished
            legal = legal_usi(board)
            positions += 1
            finished += not legal
            fields = (board.sfen(), " ".join(legal), "ongoing" if legal else status(board))
            return fields, [] if len(played) >= max_plies else [(m, m) for m in legal]

        def play(move):
            board.push_usi(move)
            played.append(move)

        random_game(rng, max_plies + 1, position, play)
    print(
        f"cshogi: {games} games, {positions} positions, {finished} without legal moves",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
