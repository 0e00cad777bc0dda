#!/usr/bin/env python3
"""Random chess playouts with python-chess, printed for the Rust differential test.

For every position: its FEN (en passant written only when legal, as our FEN does), the sorted
legal moves in UCI, and the status under our default rules (automatic threefold repetition
and fifty-move rule, FIDE's material dead positions). Then the move played.

Output lines (tab-separated):
  G <start fen>
  P <fen> <space-separated sorted uci moves> <status>
  M <uci>
Usage: python_chess_playouts.py <seed> <games> <max plies> [chess960]

With `chess960`, the games are Chess960 (python-chess's chess960 mode): from seeded random
arrays of the 960 and from the positions of CHESS960_STARTS, FENs in X-FEN (`KQkq`, a rook's
file where `K` or `Q` would be ambiguous) and castling written as the king taking its rook.
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

# Chess960 positions whose castling needs care: king and rook next to each other or already
# on their castled files, rooks on both sides of one wing (X-FEN file letters), rights given in
# Shredder-FEN, an attacked cell the rook but not the king crosses.
CHESS960_STARTS = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
    "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9",
    "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1",
    "1r2kr2/8/8/8/8/8/8/1R2KR2 w FBfb - 0 1",
    "rr2k3/8/8/8/8/8/8/RR2K1R1 w GBb - 0 1",
    "2r1k2r/8/8/8/8/8/8/2R1K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/rR2K2R w KQ - 0 1",
    "1k6/8/8/8/8/8/8/RK4r1 w A - 0 1",
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
    chess960 = sys.argv[4:] == ["chess960"]
    seed, games, max_plies = playout_numbers(sys.argv[1:4], __doc__)
    rng = random.Random(seed)
    for g in range(games):
        if not chess960:
            board = chess.Board(STARTS[g % len(STARTS)])
        elif g % 3 == 2:
            board = chess.Board(CHESS960_STARTS[g // 3 % len(CHESS960_STARTS)], chess960=True)
        else:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        line("G", STARTS[g % len(STARTS)] if not chess960 else board.fen())

        def position():
            moves = sorted(m.uci() for m in board.legal_moves)
            st = status(board)
            fields = (board.fen(en_passant="legal"), " ".join(moves), st)
            return fields, [(m, m) for m in moves] if st == "ongoing" else []

        random_game(rng, max_plies, position, board.push_uci)


if __name__ == "__main__":
    main()
