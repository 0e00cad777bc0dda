#!/usr/bin/env python3
"""Independent reference move generator and perft for four large chess variants.

Written only from the rules pages in docs/rules (doublechess.md, omega.md,
outer.md, renaissance.md, chess.md and the README conventions), without looking at the
Rust engine, so that its perft numbers can be cross-checked.  Default rule options only.

Standard library only; simple padded-mailbox code with pseudo-legal generation followed by
a king-safety test after each move (make / test / unmake).

Usage: independent_perft.py <variant> followed by the command line of oracle_common.py
(perft, --divide, --moves, --walk, --playouts).

variants: doublechess, omega, outer, renaissance (and `chess`, used only as a self-test of
the shared core against well-known perft numbers).

Moves are written in the coordinate notation of the rules files: from-cell, to-cell,
promotion letter in lower case; castling as the king's move; Omega corner cells w1..w4, Big
Outer Chess corner cells z1..z4.
"""
import re
import sys

from oracle_common import COMMAND_LINE, Oracle, board_row, counter, main as oracle_main, read_row

PAD = 5            # padding around the grid (largest leap is 4 cells in one coordinate)
EMPTY = '.'
OFF = '#'
INF = 1 << 30

# move kinds
NORMAL, PAWNADV, EPCAP, CASTLE = 0, 1, 2, 3


def sym(a, b):
    """All eight orientations of an (a, b) leap / direction."""
    s = set()
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                s.add((x * sx, y * sy))
    return s


ORTH = sym(1, 0)
DIAG = sym(1, 1)
KINGSTEP = ORTH | DIAG
KNIGHT = sym(2, 1)


def leaper(offs):
    return (frozenset(offs), {})


def rider(dirs, rng=INF, offs=()):
    return (frozenset(offs), {d: rng for d in dirs})


def by_zone(outer, middle, inner):
    """A Big Outer Chess piece whose powers depend on the zone of its start cell."""
    return [outer, middle, inner]


# Bent riders (Renaissance).  Each entry (first, second): destination
# T(n) = start + first + n*second, n >= 1; path 1 = start+first+k*second (k = 0..n-1)
# empty, path 2 = start+k*second (k = 1..n) empty; either path suffices.
DUKE_PAIRS = []      # first = orthogonal step o, second = diagonal d sharing o's direction
for (ox, oy) in ORTH:
    for (dx, dy) in DIAG:
        if (ox != 0 and dx == ox) or (oy != 0 and dy == oy):
            DUKE_PAIRS.append(((ox, oy), (dx, dy)))
CAVALIER_PAIRS = []  # first = diagonal step d, second = orthogonal o contained in d
for (dx, dy) in DIAG:
    for (ox, oy) in ((dx, 0), (0, dy)):
        CAVALIER_PAIRS.append(((dx, dy), (ox, oy)))
assert len(DUKE_PAIRS) == 8 and len(CAVALIER_PAIRS) == 8

FILES = 'abcdefghijklmnopqrstuvwxyz'


# --------------------------------------------------------------------------------------
# Variant definitions
# --------------------------------------------------------------------------------------

class VariantDef:
    pass


def chess_like_pieces():
    return {
        'K': leaper(KINGSTEP),
        'Q': rider(KINGSTEP),
        'R': rider(ORTH),
        'B': rider(DIAG),
        'N': leaper(KNIGHT),
    }


def make_chess():
    v = VariantDef()
    v.name = 'chess'
    v.W, v.H = 8, 8
    v.exists = lambda x, y: True
    v.cellname = lambda x, y: FILES[x] + str(y + 1)
    v.zones = None
    v.pieces = chess_like_pieces()
    v.bent = {}
    v.pawn_start = (1, 6)
    v.pawn_last = (7, 0)
    v.pawn_init_max = 2
    v.pawn_later_max = 1
    v.ep_creates = lambda n: n == 2
    v.promo = ['Q', 'R', 'B', 'N']
    v.fox_rank = None
    v.fox_guard = False
    # castling: (char, colour, king_from, king_to, rook_from, rook_to) in (x, y)
    v.castling = [
        ('K', 0, (4, 0), (6, 0), (7, 0), (5, 0)),
        ('Q', 0, (4, 0), (2, 0), (0, 0), (3, 0)),
        ('k', 1, (4, 7), (6, 7), (7, 7), (5, 7)),
        ('q', 1, (4, 7), (2, 7), (0, 7), (3, 7)),
    ]
    v.castling_order = 'KQkq'
    v.start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    return v


def make_doublechess():
    v = VariantDef()
    v.name = 'doublechess'
    v.W, v.H = 16, 8
    v.exists = lambda x, y: True
    v.cellname = lambda x, y: FILES[x] + str(y + 1)
    v.zones = None
    v.pieces = chess_like_pieces()
    v.bent = {}
    v.pawn_start = (1, 6)
    v.pawn_last = (7, 0)
    v.pawn_init_max = 2
    v.pawn_later_max = 1
    v.ep_creates = lambda n: n == 2
    v.promo = ['Q', 'R', 'B', 'N']
    v.fox_rank = None
    v.fox_guard = False
    cs = []
    for col, y in ((0, 0), (1, 7)):
        for ch, kto, rfrom, rto in (('L', 10, 11, 9),    # inner kingside  i->k, l->j
                                    ('E', 6, 4, 7),      # inner queenside i->g, e->h
                                    ('P', 12, 15, 11),   # outer kingside  i->m, p->l
                                    ('A', 4, 0, 5)):     # outer queenside i->e, a->f
            cs.append((ch if col == 0 else ch.lower(), col, (8, y), (kto, y), (rfrom, y), (rto, y)))
    v.castling = cs
    v.castling_order = 'AELPaelp'
    v.start = ('rnbqrnbqkbnrqbnr/pppppppppppppppp/16/16/16/16/PPPPPPPPPPPPPPPP/'
               'RNBQRNBQKBNRQBNR w AELPaelp - 0 1')
    return v


def make_omega():
    v = VariantDef()
    v.name = 'omega'
    v.W, v.H = 12, 12
    corners = {(0, 0): 'w1', (11, 0): 'w2', (11, 11): 'w3', (0, 11): 'w4'}

    def exists(x, y):
        return (1 <= x <= 10 and 1 <= y <= 10) or (x, y) in corners

    def cellname(x, y):
        if (x, y) in corners:
            return corners[(x, y)]
        return FILES[x - 1] + str(y - 1)       # Omega files a-j, ranks 0-9
    v.exists = exists
    v.cellname = cellname
    v.zones = None
    p = chess_like_pieces()
    p['C'] = leaper(ORTH | sym(2, 0) | sym(2, 2))     # champion WAD
    p['W'] = leaper(DIAG | sym(3, 1))                 # wizard FC
    v.pieces = p
    v.bent = {}
    v.pawn_start = (2, 9)      # Omega ranks 1 and 8
    v.pawn_last = (10, 1)      # Omega ranks 9 and 0
    v.pawn_init_max = 3
    v.pawn_later_max = 1
    v.ep_creates = lambda n: n in (2, 3)
    v.promo = ['Q', 'R', 'B', 'N', 'C', 'W']
    v.fox_rank = None
    v.fox_guard = False
    # king f0 = grid (6,1); rooks b0 = (2,1), i0 = (9,1)
    v.castling = [
        ('K', 0, (6, 1), (8, 1), (9, 1), (7, 1)),
        ('Q', 0, (6, 1), (4, 1), (2, 1), (5, 1)),
        ('k', 1, (6, 10), (8, 10), (9, 10), (7, 10)),
        ('q', 1, (6, 10), (4, 10), (2, 10), (5, 10)),
    ]
    v.castling_order = 'KQkq'
    v.start = ('w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*10*/*10*/'
               '*PPPPPPPPPP*/*CRNBQKBNRC*/W**********W w KQkq - 0 1')
    return v


def make_outer():
    v = VariantDef()
    v.name = 'outer'
    v.W, v.H = 14, 14
    corners = {(0, 0): 'z1', (13, 0): 'z2', (13, 13): 'z3', (0, 13): 'z4'}

    def exists(x, y):
        return (1 <= x <= 12 and 1 <= y <= 12) or (x, y) in corners

    def cellname(x, y):
        if (x, y) in corners:
            return corners[(x, y)]
        return FILES[x - 1] + str(y)

    def zone(x, y):            # 0 outer, 1 middle, 2 inner (judged from the start cell)
        if 5 <= x <= 8 and 5 <= y <= 8:
            return 2
        if 3 <= x <= 10 and 3 <= y <= 10:
            return 1
        return 0
    v.exists = exists
    v.cellname = cellname
    v.zones = zone
    p = chess_like_pieces()
    del p['N']
    # zone-dependent pieces: specs for (outer, middle, inner) zone
    p['W'] = leaper(DIAG | sym(3, 1))                                  # guard
    p['M'] = by_zone(rider(KINGSTEP, INF), rider(KINGSTEP, 6), rider(KINGSTEP, 3))  # matriarch
    p['J'] = by_zone(leaper(KINGSTEP | sym(3, 0) | sym(3, 3)),        # jumper
                     leaper(KINGSTEP | sym(2, 0) | sym(2, 2)),
                     leaper(KINGSTEP))
    p['N'] = by_zone(leaper(sym(4, 1) | sym(3, 2)),                   # outer knight
                     leaper(sym(3, 1) | sym(2, 2)),
                     leaper(KNIGHT))
    v.pieces = p
    v.bent = {}
    v.pawn_start = (2, 11)
    v.pawn_last = (12, 1)
    v.pawn_init_max = 4
    v.pawn_later_max = 2
    v.ep_creates = lambda n: n == 2          # default en-passant=two-cell
    v.promo = ['Q', 'R', 'B', 'W', 'M', 'J', 'N']
    v.fox_rank = None
    v.fox_guard = False
    # king g1 = (7,1); rooks b1 = (2,1), k1 = (11,1); king moves three cells
    v.castling = [
        ('K', 0, (7, 1), (10, 1), (11, 1), (9, 1)),
        ('Q', 0, (7, 1), (4, 1), (2, 1), (5, 1)),
        ('k', 1, (7, 12), (10, 12), (11, 12), (9, 12)),
        ('q', 1, (7, 12), (4, 12), (2, 12), (5, 12)),
    ]
    v.castling_order = 'KQkq'
    v.start = ('n************n/*jrmwbqkbwmrj*/*pppppppppppp*/*12*/*12*/*12*/*12*/*12*/*12*/*12*/'
               '*12*/*PPPPPPPPPPPP*/*JRMWBQKBWMRJ*/N************N w KQkq - 0 1')
    return v


def make_renaissance():
    v = VariantDef()
    v.name = 'renaissance'
    v.W, v.H = 12, 10
    v.exists = lambda x, y: True
    v.cellname = lambda x, y: FILES[x] + str(y + 1)
    v.zones = None
    p = chess_like_pieces()
    p['F'] = leaper(ORTH)                                    # fox
    p['U'] = leaper(KINGSTEP)                                # guard
    p['E'] = leaper(KINGSTEP | KNIGHT)                       # page
    p['S'] = leaper(KINGSTEP | sym(2, 0) | sym(2, 2))        # squire
    p['T'] = leaper(KNIGHT | sym(2, 0) | sym(2, 2))          # castle
    p['G'] = leaper(sym(3, 1))                               # general
    p['A'] = rider(DIAG, INF, KNIGHT)                        # archbishop
    p['C'] = rider(ORTH, INF, KNIGHT)                        # nobleman
    p['M'] = rider(KINGSTEP, INF, KNIGHT)                    # prince
    p['D'] = leaper(())                                      # duke (bent, below)
    p['V'] = leaper(())                                      # cavalier (bent, below)
    v.pieces = p
    v.bent = {'D': DUKE_PAIRS, 'V': CAVALIER_PAIRS}
    v.pawn_start = (2, 7)
    v.pawn_last = (9, 0)
    v.pawn_init_max = 2
    v.pawn_later_max = 1
    v.ep_creates = lambda n: n == 2
    v.promo = ['Q', 'R', 'B', 'N', 'F', 'U', 'E', 'S', 'T', 'G', 'A', 'C', 'M', 'D', 'V']
    v.fox_rank = (8, 1)        # next-to-last ranks 9 / 2
    v.fox_guard = True         # a fox ending on its owner's last rank may become a guard
    v.castling = []
    v.castling_order = ''
    v.start = ('g1q1vesd1m1g/rntbckuabtnr/pppppppppppp/5ff5/12/12/5FF5/PPPPPPPPPPPP/'
               'RNTBAUKCBTNR/G1M1DSEV1Q1G w - - 0 1')
    return v


VARIANTS = {
    'chess': make_chess,
    'doublechess': make_doublechess,
    'omega': make_omega,
    'outer': make_outer,
    'renaissance': make_renaissance,
}


# --------------------------------------------------------------------------------------
# Game / position
# --------------------------------------------------------------------------------------

class Game:
    def __init__(self, variant, fen=None):
        v = VARIANTS[variant]()
        self.v = v
        self.S = S = v.W + 2 * PAD
        self.size = S * (v.H + 2 * PAD)
        self.cells = []
        self.xy = {}
        self.name = {}
        self.byname = {}
        for y in range(v.H):
            for x in range(v.W):
                if v.exists(x, y):
                    i = self.idx(x, y)
                    self.cells.append(i)
                    self.xy[i] = (x, y)
                    n = v.cellname(x, y)
                    self.name[i] = n
                    self.byname[n] = i
        self.zone = [0] * self.size
        self.zoned = v.zones is not None
        if self.zoned:
            for i in self.cells:
                self.zone[i] = v.zones(*self.xy[i])
        self.rank = [-99] * self.size
        for i in self.cells:
            self.rank[i] = self.xy[i][1]
        # piece movement tables per letter per zone: (leap offsets list, leap set, rides list)
        self.leaps = {}
        self.leapset = {}
        self.rides = {}
        self.riderange = {}
        for t, spec in v.pieces.items():
            specs = spec if isinstance(spec, list) else (spec, spec, spec)
            self.leaps[t] = []
            self.leapset[t] = []
            self.rides[t] = []
            self.riderange[t] = []
            for sp in specs:
                offs, rides = sp
                lo = [dx + dy * S for (dx, dy) in sorted(offs)]
                self.leaps[t].append(lo)
                self.leapset[t].append(frozenset(lo))
                rl = [(dx + dy * S, r) for (dx, dy), r in sorted(rides.items())]
                self.rides[t].append(rl)
                self.riderange[t].append({d: r for d, r in rl})
        self.bent = {t: [(fx + fy * S, sx + sy * S) for (fx, fy), (sx, sy) in pairs]
                     for t, pairs in v.bent.items()}
        # attack tables
        att_leaps = {}
        att_rides = {}
        for t in v.pieces:
            for z in range(3):
                for o in self.leaps[t][z]:
                    att_leaps.setdefault(o, set()).add(t)
                for d, r in self.rides[t][z]:
                    att_rides.setdefault(d, set()).add(t)
        self.att_leaps = [(o, frozenset(ts)) for o, ts in sorted(att_leaps.items())]
        self.att_rides = [(d, frozenset(ts)) for d, ts in sorted(att_rides.items())]
        # castling
        self.castle_specs = []
        self.castle_bit = {}
        self.cmask = [0] * self.size
        for bit, (ch, col, kf, kt, rf, rt) in enumerate(v.castling):
            kfi, kti, rfi, rti = (self.idx(*c) for c in (kf, kt, rf, rt))
            lo, hi = sorted((kf[0], rf[0]))
            between = [self.idx(x, kf[1]) for x in range(lo + 1, hi)]
            step = 1 if kt[0] > kf[0] else -1
            safe = [self.idx(x, kf[1]) for x in range(kf[0], kt[0] + step, step)]
            self.castle_specs.append((1 << bit, ch, col, kfi, kti, rfi, rti, between, safe))
            self.castle_bit[ch] = 1 << bit
            self.cmask[kfi] |= 1 << bit
            self.cmask[rfi] |= 1 << bit
        self.white_set = set()
        self.black_set = set()
        for t in v.pieces:
            self.white_set.add(t)
            self.black_set.add(t.lower())
        self.white_set.add('P')
        self.black_set.add('p')
        self.set_fen(fen or v.start)

    def idx(self, x, y):
        return (y + PAD) * self.S + x + PAD

    # ---------------- FEN ----------------
    def set_fen(self, fen):
        v = self.v
        parts = fen.split()
        rows = parts[0].split('/')
        if len(rows) != v.H:
            raise ValueError('expected %d ranks, got %d' % (v.H, len(rows)))
        b = [OFF] * self.size
        for i in self.cells:
            b[i] = EMPTY
        self.king = [None, None]
        for r, row in enumerate(rows):
            y = v.H - 1 - r
            cells = read_row(row, '.')
            if len(cells) != v.W:
                raise ValueError('rank %r has %d cells, expected %d' % (row, len(cells), v.W))
            for x, tok in enumerate(cells):
                if tok == '*' or not v.exists(x, y):
                    if tok != '*' or v.exists(x, y):
                        raise ValueError('%r does not match the missing cells in %r' % (tok, row))
                    continue
                if tok is None:
                    continue
                if tok not in self.white_set and tok not in self.black_set:
                    raise ValueError('unknown piece letter %r' % tok)
                i = self.idx(x, y)
                b[i] = tok
                if tok == 'K':
                    self.king[0] = i
                elif tok == 'k':
                    self.king[1] = i
        self.board = b
        self.side = 0 if (len(parts) < 2 or parts[1] == 'w') else 1
        cr = 0
        if len(parts) > 2 and parts[2] != '-':
            for ch in parts[2]:
                if ch not in self.castle_bit:
                    raise ValueError('unknown castling letter %r' % ch)
                cr |= self.castle_bit[ch]
        # drop rights whose king or rook is not at home
        for (bit, ch, col, kf, kt, rf, rt, between, safe) in self.castle_specs:
            if cr & bit:
                kk, rr = ('K', 'R') if col == 0 else ('k', 'r')
                if b[kf] != kk or b[rf] != rr:
                    cr &= ~bit
        self.castling = cr
        self.ep = None
        if len(parts) > 3 and parts[3] != '-':
            targets = [self.byname[n] for n in re.findall(r'[a-z]\d+', parts[3]) if n in self.byname]
            groups = {}
            for t in targets:
                vic = self.ep_victim(t)
                if vic is not None:
                    groups.setdefault(vic, []).append(t)
            if groups:
                vic = sorted(groups)[0]
                self.ep = (vic, tuple(sorted(groups[vic])))
        self.halfmove = counter(parts, 4, 0)
        self.fullmove = counter(parts, 5, 1)

    def ep_victim(self, t):
        """The enemy pawn that, by its last advance, passed over target cell t (or None)."""
        v = self.v
        b = self.board
        if b[t] != EMPTY:
            return None
        mover = 1 - self.side                    # the side that made the advance
        f = self.S if mover == 0 else -self.S
        sgn = 1 if mover == 0 else -1
        pawn = 'P' if mover == 0 else 'p'
        start = v.pawn_start[mover]
        for k in range(1, v.pawn_init_max):
            c = t + k * f
            if b[c] == pawn:
                if v.name == 'outer':
                    # default en-passant=two-cell: exactly two cells, first or later move
                    ok = k == 1 and b[t - f] != OFF
                else:
                    # a first-move advance from the start rank over t
                    n = (self.rank[c] - start) * sgn
                    ok = v.ep_creates(n) and (self.rank[t] - start) * sgn >= 1
                return c if ok else None
            if b[c] != EMPTY:
                return None
        return None

    def fen(self):
        v = self.v
        b = self.board
        rows = [board_row((b[self.idx(x, y)] if v.exists(x, y) else '*' for x in range(v.W)),
                          EMPTY)
                for y in range(v.H - 1, -1, -1)]
        cr = ''.join(ch for ch in v.castling_order if self.castling & self.castle_bit[ch]) or '-'
        # en passant: only targets onto which a legal e.p. capture exists
        eps = sorted({m[1] for m in self.legal_moves() if m[3] == EPCAP},
                     key=lambda i: (self.xy[i][1], self.xy[i][0]))
        ep = ''.join(self.name[i] for i in eps) or '-'
        return '%s %s %s %s %d %d' % ('/'.join(rows), 'wb'[self.side], cr, ep,
                                      self.halfmove, self.fullmove)

    # ---------------- attacks ----------------
    def attacked(self, sq, by):
        """Is cell sq attacked by side `by` (0 white, 1 black)?"""
        b = self.board
        S = self.S
        if by == 0:
            own = self.white_set
            pawn = 'P'
            pc = sq - S
        else:
            own = self.black_set
            pawn = 'p'
            pc = sq + S
        if b[pc - 1] == pawn or b[pc + 1] == pawn:
            return True
        zoned = self.zoned
        for o, ts in self.att_leaps:
            c = sq + o
            p = b[c]
            if p in own:
                t = p.upper()
                if t in ts:
                    if not zoned or o in self.leapset[t][self.zone[c]]:
                        return True
        for d, ts in self.att_rides:
            c = sq + d
            k = 1
            while b[c] == EMPTY:
                c += d
                k += 1
            p = b[c]
            if p in own:
                t = p.upper()
                if t in ts:
                    if not zoned or self.riderange[t][self.zone[c]].get(d, 0) >= k:
                        return True
        if self.bent:
            for t, pairs in self.bent.items():
                target = t if by == 0 else t.lower()
                for first, second in pairs:
                    for c in self.bent_targets(sq, first, second):
                        if b[c] == target:
                            return True
        return False

    def bent_targets(self, sq, first, second):
        """Destinations T(n) = sq+first+n*second reachable by either path; stops at the edge."""
        b = self.board
        p1 = p2 = True
        c1 = sq + first
        c2 = sq
        T = sq + first
        while True:
            if p1 and b[c1] != EMPTY:
                p1 = False
            c2 += second
            if p2 and b[c2] != EMPTY:
                p2 = False
            if not (p1 or p2):
                return
            T += second
            if b[T] == OFF:
                return
            yield T
            c1 += second

    # ---------------- move generation ----------------
    def pseudo_moves(self):
        v = self.v
        b = self.board
        S = self.S
        side = self.side
        if side == 0:
            own, enemy = self.white_set, self.black_set
            f = S
        else:
            own, enemy = self.black_set, self.white_set
            f = -S
        moves = []
        add = moves.append
        last = v.pawn_last[side]
        start = v.pawn_start[side]
        foxr = v.fox_rank[side] if v.fox_rank else None
        promo = v.promo
        rank = self.rank
        zoned = self.zoned
        for sq in self.cells:
            p = b[sq]
            if p not in own:
                continue
            t = p.upper()
            if t == 'P':
                r0 = rank[sq]
                nmax = v.pawn_init_max if r0 == start else v.pawn_later_max
                c = sq
                for n in range(1, nmax + 1):
                    c += f
                    if b[c] != EMPTY:
                        break
                    rc = rank[c]
                    if rc == last:
                        if n > 1:
                            break
                        for pr in promo:
                            add((sq, c, pr, NORMAL, None))
                        continue
                    if n >= 2 and v.ep_creates(n):
                        add((sq, c, None, PAWNADV, (c, tuple(sq + k * f for k in range(1, n)))))
                    else:
                        add((sq, c, None, NORMAL, None))
                    if rc == foxr:
                        add((sq, c, 'F', NORMAL, None))
                for c in (sq + f - 1, sq + f + 1):
                    q = b[c]
                    if q in enemy:
                        rc = rank[c]
                        if rc == last:
                            for pr in promo:
                                add((sq, c, pr, NORMAL, None))
                        else:
                            add((sq, c, None, NORMAL, None))
                            if rc == foxr:
                                add((sq, c, 'F', NORMAL, None))
                    elif q == EMPTY and self.ep is not None and c in self.ep[1]:
                        add((sq, c, None, EPCAP, self.ep[0]))
                continue
            z = self.zone[sq] if zoned else 0
            for o in self.leaps[t][z]:
                c = sq + o
                q = b[c]
                if q == EMPTY or q in enemy:
                    add((sq, c, None, NORMAL, None))
            for d, r in self.rides[t][z]:
                c = sq
                k = 0
                while k < r:
                    c += d
                    k += 1
                    q = b[c]
                    if q == EMPTY:
                        add((sq, c, None, NORMAL, None))
                        continue
                    if q in enemy:
                        add((sq, c, None, NORMAL, None))
                    break
            if t in self.bent:
                for first, second in self.bent[t]:
                    for c in self.bent_targets(sq, first, second):
                        q = b[c]
                        if q == EMPTY or q in enemy:
                            add((sq, c, None, NORMAL, None))
        if v.fox_guard:
            # a fox whose move ends on its owner's last rank may become a guard (optional)
            extra = []
            for m in moves:
                if m[2] is None and b[m[0]].upper() == 'F' and rank[m[1]] == last:
                    extra.append((m[0], m[1], 'U', NORMAL, None))
            moves.extend(extra)
        # castling
        if self.castling:
            for (bit, ch, col, kf, kt, rf, rt, between, safe) in self.castle_specs:
                if col != side or not (self.castling & bit):
                    continue
                if any(b[c] != EMPTY for c in between):
                    continue
                if any(self.attacked(c, 1 - side) for c in safe):
                    continue
                add((kf, kt, None, CASTLE, (rf, rt)))
        return moves

    def make(self, m):
        frm, to, pr, kind, extra = m
        b = self.board
        p = b[frm]
        cap = b[to]
        undo = (p, cap, self.castling, self.ep, self.king[0], self.king[1], self.halfmove,
                self.fullmove, None)
        b[frm] = EMPTY
        if pr is None:
            b[to] = p
        else:
            b[to] = pr if self.side == 0 else pr.lower()
        if kind == EPCAP:
            undo = undo[:8] + (b[extra],)
            b[extra] = EMPTY
        elif kind == CASTLE:
            rf, rt = extra
            b[rt] = b[rf]
            b[rf] = EMPTY
        if p == 'K':
            self.king[0] = to
        elif p == 'k':
            self.king[1] = to
        if self.castling:
            self.castling &= ~(self.cmask[frm] | self.cmask[to])
        self.ep = extra if kind == PAWNADV else None
        if p in ('P', 'p') or cap != EMPTY:
            self.halfmove = 0
        else:
            self.halfmove += 1
        if self.side == 1:
            self.fullmove += 1
        self.side ^= 1
        return undo

    def unmake(self, m, undo):
        frm, to, pr, kind, extra = m
        b = self.board
        p, cap, self.castling, self.ep, k0, k1, self.halfmove, self.fullmove, vic = undo
        self.king[0] = k0
        self.king[1] = k1
        self.side ^= 1
        b[frm] = p
        b[to] = cap
        if kind == EPCAP:
            b[extra] = vic
        elif kind == CASTLE:
            rf, rt = extra
            b[rf] = b[rt]
            b[rt] = EMPTY

    def legal_moves(self):
        res = []
        side = self.side
        for m in self.pseudo_moves():
            u = self.make(m)
            k = self.king[side]
            if k is None or not self.attacked(k, 1 - side):
                res.append(m)
            self.unmake(m, u)
        return res

    def in_check(self):
        k = self.king[self.side]
        return k is not None and self.attacked(k, 1 - self.side)

    def movestr(self, m):
        s = self.name[m[0]] + self.name[m[1]]
        if m[2]:
            s += m[2].lower()
        return s

    def perft(self, depth):
        if depth == 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        n = 0
        for m in moves:
            u = self.make(m)
            n += self.perft(depth - 1)
            self.unmake(m, u)
        return n

    def divide(self, depth):
        res = []
        for m in self.legal_moves():
            u = self.make(m)
            res.append((self.movestr(m), self.perft(depth - 1)))
            self.unmake(m, u)
        return sorted(res)


class PerftOracle(Oracle):
    """A variant for the shared command line; perft by make / unmake."""

    def __init__(self, variant):
        super().__init__()
        self.variant = variant

    def position(self, fen):
        return Game(self.variant, fen)

    def moves(self, g):
        return g.legal_moves()

    def text(self, g, m):
        return g.movestr(m)

    def advance(self, g, m):
        g.make(m)
        return g

    def perft(self, g, depth):
        return g.perft(depth)

    def divide(self, g, depth):
        return g.divide(depth)


def main(argv):
    if not argv or argv[0] not in VARIANTS:
        sys.stderr.write(__doc__ + COMMAND_LINE)
        return 2
    return oracle_main(PerftOracle(argv[0]), argv[1:], __doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
