#!/usr/bin/env python3
"""Independent reference move generator and perft for Makarenko Chess.

Written from the rules file docs/rules/makarenko.md alone (and the perft conventions of
docs/rules/README.md), in plain Python without the engine's tables, so that the Rust
implementation's perft numbers and move lists can be cross-checked.

Rules implemented (every `tall` option):
  * towers of one colour; height 1-2 pawn, 3 rook, 4 knight, 5-6 bishop, 7 queen, 8 king
    (8 or more under tall=king);
  * a turn: k disks (all of a tower, or 1..h-1 split off) move as the piece of height k to an
    empty cell, capture an enemy tower, or merge onto a friendly tower where they could
    capture; pawn-type parts step forward, double-step from their own second rank, capture
    and merge diagonally forward, capture en passant the tower that has just double-stepped;
  * tall=forbid: no tower over 8; king: any height; discard/reserve: merged towers keep 8 and
    the excess leave the game / go to the owner's reserve; a reserve disk may be placed on an
    empty cell or a friendly tower of at most 7 disks;
  * a king tower may split only if its owner has another king (tall=king: or if 8 or more
    disks stay behind); at the end of his move the mover must own a king (so a player whose
    last king was captured must create one, or he has no move and has lost);
  * castling with the untouched original towers (rights lost by any move from or onto e1, a1,
    h1, e8, a8, h8); a cell is attacked if an enemy tower could capture there whole or with a
    legal split.

Standard library only. Cells are (file, rank) pairs, 0-based.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts),
with --option tall=forbid|king|discard|reserve.
"""
import re
import sys

from oracle_common import Oracle, board_row, main as oracle_main, read_row

START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
# Castlings: (right letter, colour, king from, king to, rook from, rook to, must be empty).
CASTLINGS = [
    ('K', 'w', (4, 0), (6, 0), (7, 0), (5, 0), [(5, 0), (6, 0)]),
    ('Q', 'w', (4, 0), (2, 0), (0, 0), (3, 0), [(1, 0), (2, 0), (3, 0)]),
    ('k', 'b', (4, 7), (6, 7), (7, 7), (5, 7), [(5, 7), (6, 7)]),
    ('q', 'b', (4, 7), (2, 7), (0, 7), (3, 7), [(1, 7), (2, 7), (3, 7)]),
]


def label(cell):
    return 'abcdefgh'[cell[0]] + str(cell[1] + 1)


def cell_of(text):
    return ('abcdefgh'.index(text[0]), int(text[1]) - 1)


def inside(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def other(colour):
    return 'b' if colour == 'w' else 'w'


def piece(height):
    return {1: 'P', 2: 'P', 3: 'R', 4: 'N', 5: 'B', 6: 'B', 7: 'Q'}.get(height, 'K')


class Pos:
    def __init__(self, fen, tall):
        self.tall = tall
        fields = fen.split()
        board = fields[0]
        self.reserve = {'w': 0, 'b': 0}
        m = re.match(r'^(.*)\[W(\d+)B(\d+)\]$', board)
        if m:
            board = m.group(1)
            self.reserve = {'w': int(m.group(2)), 'b': int(m.group(3))}
        self.towers = {}
        for i, row in enumerate(board.split('/')):
            for f, token in enumerate(read_row(row, r'[A-Za-z](?:\{\d+\})?')):
                if token is None:
                    continue
                colour = 'w' if token[0].isupper() else 'b'
                if '{' in token:
                    height = int(token[2:-1])
                else:
                    height = {'P': 1, 'R': 3, 'N': 4, 'B': 5, 'Q': 7, 'K': 8}[token[0].upper()]
                self.towers[(f, 7 - i)] = (colour, height)
        self.side = fields[1]
        self.rights = set() if fields[2] == '-' else set(fields[2])
        self.ep = None if fields[3] == '-' else cell_of(fields[3])
        self.quiet = int(fields[4])
        self.number = int(fields[5])

    def copy(self):
        p = Pos.__new__(Pos)
        p.tall = self.tall
        p.reserve = dict(self.reserve)
        p.towers = dict(self.towers)
        p.side = self.side
        p.rights = set(self.rights)
        p.ep = self.ep
        p.quiet = self.quiet
        p.number = self.number
        return p

    def is_king(self, height):
        return height >= 8 if self.tall == 'king' else height == 8

    def kings(self, colour):
        return [c for c, (col, h) in self.towers.items() if col == colour and self.is_king(h)]

    def sizes(self, cell):
        """The part sizes the tower on `cell` may move: the whole tower and legal splits."""
        colour, h = self.towers[cell]
        out = [h]
        for k in range(1, h):
            if self.is_king(h):
                another = len(self.kings(colour)) > 1
                stays = self.tall == 'king' and h - k >= 8
                if not (another or stays):
                    continue
            out.append(k)
        return out

    def reach(self, cell, colour, k):
        """(empty cells, occupied cells) that k disks from `cell` reach as their piece."""
        kind = piece(k)
        empty, hit = [], []
        f0, r0 = cell
        if kind == 'P':
            fwd = 1 if colour == 'w' else -1
            second = 1 if colour == 'w' else 6
            one = (f0, r0 + fwd)
            if inside(*one) and one not in self.towers:
                empty.append(one)
                two = (f0, r0 + 2 * fwd)
                if r0 == second and two not in self.towers:
                    empty.append(two)
            for df in (-1, 1):
                d = (f0 + df, r0 + fwd)
                if inside(*d) and d in self.towers:
                    hit.append(d)
            return empty, hit
        if kind in ('N', 'K'):
            for dx, dy in (KNIGHT if kind == 'N' else ORTH + DIAG):
                d = (f0 + dx, r0 + dy)
                if inside(*d):
                    (hit if d in self.towers else empty).append(d)
            return empty, hit
        dirs = {'R': ORTH, 'B': DIAG, 'Q': ORTH + DIAG}[kind]
        for dx, dy in dirs:
            f, r = f0 + dx, r0 + dy
            while inside(f, r):
                if (f, r) in self.towers:
                    hit.append((f, r))
                    break
                empty.append((f, r))
                f, r = f + dx, r + dy
        return empty, hit

    def attacked(self, cell, by):
        for c, (col, h) in list(self.towers.items()):
            if col != by:
                continue
            for k in self.sizes(c):
                kind = piece(k)
                f0, r0 = c
                if kind == 'P':
                    fwd = 1 if by == 'w' else -1
                    if cell in [(f0 - 1, r0 + fwd), (f0 + 1, r0 + fwd)]:
                        return True
                    continue
                empty, hit = self.reach(c, by, k)
                if cell in empty or cell in hit:
                    return True
        return False

    def candidates(self):
        me = self.side
        out = []  # (text, kind, data)
        for cell, (col, h) in list(self.towers.items()):
            if col != me:
                continue
            for k in self.sizes(cell):
                suffix = '' if k == h else '/%d' % k
                empty, hit = self.reach(cell, me, k)
                for d in empty:
                    out.append((label(cell) + label(d) + suffix, 'move', (cell, d, k)))
                for d in hit:
                    tcol, th = self.towers[d]
                    if tcol == me and self.tall == 'forbid' and k + th > 8:
                        continue
                    out.append((label(cell) + label(d) + suffix, 'move', (cell, d, k)))
                if k <= 2 and self.ep is not None:
                    fwd = 1 if me == 'w' else -1
                    for df in (-1, 1):
                        if (cell[0] + df, cell[1] + fwd) == self.ep:
                            out.append((label(cell) + label(self.ep) + suffix, 'ep',
                                        (cell, self.ep, k)))
        for letter, col, kf, kt, rf, rt, between in CASTLINGS:
            if col != me or letter not in self.rights:
                continue
            if any(c in self.towers for c in between):
                continue
            path = [kf, ((kf[0] + kt[0]) // 2, kf[1]), kt]
            if any(self.attacked(c, other(me)) for c in path):
                continue
            out.append((label(kf) + label(kt), 'castle', (kf, kt, rf, rt)))
        if self.reserve[me] > 0:
            for f in range(8):
                for r in range(8):
                    t = self.towers.get((f, r))
                    if t is None or (t[0] == me and t[1] <= 7):
                        out.append(('D@' + label((f, r)), 'drop', (f, r)))
        return out

    def legal(self):
        out = []
        for text, kind, data in self.candidates():
            child = self.copy()
            child.apply(kind, data)
            if child.kings(self.side):
                out.append((text, kind, data))
        return out

    def apply(self, kind, data):
        me = self.side
        progress = False
        touched = []
        new_ep = None
        if kind == 'drop':
            cell = data
            self.reserve[me] -= 1
            t = self.towers.get(cell)
            self.towers[cell] = (me, (t[1] if t else 0) + 1)
            touched = [cell]
        elif kind == 'castle':
            kf, kt, rf, rt = data
            self.towers[kt] = self.towers.pop(kf)
            self.towers[rt] = self.towers.pop(rf)
            touched = [kf, rf]
        else:
            frm, to, k = data
            col, h = self.towers[frm]
            if k == h:
                del self.towers[frm]
            else:
                self.towers[frm] = (col, h - k)
            if kind == 'ep':
                fwd = 1 if me == 'w' else -1
                del self.towers[(to[0], to[1] - fwd)]
                progress = True
            t = self.towers.get(to)
            if t is None:
                self.towers[to] = (me, k)
            elif t[0] != me:
                self.towers[to] = (me, k)
                progress = True
            else:
                total = k + t[1]
                if self.tall in ('discard', 'reserve') and total > 8:
                    if self.tall == 'reserve':
                        self.reserve[me] += total - 8
                    total = 8
                self.towers[to] = (me, total)
            if k <= 2:
                progress = True
                second = 1 if me == 'w' else 6
                if frm[1] == second and abs(to[1] - frm[1]) == 2 and frm[0] == to[0]:
                    new_ep = (frm[0], (frm[1] + to[1]) // 2)
            touched = [frm, to]
        for c in touched:
            for letter, col, kf, kt, rf, rt, between in CASTLINGS:
                if c in (kf, rf):
                    self.rights.discard(letter)
        self.quiet = 0 if progress else self.quiet + 1
        if me == 'b':
            self.number += 1
        self.side = other(me)
        self.ep = new_ep

    def symbol(self, cell):
        t = self.towers.get(cell)
        if t is None:
            return None
        col, h = t
        letter = piece(h)
        sym = letter if h in (1, 3, 4, 5, 7, 8) else '%s{%d}' % (letter, h)
        return sym if col == 'w' else sym.lower()

    def ep_written(self):
        """The en passant field: the target only if the player to move can use it."""
        if self.ep is None:
            return '-'
        if any(kind == 'ep' for _, kind, _ in self.legal()):
            return label(self.ep)
        return '-'

    def fen(self):
        rows = [board_row(self.symbol((f, rank)) for f in range(8)) for rank in range(7, -1, -1)]
        board = '/'.join(rows)
        if self.tall == 'reserve':
            board += '[W%dB%d]' % (self.reserve['w'], self.reserve['b'])
        rights = ''.join(l for l in 'KQkq' if l in self.rights) or '-'
        return '%s %s %s %s %d %d' % (board, self.side, rights, self.ep_written(), self.quiet,
                                      self.number)


class MakarenkoOracle(Oracle):
    START = START_FEN
    OPTIONS = {'tall': ('forbid', 'king', 'discard', 'reserve')}

    def position(self, fen):
        if self.options['tall'] == 'reserve' and fen == START_FEN:
            fen = START_FEN.replace(' w', '[W0B0] w', 1)
        return Pos(fen, self.options['tall'])

    def text(self, pos, move):
        return move[0]

    def after(self, pos, move):
        _, kind, data = move
        child = pos.copy()
        child.apply(kind, data)
        return child


if __name__ == '__main__':
    sys.exit(oracle_main(MakarenkoOracle(), sys.argv[1:], __doc__))
