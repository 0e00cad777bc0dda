#!/usr/bin/env python3
"""Perft fixtures for the shogi family from independent oracles, for
`crates/variants/tests/perft/{shogi,minishogi,torishogi,yarishogi}.perft`.

Usage: shogi_perft_fixtures.py <ruleset> <seed> <positions> <depth>
       shogi_perft_fixtures.py <ruleset> --sfen <SFEN> <depth>

Plays <positions> seeded random games from the start position (game i stops after
20 + 9 * i plies, or earlier at a position without legal moves, which is then replaced by
the position one ply before) and prints, for each final position, a fixture block:

  # <provenance>
  id <ruleset>-random-<i>
  sfen <our SFEN>
  fsf-fen <pyffish FEN>        (pyffish rulesets only)
  perft 1 <n> ... perft <depth> <n>

Oracles (neither reads our engine):
  * shogi: cshogi (PyPI, pinned in requirements.txt). cshogi has no perft function; the
    leaves are counted recursively with `Board.legal_moves`, `push` and `pop`. cshogi forbids
    pawn-drop mate like our rules, so its counts are ours as they are.
  * minishogi, torishogi, yarishogi: pyffish 0.0.90 with the variants of pyffish_playouts.py
    (minishogi, torishogi-seed from pyffish-seed-variants.ini = our default torishogi,
    yarishogi), counting leaves recursively with `pyffish.legal_moves(variant, fen, moves)`.
    As in the playouts, the pawn / swallow drops that give mate (uchifuzume), which pyffish
    lists and our rules forbid (minishogi.md and torishogi.md, "Drops"), are removed from
    every node's move list before counting or descending; Yari shogi allows them and keeps
    them. The king's cell is tracked along each line from the root FEN so that the one
    candidate drop (straight in front of the enemy king) is found without extra calls.
    Each pyffish call costs about 3 ms, so depth 3 takes up to a few minutes per position.

With --sfen the block is printed for the given position (id <ruleset>-sfen) instead.

The random moves are chosen with random.Random(seed) from the sorted USI move list (after the
removal above). A summary goes to stderr.
"""
import random
import sys

import pyffish_playouts as pp
from oracle_common import fixture, require

RULESETS = {
    # ruleset: pyffish config of pyffish_playouts.py (None: cshogi)
    "shogi": None,
    "minishogi": "minishogi",
    "torishogi": "torishogi",
    "yarishogi": "yarishogi",
}


def cshogi_fixture(rng, plies, depth, sfen=None):
    cshogi = require("cshogi")
    board = cshogi.Board(sfen) if sfen else cshogi.Board()
    for _ in range(plies if sfen is None else 0):
        moves = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        board.push_usi(move)
        if not list(board.legal_moves):
            board.pop()
            break

    def perft(d):
        moves = list(board.legal_moves)
        if d == 1:
            return len(moves)
        total = 0
        for m in moves:
            board.push(m)
            total += perft(d - 1)
            board.pop()
        return total

    return board.sfen(), None, [perft(d) for d in range(1, depth + 1)], None


class Pyffish:
    def __init__(self, config):
        self.variant, _, _ = pp.CONFIGS[config]
        _, self.piece = pp.SHOGI_FAMILY[config]
        self.order = pp.SHOGI_FAMILY[config][0]
        self.calls = 0
        self.removed = 0

    def legal(self, start, moves, black, kings):
        """pyffish's legal moves without the drop mates our rules forbid. `black`: the first
        player (pyffish `w`) is to move; `kings`: pyffish cells of 'K' and 'k'."""
        self.calls += 1
        legal = pp.sf.legal_moves(self.variant, start, moves)
        if self.piece is None:
            return legal
        file, rank = kings["k" if black else "K"]
        drop = f"{self.piece}@{file}{rank - 1 if black else rank + 1}"
        if drop in legal:
            self.calls += 1
            after = moves + [drop]
            if not pp.sf.legal_moves(self.variant, start, after) and pp.sf.gives_check(
                self.variant, start, after
            ):
                legal = [m for m in legal if m != drop]
                self.removed += 1
        return legal

    def perft(self, start, moves, black, kings, depth):
        legal = self.legal(start, moves, black, kings)
        if depth == 1:
            return len(legal)
        total = 0
        for m in legal:
            origin, dest = origin_dest(m)
            child = dict(kings)
            for k, cell in kings.items():
                if cell == origin:
                    child[k] = dest
            total += self.perft(start, moves + [m], not black, child, depth - 1)
        return total


def origin_dest(move):
    m = pp.FSF_MOVE.fullmatch(move)
    drop, ff, fr, tf, tr, _ = m.groups()
    return (None if drop else (ff, int(fr))), (tf, int(tr))


def pyffish_fixture(config, rng, plies, depth, sfen=None):
    oracle = Pyffish(config)
    start = pp.sf.start_fen(oracle.variant) if sfen is None else pp.sfen_to_fsf(sfen)
    geometry = pp.Board(start.split("[")[0])
    moves = []
    for _ in range(plies if sfen is None else 0):
        fen = pp.sf.get_fen(oracle.variant, start, moves)
        legal = set(pp.sf.legal_moves(oracle.variant, start, moves))
        legal -= pp.drop_mates(
            oracle.variant, start, moves, fen, legal, oracle.piece, geometry, pp.Stats()
        )
        if not legal:
            moves.pop()
            break
        moves.append(rng.choice(sorted((geometry.usi_move(m), m) for m in legal))[1])
    fen = pp.sf.get_fen(oracle.variant, start, moves)
    board = fen.split("[")[0]
    kings = {k: geometry.king_cell(board, k) for k in "Kk"}
    black = fen.split(" ")[1] == "w"
    counts = [oracle.perft(fen, [], black, kings, d) for d in range(1, depth + 1)]
    sfen = pp.fsf_to_sfen(fen, oracle.order, start, int(sfen.split(" ")[3]) if sfen else 1)
    print(f"{config}: {oracle.calls} pyffish calls", file=sys.stderr)
    return sfen, fen, counts, oracle.removed


def main() -> None:
    if len(sys.argv) != 5 or sys.argv[1] not in RULESETS:
        sys.exit(
            "usage: shogi_perft_fixtures.py <ruleset> <seed> <positions> <depth>; rulesets: "
            + ", ".join(RULESETS)
        )
    ruleset = sys.argv[1]
    config = RULESETS[ruleset]
    given = sys.argv[3] if sys.argv[2] == "--sfen" else None
    if given:
        seed, count, depth = 0, 1, int(sys.argv[4])
    else:
        seed, count, depth = (int(a) for a in sys.argv[2:5])
    if config is not None:
        with open(pp.INI, encoding="utf-8") as ini:
            pp.sf.load_variant_config(ini.read())
    rng = random.Random(seed)
    for i in range(count):
        plies = 20 + 9 * i
        if config is None:
            sfen, fen, counts, removed = cshogi_fixture(rng, plies, depth, given)
            oracle = "cshogi 1.1.0 (legal_moves counted recursively)"
        else:
            sfen, fen, counts, removed = pyffish_fixture(config, rng, plies, depth, given)
            variant = pp.CONFIGS[config][0]
            oracle = (
                f"pyffish 0.0.90 variant {variant} (legal_moves counted recursively, "
                f"pawn/swallow drop mates removed: {removed} in this tree)"
                if pp.SHOGI_FAMILY[config][1]
                else f"pyffish 0.0.90 variant {variant} (legal_moves counted recursively)"
            )
        if given:
            comment, ident = f"{ruleset}: given position; {oracle}", f"{ruleset}-sfen"
        else:
            comment = f"{ruleset}: seed {seed}, game {i}, random plies from the start; {oracle}"
            ident = f"{ruleset}-random-{i + 1}"
        fields = [("sfen", sfen)] + ([("fsf-fen", fen)] if fen is not None else [])
        fixture(comment, ident, fields, counts)


if __name__ == "__main__":
    main()
