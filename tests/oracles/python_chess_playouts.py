#!/usr/bin/env python3
"""Random chess playouts with python-chess, printed for the Rust differential test.

For every position: its FEN (en passant written only when legal, as our FEN does), the sorted
legal moves in UCI, and the status under our default rules (automatic threefold repetition
and fifty-move rule, FIDE's material dead positions). Then the move played.

Output lines (tab-separated):
  G <start fen>
  P <fen> <space-separated sorted uci moves> <status>
  M <uci>
Usage: python_chess_playouts.py <seed> <games> <max plies>
"""
import random
import sys

from oracle_common import line, playout_numbers, random_game, require

chess = require("chess")

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
]


def status(board: chess.Board) -> str:
    if board.is_checkmate():
        return "0-1 checkmate" if board.turn == chess.WHITE else "1-0 checkmate"
    if board.is_stalemate():
        return "1/2-1/2 stalemate"
    if board.is_insufficient_material():
        return "1/2-1/2 insufficient-material"
    if board.is_repetition(3):
        return "1/2-1/2 threefold-repetition"
    if board.halfmove_clock >= 100:
        return "1/2-1/2 fifty-move-rule"
    return "ongoing"


def main() -> None:
    seed, games, max_plies = playout_numbers(sys.argv[1:], __doc__)
    rng = random.Random(seed)
    for g in range(games):
        start = STARTS[g % len(STARTS)]
        board = chess.Board(start)
        line("G", start)

        def position():
            moves = sorted(m.uci() for m in board.legal_moves)
            st = status(board)
            fields = (board.fen(en_passant="legal"), " ".join(moves), st)
            return fields, [(m, m) for m in moves] if st == "ongoing" else []

        random_game(rng, max_plies, position, board.push_uci)


if __name__ == "__main__":
    main()
