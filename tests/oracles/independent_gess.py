#!/usr/bin/env python3
"""Independent reference move generator and perft for Gess.

Written from the rules file docs/rules/gess.md (and the perft conventions of
docs/rules/README.md) in plain Python, with stones as a dictionary of coordinates and every
step of a move simulated literally, so that the Rust implementation's perft numbers and move
lists (which use row bit masks and 9-bit patterns) can be cross-checked.

Rules implemented (section numbers of the rules file's Special rules):
  1. a piece: the own stones of a 3x3 footprint centred on b2-s19 holding no enemy stone;
  2. directions from the perimeter stones; unlimited range with a centre stone, else 1-3;
  3. step by step: the centre stays on b2-s19; a moved stone landing on an own stone that is
     not part of the piece stops the piece before that step (collision, seed rule); any other
     stone in the shifted footprint lets the piece stop there but not go on (contact);
  4. at the end: enemy stones in the final block removed, own stones there stay, the piece's
     stones placed shifted;
  5. stones on the border removed;
  6. rings: an empty centre with 8 own stones around; a position where either player has no
     ring has no moves (the game is over).
  Option movement=standard (the file's Decision 4, standard Gess): no collision test, a piece
  stops at the first step its footprint touches another stone, and every stone in the final
  block that is not the piece's is removed, friend or foe.

FEN: 20 ranks from rank 20 down, `s` Black (moves first), `S` White, then `b`/`w` and the move
number (it grows after White's move).

Standard library only. Cells are (x, y) pairs, 0-based, a1 = (0, 0).

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts),
with --option movement=seed|standard.
"""
import sys

from oracle_common import Oracle, board_row, counter, main as oracle_main, read_row

START_FEN = ('20/2s1s1ssssssss1s1s2/1sss1s1ssss1s1s1sss1/2s1s1ssssssss1s1s2/20/20/'
             '2s2s2s2s2s2s2/20/20/20/20/20/20/2S2S2S2S2S2S2/20/20/2S1S1SSSSSSSS1S1S2/'
             '1SSS1S1SSSS1S1S1SSS1/2S1S1SSSSSSSS1S1S2/20 b 1')
FILES = 'abcdefghijklmnopqrst'
DIRS = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]


def label(c):
    return FILES[c[0]] + str(c[1] + 1)


def in_area(x, y):
    return 1 <= x <= 18 and 1 <= y <= 18


def block(cx, cy):
    return [(cx + dx, cy + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


class Pos:
    def __init__(self, fen, standard):
        parts = fen.split()
        rows = parts[0].split('/')
        assert len(rows) == 20, fen
        self.stones = {}
        for i, row in enumerate(rows):
            cells = read_row(row)
            assert len(cells) == 20, fen
            for x, ch in enumerate(cells):
                if ch is not None:
                    self.stones[(x, 19 - i)] = 'w' if ch == 'S' else 'b'
        self.side = parts[1] if len(parts) > 1 else 'b'
        self.number = counter(parts, 2, 1)
        self.standard = standard

    def copy(self):
        p = Pos.__new__(Pos)
        p.stones = dict(self.stones)
        p.side = self.side
        p.number = self.number
        p.standard = self.standard
        return p

    def fen(self):
        symbol = {'w': 'S', 'b': 's'}
        rows = [board_row(symbol.get(self.stones.get((x, y))) for x in range(20))
                for y in range(19, -1, -1)]
        return '%s %s %d' % ('/'.join(rows), self.side, self.number)

    def rings(self, colour):
        n = 0
        for cy in range(1, 19):
            for cx in range(1, 19):
                if (cx, cy) in self.stones:
                    continue
                if all(self.stones.get((cx + dx, cy + dy)) == colour for dx, dy in DIRS):
                    n += 1
        return n

    def over(self):
        return self.rings('b') == 0 or self.rings('w') == 0

    def moves(self):
        if self.over():
            return []
        me = self.side
        out = []
        for cy in range(1, 19):
            for cx in range(1, 19):
                cells = block(cx, cy)
                if any(self.stones.get(c) not in (None, me) for c in cells):
                    continue
                piece = [c for c in cells if self.stones.get(c) == me]
                if not piece:
                    continue
                pset = set(piece)
                reach = 99 if (cx, cy) in pset else 3
                for dx, dy in DIRS:
                    if (cx + dx, cy + dy) not in pset:
                        continue
                    k = 1
                    while k <= reach and in_area(cx + k * dx, cy + k * dy):
                        nx, ny = cx + k * dx, cy + k * dy
                        shifted = {(px + k * dx, py + k * dy) for px, py in piece}
                        others = [c for c in block(nx, ny)
                                  if c in self.stones and c not in pset]
                        if not self.standard and any(
                                c in shifted and self.stones[c] == me for c in others):
                            break
                        out.append(((cx, cy), (nx, ny)))
                        if others:
                            break
                        k += 1
        return out

    def play(self, mv):
        (cx, cy), (nx, ny) = mv
        dx, dy = nx - cx, ny - cy
        me = self.side
        piece = [c for c in block(cx, cy) if self.stones.get(c) == me]
        for c in piece:
            del self.stones[c]
        for c in block(nx, ny):
            if c in self.stones and (self.standard or self.stones[c] != me):
                del self.stones[c]
        for px, py in piece:
            self.stones[(px + dx, py + dy)] = me
        for c in list(self.stones):
            if not in_area(*c):
                del self.stones[c]
        if me == 'w':
            self.number += 1
        self.side = 'w' if me == 'b' else 'b'


def text(mv):
    return label(mv[0]) + label(mv[1])


class GessOracle(Oracle):
    START = START_FEN
    OPTIONS = {'movement': ('seed', 'standard')}

    def position(self, fen):
        return Pos(fen, self.options['movement'] == 'standard')

    def moves(self, pos):
        return pos.moves()

    def text(self, pos, mv):
        return text(mv)

    def pick(self, pos, choices, rng):
        """A random move, preferring one after which the game goes on (random Gess games
        would otherwise end within a few plies by a broken ring)."""
        order = list(choices)
        rng.shuffle(order)
        for choice in order:
            if not self.after(pos, choice[1]).over():
                return choice
        return order[0]


if __name__ == '__main__':
    sys.exit(oracle_main(GessOracle(), sys.argv[1:], __doc__))
