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

Usage:
  independent_chex.py <depth> [--fen FEN] [--divide]
  independent_chex.py 0 --playouts SEED GAMES PLIES
  independent_chex.py 0 --walk SEED PLIES [--fen FEN]
"""
import random
import sys

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
                x = 0
                num = ''
                for ch in row + '.':
                    if ch.isdigit():
                        num += ch
                        continue
                    if num:
                        x += int(num)
                        num = ''
                    if ch == '.':
                        break
                    self.men[(ox + x, y)] = ('w' if ch.isupper() else 'b', ch.upper())
                    x += 1
        self.stack = {'w': [], 'b': []}
        for ch in stacks.strip('[]'):
            self.stack['w' if ch.isupper() else 'b'].append(ch.upper())
        self.side = side
        self.clock = int(parts[4]) if len(parts) > 4 else 0
        self.number = int(parts[5]) if len(parts) > 5 else 1

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
        rows = []
        for y in range(y1, y0 - 1, -1):
            row, empty = '', 0
            for x in range(x0, x1 + 1):
                m = self.men.get((x, y))
                if m is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                row += m[1] if m[0] == 'w' else m[1].lower()
            if empty:
                row += str(empty)
            rows.append(row)
        return '%s [%s] %s %d,%d %d %d' % ('/'.join(rows), stacks, self.side, x0, y0,
                                           self.clock, self.number)

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


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for mv in moves:
        child = pos.copy()
        child.play(mv)
        total += perft(child, depth - 1)
    return total


def main(argv):
    args = argv[1:]
    depth = int(args[0])
    fen = START_FEN
    divide = False
    playouts = walk = None
    i = 1
    while i < len(args):
        a = args[i]
        if a == '--fen':
            fen = args[i + 1]
            i += 2
        elif a == '--divide':
            divide = True
            i += 1
        elif a == '--playouts':
            playouts = tuple(int(x) for x in args[i + 1:i + 4])
            i += 4
        elif a == '--walk':
            walk = tuple(int(x) for x in args[i + 1:i + 3])
            i += 3
        else:
            raise SystemExit('unknown argument %r' % a)
    if playouts:
        seed, games, plies = playouts
        rng = random.Random(seed)
        out = []
        for _ in range(games):
            pos = Pos(START_FEN)
            out.append('G\t' + pos.fen())
            for _ in range(plies):
                moves = sorted(pos.moves(), key=pos.text)
                texts = sorted(pos.text(m) for m in moves)
                out.append('P\t%s\t%s' % (pos.fen(), ' '.join(texts)))
                if not moves:
                    break
                mv = rng.choice(moves)
                out.append('M\t' + pos.text(mv))
                pos.play(mv)
        print('\n'.join(out))
        return 0
    pos = Pos(fen)
    if walk:
        seed, plies = walk
        rng = random.Random(seed)
        print(pos.fen())
        for _ in range(plies):
            moves = sorted(pos.moves(), key=pos.text)
            if not moves:
                break
            mv = rng.choice(moves)
            t = pos.text(mv)
            pos.play(mv)
            print(t, pos.fen())
        return 0
    if divide:
        total = 0
        for mv in sorted(pos.moves(), key=pos.text):
            child = pos.copy()
            child.play(mv)
            n = perft(child, depth - 1)
            total += n
            print(pos.text(mv), n)
        print('nodes', total)
    else:
        print('nodes', perft(pos, depth))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
