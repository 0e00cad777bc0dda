#!/usr/bin/env python3
"""Perft of Chess960 positions with python-chess (chess960 mode), for the Rust differential
test: castling from any king and rook files, read in Shredder-FEN or X-FEN.

Output lines (tab-separated), one per position and depth:
  <fen as given> <depth> <nodes>
Usage: python_chess_perft.py <depth> [--random SEED COUNT] [FEN ...]
  every FEN given, then COUNT seeded random start arrays of the 960 (their X-FEN), each to
  every depth from 1 to <depth>
"""
import random
import sys

from oracle_common import line, require

chess = require("chess")


def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def main() -> None:
    args = sys.argv[1:]
    try:
        depth = int(args.pop(0))
        fens = []
        if args[:1] == ["--random"]:
            seed, count = int(args[1]), int(args[2])
            rng = random.Random(seed)
            fens += [chess.Board.from_chess960_pos(rng.randrange(960)).fen() for _ in range(count)]
            args = args[3:]
    except (IndexError, ValueError):
        sys.exit(__doc__)
    for fen in args + fens:
        board = chess.Board(fen, chess960=True)
        for d in range(1, depth + 1):
            line(fen, str(d), str(perft(board, d)))


if __name__ == "__main__":
    main()
