#!/usr/bin/env python3
"""Independent reference move generator and perft for Chex.

Written from the rules file docs/rules/chex.md (and the perft conventions of
docs/rules/README.md) in plain Python: men in a dictionary keyed by absolute (x, y), the
frame and its names recomputed from scratch for every move text, connectivity by flood fill
over a set. Placements from a FEN include the draw: every distinct letter left in the mover's
stack, on every empty cell next to a man ((0, 0) on an empty board); a king never on an
attacked cell. Board moves: chess moves (sliders inside the frame of the position before the
move, pawns one step forward and diagonal captures, no double step) after which all men are
connected. A position where a king has been captured (not on the board, not in the stack) has
no moves.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts).
"""
import sys

from oracle_common import Oracle, board_row, counter, main as oracle_main, read_row

START_FEN = '- [KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - 0 1'
ORDER = 'KQRBNP'
KING8 = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
ROOK = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def file_name(i):
    s = ''
    i += 1
    while i > 0:
        i, r = divmod(i - 1, 26)
        s = chr(ord('a') + r) + s
    return s


class Pos:
    def __init__(self, fen):
        parts = fen.split()
        board, stacks, side, origin = parts[0], parts[1], parts[2], parts[3]
        self.men = {}
        if board != '-':
            ox, oy = (int(v) for v in origin.split(','))
            rows = board.split('/')
            for i, row in enumerate(rows):
                y = oy + len(rows) - 1 - i
                for x, ch in enumerate(read_row(row)):
                    if ch is not None:
                        self.men[(ox + x, y)] = ('w' if ch.isupper() else 'b', ch.upper())
        self.stack = {'w': [], 'b': []}
        for ch in stacks.strip('[]'):
            self.stack['w' if ch.isupper() else 'b'].append(ch.upper())
        self.side = side
        self.clock = counter(parts, 4, 0)
        self.number = counter(parts, 5, 1)

    def copy(self):
        p = Pos.__new__(Pos)
        p.men = dict(self.men)
        p.stack = {'w': list(self.stack['w']), 'b': list(self.stack['b'])}
        p.side, p.clock, p.number = self.side, self.clock, self.number
        return p

    def frame(self):
        xs = [c[0] for c in self.men]
        ys = [c[1] for c in self.men]
        return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1

    def fen(self):
        stacks = ''.join(sorted(self.stack['w'], key=ORDER.index)) + ''.join(
            m.lower() for m in sorted(self.stack['b'], key=ORDER.index))
        if not self.men:
            return '- [%s] %s - %d %d' % (stacks, self.side, self.clock, self.number)
        x0, y0, x1, y1 = self.frame()
        rows = [board_row(self.symbol(x, y) for x in range(x0, x1 + 1))
                for y in range(y1, y0 - 1, -1)]
        return '%s [%s] %s %d,%d %d %d' % ('/'.join(rows), stacks, self.side, x0, y0,
                                           self.clock, self.number)

    def symbol(self, x, y):
        m = self.men.get((x, y))
        return None if m is None else m[1] if m[0] == 'w' else m[1].lower()

    def king_gone(self, colour):
        return 'K' not in self.stack[colour] and (colour, 'K') not in self.men.values()

    def attacks(self, colour, cell):
        for (x, y), (c, k) in self.men.items():
            if c != colour:
                continue
            dx, dy = cell[0] - x, cell[1] - y
            if k == 'K' and max(abs(dx), abs(dy)) == 1:
                return True
            if k == 'N' and (dx, dy) in KNIGHT:
                return True
            if k == 'P' and abs(dx) == 1 and dy == (1 if c == 'w' else -1):
                return True
            dirs = {'R': ROOK, 'B': BISHOP, 'Q': ROOK + BISHOP}.get(k, [])
            for ux, uy in dirs:
                px, py = x + ux, y + uy
                while True:
                    if (px, py) == cell:
                        return True
                    if (px, py) in self.men or abs(px - x) > 64 or abs(py - y) > 64:
                        break
                    px, py = px + ux, py + uy
        return False

    def connected(self, cells):
        cells = set(cells)
        if len(cells) <= 1:
            return True
        start = next(iter(cells))
        seen = {start}
        todo = [start]
        while todo:
            x, y = todo.pop()
            for dx, dy in KING8:
                n = (x + dx, y + dy)
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(cells)

    def moves(self):
        """(kind, from, to): kind 'board' or a placed letter."""
        me = self.side
        them = 'b' if me == 'w' else 'w'
        if self.king_gone('w') or self.king_gone('b'):
            return []
        out = []
        if self.men:
            x0, y0, x1, y1 = self.frame()
            for (x, y), (c, k) in list(self.men.items()):
                if c != me:
                    continue
                targets = []
                if k == 'K':
                    targets = [(x + dx, y + dy) for dx, dy in KING8]
                elif k == 'N':
                    targets = [(x + dx, y + dy) for dx, dy in KNIGHT]
                elif k == 'P':
                    f = 1 if me == 'w' else -1
                    if (x, y + f) not in self.men:
                        targets.append((x, y + f))
                    for dx in (-1, 1):
                        m = self.men.get((x + dx, y + f))
                        if m and m[0] == them:
                            targets.append((x + dx, y + f))
                else:
                    for ux, uy in {'R': ROOK, 'B': BISHOP, 'Q': ROOK + BISHOP}[k]:
                        px, py = x + ux, y + uy
                        while x0 <= px <= x1 and y0 <= py <= y1:
                            targets.append((px, py))
                            if (px, py) in self.men:
                                break
                            px, py = px + ux, py + uy
                for t in targets:
                    m = self.men.get(t)
                    if m and m[0] == me:
                        continue
                    after = [c2 for c2 in self.men if c2 != (x, y) and c2 != t] + [t]
                    if self.connected(after):
                        out.append(('board', (x, y), t))
        if self.men:
            cells = set()
            for (x, y) in self.men:
                for dx, dy in KING8:
                    if (x + dx, y + dy) not in self.men:
                        cells.add((x + dx, y + dy))
        else:
            cells = {(0, 0)}
        for letter in sorted(set(self.stack[me])):
            for cell in cells:
                if letter == 'K' and self.attacks(them, cell):
                    continue
                out.append((letter, cell, cell))
        return out

    def text(self, mv):
        kind, frm, to = mv
        if self.men:
            x0, y0, _, _ = self.frame()
        else:
            x0, y0 = to[0] - 1, to[1] - 1
        name = lambda c: file_name(c[0] - x0) + str(c[1] - y0 + 1)
        if kind == 'board':
            return name(frm) + name(to)
        return kind + '@' + name(to)

    def play(self, mv):
        kind, frm, to = mv
        me = self.side
        if kind == 'board':
            captured = to in self.men
            man = self.men.pop(frm)
            self.men[to] = man
            progress = captured or man[1] == 'P'
        else:
            self.stack[me].remove(kind)
            self.men[to] = (me, kind)
            progress = True
        self.clock = 0 if progress else self.clock + 1
        if me == 'b':
            self.number += 1
        self.side = 'b' if me == 'w' else 'w'


class ChexOracle(Oracle):
    START = START_FEN

    def position(self, fen):
        return Pos(fen)

    def moves(self, pos):
        return pos.moves()

    def text(self, pos, mv):
        return pos.text(mv)


if __name__ == '__main__':
    sys.exit(oracle_main(ChexOracle(), sys.argv[1:], __doc__))
