#!/usr/bin/env python3
"""An independent implementation of Gliński's hexagonal chess (docs/rules/hexchess.md),
written from the rules file alone, for differential tests of the Rust engine.

It shares no code or tables with the engine: cells are the rules file's (q, h) pairs
(file index q, height h = 2r + |q - 5|), pieces move by the (dq, dh) steps the file lists,
legality is decided by playing each pseudo-legal move and asking whether the mover's king
is attacked (looking outward from the king), and the FEN is the file's format.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts),
with --option double-step=own-start|any-start-cell (stalemate= and fide-claims= are accepted
and change nothing here); `perft FEN DEPTH` prints the bare count and `divide FEN` the
depth-1 moves by piece.
"""

import sys

from oracle_common import Oracle, board_row, counter, main as oracle_main, read_row

FILES = "abcdefghikl"
ORTHOGONAL = [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)]
DIAGONAL = [(2, 0), (-2, 0), (1, 3), (1, -3), (-1, 3), (-1, -3)]
KNIGHT = [(a * 1, b * 5) for a in (1, -1) for b in (1, -1)] + \
    [(a * 2, b * 4) for a in (1, -1) for b in (1, -1)] + \
    [(a * 3, b * 1) for a in (1, -1) for b in (1, -1)]
START = "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1"
PAWN_START = {
    "w": ["b1", "c2", "d3", "e4", "f5", "g4", "h3", "i2", "k1"],
    "b": ["b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "k7"],
}

LABEL = {}   # (q, h) -> label
CELL = {}    # label -> (q, h)
for q in range(11):
    for r in range(1, 12 - abs(q - 5)):
        h = 2 * r + abs(q - 5)
        LABEL[(q, h)] = FILES[q] + str(r)
        CELL[FILES[q] + str(r)] = (q, h)
assert len(CELL) == 91


def rank_of(cell):
    q, h = cell
    return (h - abs(q - 5)) // 2


# FEN rows: ranks 11 down to 1, each in file order.
ROWS = [sorted((c for c in CELL.values() if rank_of(c) == r), key=lambda c: c[0])
        for r in range(11, 0, -1)]


def add(cell, step):
    nxt = (cell[0] + step[0], cell[1] + step[1])
    return nxt if nxt in LABEL else None


def colour(p):
    return "w" if p.isupper() else "b"


def last_cell(cell, side):
    """Whether a pawn of `side` on `cell` stands on the last cell of its file."""
    ahead = (0, 2) if side == "w" else (0, -2)
    return add(cell, ahead) is None


class Pos:
    def __init__(self, fen, any_start=False):
        fields = fen.split()
        rows = fields[0].split("/")
        assert len(rows) == 11, "rows"
        self.board = {}
        for row, shape in zip(rows, ROWS):
            cells = read_row(row)
            assert len(cells) == len(shape), "row length"
            for cell, p in zip(shape, cells):
                if p is not None:
                    self.board[cell] = p
        self.side = fields[1] if len(fields) > 1 else "w"
        self.ep = None   # (target cell, victim cell)
        if len(fields) > 2 and fields[2] != "-":
            target = CELL[fields[2]]
            # The victim stands one step past the target in its own direction of travel.
            victim = add(target, (0, -2)) if self.side == "w" else add(target, (0, 2))
            pawn = "p" if self.side == "w" else "P"
            if victim is not None and self.board.get(victim) == pawn:
                self.ep = (target, victim)
        self.half = counter(fields, 3, 0)
        self.full = counter(fields, 4, 1)
        self.any_start = any_start
        self.moved = set()   # cells of pawns that have moved (only this game knows)

    def copy(self):
        p = Pos.__new__(Pos)
        p.board = dict(self.board)
        p.side, p.ep, p.half, p.full = self.side, self.ep, self.half, self.full
        p.any_start = self.any_start
        p.moved = set(self.moved)
        return p

    def king(self, side):
        k = "K" if side == "w" else "k"
        for c, p in self.board.items():
            if p == k:
                return c
        return None

    def attacked(self, cell, by):
        """Whether `by` attacks `cell`: look outward from it for each kind of attacker."""
        def mine(p, kinds):
            return p is not None and colour(p) == by and p.upper() in kinds
        for steps, sliders in ((ORTHOGONAL, "RQ"), (DIAGONAL, "BQ")):
            for s in steps:
                c, dist = add(cell, s), 1
                while c is not None:
                    p = self.board.get(c)
                    if p is not None:
                        if mine(p, sliders) or (dist == 1 and mine(p, "K")):
                            return True
                        break
                    c, dist = add(c, s), dist + 1
        for s in KNIGHT:
            c = add(cell, s)
            if c is not None and mine(self.board.get(c), "N"):
                return True
        # A white pawn captures towards (+-1, +1), so it attacks `cell` from (-+1, -1).
        dh = -1 if by == "w" else 1
        for dq in (1, -1):
            c = add(cell, (dq, dh))
            if c is not None and mine(self.board.get(c), "P"):
                return True
        return False

    def pseudo(self):
        """Pseudo-legal moves as (from, to, promotion, kind of special)."""
        out = []
        me = self.side
        for c, p in list(self.board.items()):
            if colour(p) != me:
                continue
            kind = p.upper()
            if kind == "P":
                ahead = (0, 2) if me == "w" else (0, -2)
                fwd = 1 if me == "w" else -1
                one = add(c, ahead)
                targets = []
                if one is not None and one not in self.board:
                    targets.append((one, "quiet"))
                    on_start = LABEL[c] in PAWN_START[me]
                    unmoved = c not in self.moved
                    two = add(one, ahead)
                    if on_start and (self.any_start or unmoved) and two is not None \
                            and two not in self.board:
                        targets.append((two, "double"))
                for dq in (1, -1):
                    t = add(c, (dq, fwd))
                    if t is None:
                        continue
                    if t in self.board and colour(self.board[t]) != me:
                        targets.append((t, "capture"))
                    elif self.ep is not None and t == self.ep[0]:
                        targets.append((t, "ep"))
                for t, how in targets:
                    if last_cell(t, me):
                        for promo in "qrbn":
                            out.append((c, t, promo, how))
                    else:
                        out.append((c, t, "", how))
                continue
            if kind == "N":
                steps, ride = KNIGHT, False
            elif kind == "K":
                steps, ride = ORTHOGONAL + DIAGONAL, False
            elif kind == "R":
                steps, ride = ORTHOGONAL, True
            elif kind == "B":
                steps, ride = DIAGONAL, True
            else:
                steps, ride = ORTHOGONAL + DIAGONAL, True
            for s in steps:
                t = add(c, s)
                while t is not None:
                    if t in self.board:
                        if colour(self.board[t]) != me:
                            out.append((c, t, "", "capture"))
                        break
                    out.append((c, t, "", "quiet"))
                    if not ride:
                        break
                    t = add(t, s)
        return out

    def play(self, m):
        c, t, promo, how = m
        nxt = self.copy()
        p = nxt.board.pop(c)
        captured = t in nxt.board
        if how == "ep":
            del nxt.board[self.ep[1]]
            nxt.moved.discard(self.ep[1])
            captured = True
        nxt.moved.discard(t)
        nxt.moved.discard(c)
        nxt.board[t] = (promo.upper() if p.isupper() else promo) if promo else p
        if p.upper() == "P" and not promo:
            nxt.moved.add(t)
        nxt.ep = None
        if how == "double":
            skipped = ((c[0] + t[0]) // 2, (c[1] + t[1]) // 2)
            nxt.ep = (skipped, t)
        nxt.half = 0 if (p.upper() == "P" or captured) else self.half + 1
        if self.side == "b":
            nxt.full += 1
        nxt.side = "b" if self.side == "w" else "w"
        return nxt

    def legal(self):
        out = []
        for m in self.pseudo():
            nxt = self.play(m)
            k = nxt.king(self.side)
            if k is not None and not nxt.attacked(k, nxt.side):
                out.append(m)
        return out

    def usable_ep(self):
        if self.ep is None:
            return False
        return any(m[3] == "ep" for m in self.legal())

    def fen(self):
        rows = [board_row(self.board.get(c) for c in shape) for shape in ROWS]
        ep = LABEL[self.ep[0]] if self.usable_ep() else "-"
        return "%s %s %s %d %d" % ("/".join(rows), self.side, ep, self.half, self.full)


def text(m):
    return LABEL[m[0]] + LABEL[m[1]] + m[2]


class HexChessOracle(Oracle):
    START = START
    OPTIONS = {
        "double-step": ("own-start", "any-start-cell"),
        "stalemate": ("draw", "glinski"),
        "fide-claims": ("off", "on"),
    }

    def position(self, fen):
        return Pos(fen, self.options["double-step"] == "any-start-cell")

    def text(self, pos, m):
        return text(m)

    def after(self, pos, m):
        return pos.play(m)

    def piece(self, pos, m):
        return pos.board[m[0]] + LABEL[m[0]]


if __name__ == "__main__":
    sys.exit(oracle_main(HexChessOracle(), sys.argv[1:], __doc__))
