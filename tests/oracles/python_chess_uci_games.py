#!/usr/bin/env python3
"""python-chess drives our binary as a UCI engine (`chess.engine.SimpleEngine.popen_uci`), as
a program written for python-chess does: full Chess960 games (python-chess sets
`UCI_Chess960` itself, sends Shredder-FENs and reads castling as the king taking its rook)
and full antichess games (python-chess's `AntichessBoard`: it sets `UCI_Variant antichess`).

Our engine plays against a seeded random mover, taking each side in turn, and one game of
each kind against itself; the random mover castles whenever it may, so that python-chess
sends castlings to us. A last Chess960 game starts where only castling mates (`g1h1`: the
king stays, the rook goes to f1), so our engine has to send one. python-chess checks every move the engine sends (a move it cannot
read or an illegal one is an EngineError, which fails the run); the script checks them again
against the board's legal moves. A game ends only as python-chess's rules end it
(`Board.outcome(claim_draw=True)`); the run fails if one is still going at the ply cap.

Output lines (tab-separated):
  name <the engine's id name>
  game <n> <variant> <our side: white|black|both> <plies> <result> <termination> <final fen>
       <castlings by our engine> <castlings by the random mover>
Usage: python_chess_uci_games.py <engine> <seed> <games per variant> <max plies> <ms per move>
"""
import random
import sys

# White mates only by castling short: the king stays on g1, the rook lands on f1.
CASTLING_MATE = "4rkr1/4p1p1/8/8/8/1B6/8/6KR w H - 0 1"

from oracle_common import line, require

chess = require("chess")
require("chess.engine")
require("chess.variant")


def play(engine, board, ours, rng, max_plies, limit):
    """Plays `board` to its end: our engine for the colours in `ours`, the random mover for
    the others. Returns the outcome and how many times each castled, or exits at the ply
    cap."""
    castlings = [0, 0]
    while board.outcome(claim_draw=True) is None:
        if board.ply() >= max_plies:
            sys.exit(f"still going at the ply cap: {board.fen()} {board.move_stack}")
        if board.turn in ours:
            result = engine.play(board, limit)
            move = result.move
            if move is None or move not in board.legal_moves:
                sys.exit(f"illegal move {move} from the engine in {board.fen()}")
        else:
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            castlings_now = [m for m in moves if board.is_castling(m)]
            move = rng.choice(castlings_now or moves)
        if board.is_castling(move):
            castlings[board.turn not in ours] += 1
        board.push(move)
    return board.outcome(claim_draw=True), castlings


def main() -> None:
    try:
        path = sys.argv[1]
        seed, games, max_plies, ms = (int(a) for a in sys.argv[2:6])
    except (IndexError, ValueError):
        sys.exit(__doc__)
    rng = random.Random(seed)
    limit = chess.engine.Limit(time=ms / 1000)
    engine = chess.engine.SimpleEngine.popen_uci([path, "uci"])
    try:
        line("name", engine.id.get("name", ""))
        n = 0
        for variant in ("chess960", "antichess"):
            for g in range(games + 1 + (variant == "chess960")):
                if variant == "antichess":
                    board = chess.variant.AntichessBoard()
                elif g <= games:
                    board = chess.Board.from_chess960_pos(rng.randrange(960))
                else:
                    board = chess.Board(CASTLING_MATE, chess960=True)
                if g > games:
                    ours, side = (chess.WHITE,), "white"
                elif g == games:
                    ours, side = (chess.WHITE, chess.BLACK), "both"
                elif g % 2 == 0:
                    ours, side = (chess.WHITE,), "white"
                else:
                    ours, side = (chess.BLACK,), "black"
                outcome, castlings = play(engine, board, ours, rng, max_plies, limit)
                line(
                    "game",
                    str(n),
                    variant,
                    side,
                    str(board.ply()),
                    outcome.result(),
                    outcome.termination.name.lower(),
                    board.fen(),
                    *map(str, castlings),
                )
                n += 1
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
