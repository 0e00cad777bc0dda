#!/usr/bin/env python3
"""cshogi (PyPI `cshogi`, 1.1.0) drives an engine given only its executable path, over USI.

Used by crates/cli/tests/cli/cshogi_usi.rs. cshogi's USI wrapper (`cshogi.usi.Engine`) and
its match runner (`cshogi.cli.main`) start the program with no argument at all, as a shogi
GUI given just the executable does: the engine must find out from the first line (`usi`)
that it is to speak USI.

    cshogi_usi_games.py ENGINE SEED GAMES MAX_PLIES BYOYOMI_MS CSA_DIR

Plays GAMES full games of shogi between ENGINE and a seeded random mover (the engine takes
Black in even games, White in odd ones), then one game of ENGINE against a second ENGINE
process with cshogi.cli.main, which writes it to a CSA file in CSA_DIR. Every `bestmove`
must be a legal move per cshogi (`Board.is_legal`); `resign` is accepted only where cshogi
finds no legal move (our engine resigns only when mated); a game ends at checkmate, at the
fourth repetition (cshogi's `is_draw`), or after MAX_PLIES plies.

Prints one line per game, tab-separated:
    game <n> <engine side: black|white|both> <plies> <ending> <final sfen>
with <ending> one of checkmate, repetition, max-plies; and `name <id name>` once, the name
the engine gave in its `usi` answer. Exits non-zero with a message on any illegal move or
other breach.
"""

import glob
import os
import random
import sys

from oracle_common import require

cshogi = require("cshogi")
usi = require("cshogi.usi")
cli = require("cshogi.cli")
CSA = require("cshogi.CSA")


def fail(message):
    sys.exit("cshogi_usi_games.py: " + message)


def ending_of(board, repetitions):
    """checkmate, repetition or None, by cshogi's rules."""
    if board.is_game_over():
        return "checkmate"
    if repetitions[board.zobrist_hash()] >= 4:
        return "repetition"
    return None


def engine_move(engine, board, usi_moves, byoyomi):
    engine.position(usi_moves)
    bestmove, _ = engine.go(byoyomi=byoyomi)
    return bestmove


def play_against_random(engine, rng, engine_side, max_plies, byoyomi):
    board = cshogi.Board()
    usi_moves = []
    repetitions = {board.zobrist_hash(): 1}
    engine.usinewgame()
    ending = None
    while len(usi_moves) < max_plies:
        ending = ending_of(board, repetitions)
        if ending:
            break
        if board.turn == engine_side:
            text = engine_move(engine, board, usi_moves, byoyomi)
            if text == "resign":
                fail(
                    "the engine resigned with legal moves left after "
                    + " ".join(usi_moves)
                )
            move = board.move_from_usi(text)
            if not move or not board.is_legal(move):
                fail(f"illegal bestmove {text!r} after: position startpos moves "
                     + " ".join(usi_moves))
        else:
            move = rng.choice(list(board.legal_moves))
            text = cshogi.move_to_usi(move)
        board.push(move)
        usi_moves.append(text)
        key = board.zobrist_hash()
        repetitions[key] = repetitions.get(key, 0) + 1
    else:
        ending = ending_of(board, repetitions) or "max-plies"
    if ending == "checkmate" and board.turn == engine_side:
        # The mated engine must say so itself.
        text = engine_move(engine, board, usi_moves, byoyomi)
        if text != "resign":
            fail(f"the mated engine answered {text!r}, not resign")
    if ending == "checkmate":
        engine.gameover("lose" if board.turn == engine_side else "win")
    else:
        engine.gameover("draw")
    return len(usi_moves), ending, board.sfen()


def play_itself_with_cshogi_cli(path, csa_dir, max_plies, byoyomi):
    """One game of cshogi.cli.main, the engine against a second process of itself."""
    os.makedirs(csa_dir, exist_ok=True)
    result = cli.main(
        path,
        path,
        games=1,
        byoyomi=byoyomi,
        draw=max_plies,
        csa=csa_dir,
        print_summary=False,
    )
    if result["total"] != 1:
        fail(f"cshogi.cli.main played {result['total']} games")
    files = glob.glob(os.path.join(csa_dir, "*.csa"))
    if len(files) != 1:
        fail(f"expected one CSA file in {csa_dir}, found {files}")
    parsers = CSA.Parser.parse_file(files[0])
    if len(parsers) != 1:
        fail(f"{files[0]} holds {len(parsers)} games")
    parser = parsers[0]
    if parser.endgame in ("%ILLEGAL_MOVE", "ILLEGAL_MOVE", "%TIME_UP"):
        fail(f"cshogi.cli.main ended the game with {parser.endgame} ({files[0]})")
    board = cshogi.Board(parser.sfen)
    for ply, move in enumerate(parser.moves, 1):
        if not board.is_legal(move):
            fail(f"move {ply} of {files[0]} is illegal")
        board.push(move)
    if parser.endgame == "%TORYO" and not board.is_game_over():
        fail(f"{files[0]}: a resignation with legal moves left")
    ending = {"%TORYO": "checkmate", "%SENNICHITE": "repetition", "%JISHOGI": "max-plies"}
    if parser.endgame not in ending:
        fail(f"{files[0]}: unexpected ending {parser.endgame}")
    return len(parser.moves), ending[parser.endgame], board.sfen()


def main():
    if len(sys.argv) != 7:
        sys.exit(__doc__)
    path = sys.argv[1]
    seed, games, max_plies, byoyomi = (int(a) for a in sys.argv[2:6])
    csa_dir = sys.argv[6]
    rng = random.Random(seed)
    engine = usi.Engine(path)
    print(f"name\t{engine.name}")
    for n in range(games):
        side = cshogi.BLACK if n % 2 == 0 else cshogi.WHITE
        plies, ending, sfen = play_against_random(engine, rng, side, max_plies, byoyomi)
        name = "black" if side == cshogi.BLACK else "white"
        print(f"game\t{n}\t{name}\t{plies}\t{ending}\t{sfen}", flush=True)
    engine.quit()
    plies, ending, sfen = play_itself_with_cshogi_cli(path, csa_dir, max_plies, byoyomi)
    print(f"game\t{games}\tboth\t{plies}\t{ending}\t{sfen}")


if __name__ == "__main__":
    main()
