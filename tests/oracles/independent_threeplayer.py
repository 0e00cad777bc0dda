#!/usr/bin/env python3
"""An independent implementation of three-player chess (docs/rules/threeplayer.md), written
from the rules file alone, for differential tests of the Rust engine.

It shares no code or tables with the engine and does not use its frames or seams: cells are
the rules file's labels; orthogonal neighbours are consecutive cells of the file and rank
lines the file lists; diagonal neighbours come from the half-boards and strips the file names
plus its list of centre pairs; a diagonal line goes on from b (entered from a) into the
diagonal neighbour c of b that shares no neighbour-cell relation with a (the opposite corner),
and through the centre only along the file's six half-lines; the knight is the file's
definition; a pawn's forward cell follows its file line towards or away from the back rank of
the half it stands in; legality is decided by playing each move and testing both opponents'
attacks on the king.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts);
`perft FEN DEPTH` prints the bare count and `divide FEN` the depth-1 moves by piece.
"""

import sys

from oracle_common import Oracle, board_row, main as oracle_main, read_row

START = ("rQrBrNrRrKrBrNrR/rPrPrPrPrPrPrPrP/8/8/bRbNbBbKbQbBbNbR/bPbPbPbPbPbPbPbP/8/8/8/8/"
         "wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR w wKQ,rKQ,bKQ - 0 1")
COLOURS = "wrb"
# Local files a..h and local ranks 1..4 of White, Red, Black.
LOCAL = [("ABCDEFGH", [1, 2, 3, 4]), ("HGFEIJKL", [12, 11, 10, 9]), ("LKJIDCBA", [8, 7, 6, 5])]


def L(f, r):
    return "%s%d" % (f, r)


HALF = {}          # label -> owner of the half
LOCAL_OF = {}      # label -> (local file 0..7, local rank 0..3)
for p, (files, ranks) in enumerate(LOCAL):
    for fi, f in enumerate(files):
        for ri, r in enumerate(ranks):
            HALF[L(f, r)] = p
            LOCAL_OF[L(f, r)] = (fi, ri)
CELLS = sorted(HALF)

FILE_LINES = ([[L(f, r) for r in range(1, 9)] for f in "ABCD"]
              + [[L(f, r) for r in [1, 2, 3, 4, 9, 10, 11, 12]] for f in "EFGH"]
              + [[L(f, r) for r in [8, 7, 6, 5, 9, 10, 11, 12]] for f in "IJKL"])
RANK_LINES = []
for r in range(1, 13):
    order = "ABCDEFGH" if r <= 4 else ("LKJIDCBA" if r <= 8 else "HGFEIJKL")
    RANK_LINES.append([L(f, r) for f in order])
LINES = FILE_LINES + RANK_LINES

ORTH = {c: set() for c in CELLS}
for line in LINES:
    for a, b in zip(line, line[1:]):
        ORTH[a].add(b)
        ORTH[b].add(a)

BOARDS = [[[L(f, r) for f in files] for r in ranks] for files, ranks in LOCAL]
BOARDS += [[[L(f, r) for f in files] for r in ranks] for files, ranks in
           [("ABCD", range(1, 9)), ("EFGH", [1, 2, 3, 4, 9, 10, 11, 12]),
            ("IJKL", [8, 7, 6, 5, 9, 10, 11, 12])]]
DIAG = {c: set() for c in CELLS}
for grid in BOARDS:
    for r in range(len(grid)):
        for c in range(len(grid[0])):
            for dr, dc in ((1, 1), (1, -1)):
                if 0 <= r + dr < len(grid) and 0 <= c + dc < len(grid[0]):
                    a, b = grid[r][c], grid[r + dr][c + dc]
                    DIAG[a].add(b)
                    DIAG[b].add(a)
CENTRE_PAIRS = [("D4", "E9"), ("D4", "I5"), ("E9", "I5"), ("E4", "I9"), ("E4", "D5"), ("I9", "D5")]
for a, b in CENTRE_PAIRS:
    DIAG[a].add(b)
    DIAG[b].add(a)
FAMILIES = [[["A1", "B2", "C3", "D4"], ["H12", "G11", "F10", "E9"], ["L8", "K7", "J6", "I5"]],
            [["H1", "G2", "F3", "E4"], ["L12", "K11", "J10", "I9"], ["A8", "B7", "C6", "D5"]]]
CENTRE = {x for a, b in CENTRE_PAIRS for x in (a, b)}


def diag_next(a, b):
    """Cells a diagonal line entering b from a goes on to."""
    if a in CENTRE and b in CENTRE:
        # Out of the centre: along b's half-line away from the centre.
        for fam in FAMILIES:
            for seg in fam:
                if seg[3] == b:
                    return [seg[2]]
    if b in CENTRE and any(seg[2] == a and seg[3] == b for fam in FAMILIES for seg in fam):
        # Into the centre: fork into the two other half-lines of the family.
        for fam in FAMILIES:
            for seg in fam:
                if seg[3] == b:
                    return [q[3] for q in fam if q[3] != b]
    out = []
    for c in DIAG[b]:
        if c == a or c in ORTH[a] or c in DIAG[a]:
            continue
        if ORTH[a] & ORTH[c]:
            continue
        if (b, c) in CENTRE_PAIRS or (c, b) in CENTRE_PAIRS:
            continue
        out.append(c)
    return out


def rook_rays(c):
    out = []
    for line in LINES:
        if c in line:
            i = line.index(c)
            out.append(line[i + 1:])
            out.append(line[:i][::-1])
    return [r for r in out if r]


def bishop_rays(c):
    rays = []

    def walk(path, a, b):
        nxt = diag_next(a, b)
        if not nxt:
            rays.append(path)
        for n in nxt:
            walk(path + [n], b, n)
    for d in DIAG[c]:
        walk([d], c, d)
    return rays


def knight(c):
    reach = set()
    for o in ORTH[c]:
        reach |= DIAG[o]
    for d in DIAG[c]:
        reach |= ORTH[d]
    return reach - {c} - ORTH[c] - DIAG[c]


ROOK_RAYS = {c: rook_rays(c) for c in CELLS}
BISHOP_RAYS = {c: bishop_rays(c) for c in CELLS}
KNIGHT = {c: knight(c) for c in CELLS}
KING = {c: ORTH[c] | DIAG[c] for c in CELLS}
FILE_OF = {c: line for line in FILE_LINES for c in line}


def forward(player, c):
    """The cell ahead of `player`'s pawn on c: along its file line, away from the back rank
    of its own half, or towards the back rank of an opponent's half."""
    line = FILE_OF[c]
    i = line.index(c)
    owner = HALF[c]
    owner_end_first = HALF[line[0]] == owner   # line[0] is on the owner's back rank side
    towards_owner = -1 if owner_end_first else 1
    step = -towards_owner if owner == player else towards_owner
    j = i + step
    return line[j] if 0 <= j < len(line) else None


def pawn_captures(player, c):
    f = forward(player, c)
    return (DIAG[c] & ORTH[f]) if f else set()


BACK = [{L(f, r[0]) for f in files} for files, r in LOCAL]
PROMO = [BACK[1] | BACK[2], BACK[0] | BACK[2], BACK[0] | BACK[1]]
SECOND = [{L(f, r[1]) for f in files} for files, r in LOCAL]


def local(p, f, r):
    files, ranks = LOCAL[p]
    return L(files[f], ranks[r])


def row_files(r):
    """The files of rank r in FEN order."""
    return "EFGHIJKL" if r >= 9 else ("ABCDIJKL" if r >= 5 else "ABCDEFGH")


class Pos:
    def __init__(self, fen):
        parts = fen.split()
        rows = parts[0].split("/")
        self.board = {}
        for r, text in zip(range(12, 0, -1), rows):
            for f, man in zip(row_files(r), read_row(text, "[a-z][A-Za-z]")):
                if man is not None:
                    self.board[L(f, r)] = man
        self.side = COLOURS.index(parts[1])
        self.castle = set()
        if parts[2] != "-":
            for part in parts[2].split(","):
                for ch in part[1:]:
                    self.castle.add((COLOURS.index(part[0]), ch))
        self.ep = {}
        if parts[3] != "-":
            for part in parts[3].split(","):
                owner = COLOURS.index(part[-1])
                skipped = part[:-1]
                landing = forward(owner, skipped)
                self.ep[owner] = (skipped, landing)
        self.half = int(parts[4])
        self.full = int(parts[5])

    def copy(self):
        n = Pos.__new__(Pos)
        n.board = dict(self.board)
        n.side, n.castle, n.ep = self.side, set(self.castle), dict(self.ep)
        n.half, n.full = self.half, self.full
        return n

    def attacks(self, by, target):
        """Whether player `by` could capture on `target` (pins ignored)."""
        for c, man in self.board.items():
            if COLOURS.index(man[0]) != by:
                continue
            kind = man[1]
            if kind == "P":
                if target in pawn_captures(by, c):
                    return True
            elif kind == "N":
                if target in KNIGHT[c]:
                    return True
            elif kind == "K":
                if target in KING[c]:
                    return True
            else:
                rays = []
                if kind in "RQ":
                    rays += ROOK_RAYS[c]
                if kind in "BQ":
                    rays += BISHOP_RAYS[c]
                for ray in rays:
                    for x in ray:
                        if x == target:
                            return True
                        if x in self.board:
                            break
        return False

    def king(self, p):
        for c, man in self.board.items():
            if man == COLOURS[p] + "K":
                return c
        return None

    def in_check(self, p):
        k = self.king(p)
        return k is not None and any(self.attacks(o, k) for o in range(3) if o != p)

    def capturable(self):
        nxt = (self.side + 1) % 3
        k = self.king(nxt)
        return k is not None and self.attacks(self.side, k)

    def pseudo(self):
        me = self.side
        mine = COLOURS[me]
        out = []
        for c, man in list(self.board.items()):
            if man[0] != mine:
                continue
            kind = man[1]
            targets = []
            if kind == "P":
                f = forward(me, c)
                if f and f not in self.board:
                    targets.append((f, "plain"))
                    if c in SECOND[me]:
                        f2 = forward(me, f)
                        if f2 and f2 not in self.board:
                            targets.append((f2, "double"))
                for t in pawn_captures(me, c):
                    if t in self.board and self.board[t][0] != mine:
                        targets.append((t, "plain"))
                for owner, (skipped, landing) in self.ep.items():
                    if owner != me and skipped in pawn_captures(me, c):
                        targets.append((skipped, "ep"))
            elif kind in "NK":
                for t in (KNIGHT if kind == "N" else KING)[c]:
                    if t not in self.board or self.board[t][0] != mine:
                        targets.append((t, "plain"))
            else:
                rays = []
                if kind in "RQ":
                    rays += ROOK_RAYS[c]
                if kind in "BQ":
                    rays += BISHOP_RAYS[c]
                seen = set()
                for ray in rays:
                    for x in ray:
                        if x in self.board:
                            if self.board[x][0] != mine:
                                seen.add(x)
                            break
                        seen.add(x)
                targets += [(t, "plain") for t in seen]
            for t, how in targets:
                if kind == "P" and t in PROMO[me]:
                    for q in "QRBN":
                        out.append((c, t, q, how))
                else:
                    out.append((c, t, "", how))
        # Castling in local terms: king e1 -> g1 (rook h1 -> f1) or c1 (rook a1 -> d1).
        for side, kt, rf, rt, between in (("K", 6, 7, 5, [5, 6]), ("Q", 2, 0, 3, [1, 2, 3])):
            if (me, side) not in self.castle:
                continue
            ke, kto = local(me, 4, 0), local(me, kt, 0)
            if self.board.get(ke) != mine + "K" or self.board.get(local(me, rf, 0)) != mine + "R":
                continue
            if any(local(me, f, 0) in self.board for f in between):
                continue
            crossed = [local(me, f, 0) for f in range(min(4, kt), max(4, kt) + 1)]
            if any(self.attacks(o, x) for o in range(3) if o != me for x in crossed):
                continue
            out.append((ke, kto, "", "castle" + side))
        return out

    def play(self, m):
        c, t, promo, how = m
        me = self.side
        n = self.copy()
        man = n.board.pop(c)
        captured = t in n.board
        if how == "ep":
            for owner, (skipped, landing) in self.ep.items():
                if skipped == t and owner != me:
                    del n.board[landing]
            captured = True
        n.board[t] = (man[0] + promo) if promo else man
        if how.startswith("castle"):
            rf, rt = (7, 5) if how == "castleK" else (0, 3)
            n.board[local(me, rt, 0)] = n.board.pop(local(me, rf, 0))
        if man[1] == "K":
            n.castle -= {(me, "K"), (me, "Q")}
        if how == "double":
            n.ep[me] = (forward(me, c), t)
        n.half = 0 if (man[1] == "P" or captured) else self.half + 1
        n.side = (me + 1) % 3
        if n.side == 0:
            n.full += 1
        n.ep.pop(n.side, None)
        # Rights that can no longer be used.
        for p in range(3):
            for side, rf in (("K", 7), ("Q", 0)):
                if (n.board.get(local(p, 4, 0)) != COLOURS[p] + "K"
                        or n.board.get(local(p, rf, 0)) != COLOURS[p] + "R"):
                    n.castle.discard((p, side))
        for owner in list(n.ep):
            skipped, landing = n.ep[owner]
            if n.board.get(landing) != COLOURS[owner] + "P" or skipped in n.board:
                del n.ep[owner]
        return n

    def legal(self):
        if self.capturable():
            return []
        out = []
        for m in self.pseudo():
            n = self.play(m)
            if not n.in_check(self.side):
                out.append(m)
        return out

    def fen(self):
        rows = [board_row(self.board.get(L(f, r)) for f in row_files(r)) for r in range(12, 0, -1)]
        castle = []
        for p in range(3):
            s = "".join(ch for ch in "KQ" if (p, ch) in self.castle)
            if s:
                castle.append(COLOURS[p] + s)
        ep = [self.ep[p][0] + COLOURS[p] for p in range(3) if p in self.ep]
        return "%s %s %s %s %d %d" % ("/".join(rows), COLOURS[self.side],
                                      ",".join(castle) or "-", ",".join(ep) or "-",
                                      self.half, self.full)


def text(m):
    return m[0] + m[1] + m[2].lower()


class ThreePlayerOracle(Oracle):
    START = START

    def position(self, fen):
        return Pos(fen)

    def text(self, pos, m):
        return text(m)

    def after(self, pos, m):
        return pos.play(m)

    def piece(self, pos, m):
        return pos.board[m[0]] + m[0]


if __name__ == "__main__":
    sys.exit(oracle_main(ThreePlayerOracle(), sys.argv[1:], __doc__))
