#!/usr/bin/env python3
"""One bughouse board against pyffish (Fairy-Stockfish 0.0.90, variant `bughouse`), for the
Rust test `crates/variants/tests/rulesets/oracles/bughouse.rs` and the fixture file
`crates/variants/tests/perft/bughouse-board.perft`.

Fairy-Stockfish's `bughouse` plays one board: captured pieces leave the game (they would go to
the partner, whom it does not know), pockets are whatever the FEN says, pawns are not dropped
on ranks 1 and 8, a dropped rook gives no castling right, promoted pieces carry `~`. That is
exactly our `bughouse::BoardPosition`, except that Fairy-Stockfish calls every check without a
legal reply mate where our rules let the player wait; move lists and perft do not see that
difference (no move either way).

Usage:
  pyffish_bughouse.py playouts <seed> <games> <max plies>
  pyffish_bughouse.py perft <depth> <fen>
  pyffish_bughouse.py fixtures <seed> <count> <depth>

Random positions with pockets: a crazyhouse game (captures go to the captor's pocket) of 6 to
40 random plies from the start position, then up to three random pieces (P N B R Q) added to
each pocket, as a partner would send them. Every random choice comes from
random.Random(seed).

`playouts` prints tab-separated lines:
  G <fen>            a game starts from this board FEN
  P <fen> <moves>    a position: pyffish's FEN (normalised, below) and its sorted legal moves
                     (promotions without `~`), separated by spaces
  M <move>           the move played
  H <letter> <fen>   the partner sent a piece: it is added to the pocket (upper case = White's)
                     and pyffish's FEN of the result follows (the next game start for pyffish)
A game stops after <max plies> moves or when there is no legal move. After each move, with
probability 1/4 a random piece arrives in a random pocket.

`perft` prints `perft <d> <nodes>` for d = 1..depth, counting leaves of pyffish.legal_moves
recursively. `fixtures` prints perft fixture cases for <count> random positions.

Normalisation: pyffish writes an en passant target after every double step that an enemy pawn
attacks; our FEN writes it only when the capture is legal. A target is kept only if a legal move
ends on it and pyffish.is_capture says it captures (as in pyffish_playouts.py).
"""

import random
import sys

from oracle_common import fixture, line, perft_lines, random_game, require
from pyffish_playouts import normalise_fen

sf = require("pyffish")

VARIANT = "bughouse"
START = sf.start_fen(VARIANT)


def normalise(start, moves, fen, legal):
    return normalise_fen(VARIANT, start, moves, fen, legal)


def add_to_pocket(fen, letter):
    board, rest = fen.split("[", 1)
    pocket, tail = rest.split("]", 1)
    order = "PNBRQpnbrq"
    pocket = "".join(sorted(pocket + letter, key=order.index))
    return f"{board}[{pocket}]{tail}"


def random_position(rng):
    """A crazyhouse game's position with extra pocket pieces, as a bughouse board FEN."""
    while True:
        moves = []
        for _ in range(rng.randint(6, 40)):
            legal = sf.legal_moves("crazyhouse", START, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        if not sf.legal_moves("crazyhouse", START, moves):
            continue
        fen = sf.get_fen("crazyhouse", START, moves)
        for colour in (str.upper, str.lower):
            for _ in range(rng.randint(0, 3)):
                fen = add_to_pocket(fen, colour(rng.choice("PNBRQ")))
        legal = sf.legal_moves(VARIANT, fen, [])
        if legal:
            return normalise(fen, [], sf.get_fen(VARIANT, fen, []), legal)


def playouts(seed, games, max_plies):
    rng = random.Random(seed)
    for _ in range(games):
        start = random_position(rng)
        moves = []
        line("G", start)

        def position():
            legal = sorted(sf.legal_moves(VARIANT, start, moves))
            fen = normalise(start, moves, sf.get_fen(VARIANT, start, moves), legal)
            return (fen, " ".join(legal)), [] if len(moves) == max_plies else [(m, m) for m in legal]

        def play(move):
            nonlocal start, moves
            moves.append(move)
            if rng.random() < 0.25:
                letter = rng.choice("PNBRQ")
                letter = letter if rng.random() < 0.5 else letter.lower()
                given = add_to_pocket(sf.get_fen(VARIANT, start, moves), letter)
                start = sf.get_fen(VARIANT, given, [])
                start = normalise(start, [], start, sf.legal_moves(VARIANT, start, []))
                moves = []
                line("H", letter, start)

        random_game(rng, max_plies + 1, position, play)


def perft(fen, moves, depth):
    legal = sf.legal_moves(VARIANT, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(fen, moves + [m], depth - 1) for m in legal)


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "playouts" and len(sys.argv) == 5:
        playouts(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "perft" and len(sys.argv) == 4:
        perft_lines([perft(sys.argv[3], [], d) for d in range(1, int(sys.argv[2]) + 1)])
    elif mode == "fixtures" and len(sys.argv) == 5:
        seed, count, depth = (int(a) for a in sys.argv[2:5])
        rng = random.Random(seed)
        for n in range(count):
            fen = random_position(rng)
            fixture(
                f"seed {seed}, position {n}: pyffish 0.0.90 variant bughouse,"
                " legal_moves counted recursively",
                f"bughouse-board-random-{n + 1}",
                [("epd", fen)],
                [perft(fen, [], d) for d in range(1, depth + 1)],
            )
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
