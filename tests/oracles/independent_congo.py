#!/usr/bin/env python3
"""Independent reference move generator and perft for Congo.

Written only from the rules file docs/rules/congo.md and the conventions in
docs/rules/README.md ("Positions, perft and results"), without looking at the
Rust engine, so that its perft numbers and move lists can be cross-checked.

Rules implemented (congo.md, default options plus `lion-castle=on`):
  * 7x7 board, river on rank 4; no check, every pseudo-legal move is legal;
  * a position in which a lion is missing (the game was decided by capturing it) has no
    moves; draw adjudications (two lions, repetition, 100 plies) are ignored;
  * lion (own three ranks, or its 3x3 castle under lion-castle=on; face-off capture of the
    enemy lion along an open line), giraffe (mK + 2-square jumps that move or capture),
    elephant (W + D), crocodile (K + slide along its file towards the river, up to and
    including the river square; in the river a slide along the river), zebra (knight),
    monkey (mK + draughts-like capture chains), pawn (fW fF, far-side backward moves),
    superpawn (fW fF sW + backward non-capturing W/F moves of one or two cells);
  * drowning at the end of the owner's move (general rule and the monkey rule);
  * automatic promotion of a pawn on its last rank.

Standard library only.  Boards are lists of 49 characters ('.' empty), index
rank * 7 + file with rank 0 = rank 1 and file 0 = file a.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts),
with --option lion-castle=off|on. Moves are written in coordinate notation; a monkey capture
chain lists every landing cell (`c3c5c7`); promotion is not written.
"""
import sys

from oracle_common import Oracle, board_row, counter, main as oracle_main, read_row

N = 7
RIVER = 3           # rank index of the river (rank 4)
EMPTY = '.'
START_FEN = 'gmelecn/ppppppp/7/7/7/PPPPPPP/GMELECN w 0 1'

KING_DIRS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
ORTH_DIRS = [(0, 1), (0, -1), (1, 0), (-1, 0)]
KNIGHT_DIRS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def sq(f, r):
    return r * N + f


def fr(s):
    return s % N, s // N


def name(s):
    return 'abcdefg'[s % N] + str(s // N + 1)


def on_board(f, r):
    return 0 <= f < N and 0 <= r < N


def is_white(p):
    return p != EMPTY and p.isupper()


def owner(p):
    if p == EMPTY:
        return None
    return 'w' if p.isupper() else 'b'


class Move(object):
    """from: start cell; path: landing cells (one for every move but monkey chains);
    jumped: cells of the pieces a monkey chain jumps; capture: True for any capture;
    chain: True for a monkey capturing move."""
    __slots__ = ('frm', 'path', 'jumped', 'capture', 'chain')

    def __init__(self, frm, path, jumped=(), capture=False, chain=False):
        self.frm = frm
        self.path = tuple(path)
        self.jumped = tuple(jumped)
        self.capture = capture
        self.chain = chain

    def __str__(self):
        return name(self.frm) + ''.join(name(s) for s in self.path)


class Position(object):
    def __init__(self, fen=START_FEN, castle=False):
        self.castle = castle
        parts = fen.split()
        if len(parts) < 2:
            raise ValueError('bad FEN %r' % fen)
        rows = parts[0].split('/')
        if len(rows) != N:
            raise ValueError('bad FEN board %r' % parts[0])
        board = [EMPTY] * (N * N)
        for i, row in enumerate(rows):
            cells = read_row(row)
            if len(cells) != N:
                raise ValueError('rank %r does not have 7 cells' % row)
            for f, ch in enumerate(cells):
                if ch is None:
                    continue
                if ch.upper() not in 'LGECNMPS':
                    raise ValueError('bad piece letter %r' % ch)
                board[sq(f, N - 1 - i)] = ch
        self.board = board
        self.side = parts[1]
        if self.side not in ('w', 'b'):
            raise ValueError('bad side %r' % self.side)
        self.plies = counter(parts, 2, 0)
        self.moveno = counter(parts, 3, 1)

    def copy(self):
        p = Position.__new__(Position)
        p.castle = self.castle
        p.board = self.board[:]
        p.side = self.side
        p.plies = self.plies
        p.moveno = self.moveno
        return p

    def fen(self):
        rows = [board_row((self.board[sq(f, r)] for f in range(N)), EMPTY)
                for r in range(N - 1, -1, -1)]
        return '%s %s %d %d' % ('/'.join(rows), self.side, self.plies, self.moveno)

    # ------------------------------------------------------------------ helpers
    def lion_zone(self, side, s):
        """May `side`'s lion stand on cell s by an ordinary step?"""
        f, r = fr(s)
        if side == 'w':
            ok = r <= 2
        else:
            ok = r >= 4
        if ok and self.castle:
            ok = 2 <= f <= 4
        return ok

    def decided(self):
        """The game has been decided: a lion has been captured."""
        return 'L' not in self.board or 'l' not in self.board

    # --------------------------------------------------------------- generation
    def legal_moves(self):
        if self.decided():
            return []
        moves = []
        side = self.side
        b = self.board
        for s in range(N * N):
            p = b[s]
            if p == EMPTY or owner(p) != side:
                continue
            kind = p.upper()
            if kind == 'L':
                self.gen_lion(s, moves)
            elif kind == 'G':
                self.gen_giraffe(s, moves)
            elif kind == 'E':
                self.gen_elephant(s, moves)
            elif kind == 'C':
                self.gen_crocodile(s, moves)
            elif kind == 'N':
                self.gen_leaper(s, KNIGHT_DIRS, moves)
            elif kind == 'M':
                self.gen_monkey(s, moves)
            elif kind == 'P':
                self.gen_pawn(s, moves)
            elif kind == 'S':
                self.gen_superpawn(s, moves)
        return moves

    def _target(self, t):
        """Classify target cell t for the side to move: 'empty', 'enemy' or 'own'."""
        p = self.board[t]
        if p == EMPTY:
            return 'empty'
        return 'own' if owner(p) == self.side else 'enemy'

    def _add(self, s, t, moves, allow_move=True, allow_capture=True):
        k = self._target(t)
        if k == 'empty' and allow_move:
            moves.append(Move(s, [t]))
        elif k == 'enemy' and allow_capture:
            moves.append(Move(s, [t], capture=True))

    def gen_lion(self, s, moves):
        f, r = fr(s)
        seen = set()
        for df, dr in KING_DIRS:
            nf, nr = f + df, r + dr
            if not on_board(nf, nr):
                continue
            t = sq(nf, nr)
            if nr == RIVER or not self.lion_zone(self.side, t):
                continue
            k = self._target(t)
            if k != 'own':
                moves.append(Move(s, [t], capture=(k == 'enemy')))
                seen.add(t)
        enemy_lion = 'l' if self.side == 'w' else 'L'
        for df, dr in KING_DIRS:
            nf, nr = f + df, r + dr
            while on_board(nf, nr):
                t = sq(nf, nr)
                p = self.board[t]
                if p != EMPTY:
                    if p == enemy_lion and t not in seen:
                        moves.append(Move(s, [t], capture=True))
                    break
                nf += df
                nr += dr

    def gen_giraffe(self, s, moves):
        f, r = fr(s)
        for df, dr in KING_DIRS:
            nf, nr = f + df, r + dr
            if on_board(nf, nr):
                self._add(s, sq(nf, nr), moves, allow_capture=False)
            nf, nr = f + 2 * df, r + 2 * dr
            if on_board(nf, nr):
                self._add(s, sq(nf, nr), moves)

    def gen_elephant(self, s, moves):
        f, r = fr(s)
        for df, dr in ORTH_DIRS:
            for k in (1, 2):
                nf, nr = f + k * df, r + k * dr
                if on_board(nf, nr):
                    self._add(s, sq(nf, nr), moves)

    def gen_leaper(self, s, dirs, moves):
        f, r = fr(s)
        for df, dr in dirs:
            nf, nr = f + df, r + dr
            if on_board(nf, nr):
                self._add(s, sq(nf, nr), moves)

    def gen_crocodile(self, s, moves):
        f, r = fr(s)
        targets = {}
        for df, dr in KING_DIRS:
            nf, nr = f + df, r + dr
            if on_board(nf, nr):
                t = sq(nf, nr)
                k = self._target(t)
                if k != 'own':
                    targets[t] = (k == 'enemy')
        # slides
        if r == RIVER:
            slide_dirs = [(1, 0), (-1, 0)]
        elif r < RIVER:
            slide_dirs = [(0, 1)]
        else:
            slide_dirs = [(0, -1)]
        for df, dr in slide_dirs:
            nf, nr = f + df, r + dr
            while on_board(nf, nr):
                if r != RIVER:
                    # towards the river, up to and including the river square
                    if (dr > 0 and nr > RIVER) or (dr < 0 and nr < RIVER):
                        break
                t = sq(nf, nr)
                k = self._target(t)
                if k == 'own':
                    break
                targets[t] = (k == 'enemy')
                if k == 'enemy':
                    break
                nf += df
                nr += dr
        for t in sorted(targets):
            moves.append(Move(s, [t], capture=targets[t]))

    def gen_monkey(self, s, moves):
        f, r = fr(s)
        for df, dr in KING_DIRS:
            nf, nr = f + df, r + dr
            if on_board(nf, nr):
                self._add(s, sq(nf, nr), moves, allow_capture=False)
        # capture chains (depth-first); every prefix that has made at least one jump is a move
        b = self.board
        side = self.side
        enemy_lion = 'l' if side == 'w' else 'L'

        def landing_empty(t):
            return b[t] == EMPTY or t == s

        def dfs(cur, path, jumped):
            cf, cr = fr(cur)
            for df, dr in KING_DIRS:
                jf, jr = cf + df, cr + dr
                lf, lr = cf + 2 * df, cr + 2 * dr
                if not on_board(lf, lr):
                    continue
                j = sq(jf, jr)
                land = sq(lf, lr)
                pj = b[j]
                if pj == EMPTY or owner(pj) == side or j in jumped:
                    continue
                if land in jumped or not landing_empty(land):
                    continue
                npath = path + [land]
                njumped = jumped + [j]
                moves.append(Move(s, npath, njumped, capture=True, chain=True))
                if pj == enemy_lion:
                    continue        # jumping the lion ends the move at once
                dfs(land, npath, njumped)

        dfs(s, [], [])

    def gen_pawn(self, s, moves):
        f, r = fr(s)
        fwd = 1 if self.side == 'w' else -1
        for df in (-1, 0, 1):
            nf, nr = f + df, r + fwd
            if on_board(nf, nr):
                self._add(s, sq(nf, nr), moves)
        far = (r > RIVER) if self.side == 'w' else (r < RIVER)
        if far:
            self._backward(s, 0, -fwd, moves)

    def _backward(self, s, df, dr, moves):
        """Non-capturing move of one or two cells in direction (df, dr), without jumping."""
        f, r = fr(s)
        for k in (1, 2):
            nf, nr = f + k * df, r + k * dr
            if not on_board(nf, nr):
                break
            t = sq(nf, nr)
            if self.board[t] != EMPTY:
                break
            moves.append(Move(s, [t]))

    def gen_superpawn(self, s, moves):
        f, r = fr(s)
        fwd = 1 if self.side == 'w' else -1
        for df, dr in ((-1, fwd), (0, fwd), (1, fwd), (-1, 0), (1, 0)):
            nf, nr = f + df, r + dr
            if on_board(nf, nr):
                self._add(s, sq(nf, nr), moves)
        for df in (-1, 0, 1):
            self._backward(s, df, -fwd, moves)

    # --------------------------------------------------------------------- play
    def make(self, m):
        """Return the position after move m (m from this position's legal_moves)."""
        b = self.board
        side = self.side
        nb = b[:]
        piece = b[m.frm]
        final = m.path[-1]
        # pieces of the mover standing in the river when the move begins
        in_river = [sq(f, RIVER) for f in range(N)
                    if owner(b[sq(f, RIVER)]) == side and b[sq(f, RIVER)].upper() != 'C']
        nb[m.frm] = EMPTY
        progress = False
        if m.chain:
            for j in m.jumped:
                nb[j] = EMPTY
            progress = True
        elif b[final] != EMPTY:
            progress = True     # ordinary capture (the target is an enemy piece)
        newp = piece
        if piece.upper() == 'P':
            last = N - 1 if side == 'w' else 0
            if final // N == last:
                newp = 'S' if side == 'w' else 's'
                progress = True
        nb[final] = newp
        # drowning, applied after the captured pieces were removed
        drown = []
        for c in in_river:
            if c != m.frm:
                drown.append(c)         # a piece that did not move stays in the river
        if m.chain:
            stops = [m.frm] + list(m.path)
            if any(stops[i] // N == RIVER and stops[i + 1] // N == RIVER
                   for i in range(len(stops) - 1)):
                drown.append(final)
        elif m.frm in in_river and final // N == RIVER:
            drown.append(final)         # moved from the river to another river cell
        for c in drown:
            if nb[c] != EMPTY and owner(nb[c]) == side:
                nb[c] = EMPTY
                progress = True
        p = Position.__new__(Position)
        p.castle = self.castle
        p.board = nb
        p.side = 'b' if side == 'w' else 'w'
        p.plies = 0 if progress else self.plies + 1
        p.moveno = self.moveno + (1 if side == 'b' else 0)
        return p


class CongoOracle(Oracle):
    START = START_FEN
    OPTIONS = {'lion-castle': ('off', 'on')}

    def position(self, fen):
        return Position(fen, self.options['lion-castle'] == 'on')

    def moves(self, pos):
        return pos.legal_moves()

    def text(self, pos, m):
        return str(m)

    def after(self, pos, m):
        return pos.make(m)


if __name__ == '__main__':
    sys.exit(oracle_main(CongoOracle(), sys.argv[1:], __doc__))
