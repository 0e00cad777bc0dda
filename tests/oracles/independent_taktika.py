#!/usr/bin/env python3
"""Independent reference move generator and perft for Taktika.

Written from the rules file docs/rules/taktika.md alone (and the perft conventions of
docs/rules/README.md), in plain Python without the engine's tables, so that the Rust
implementation's perft numbers and move lists can be cross-checked.

Rules implemented:
  * 8x8 board; each side has rooks, bishops and queens, each active or frozen;
  * an active man moves as the chess piece to an empty cell (captures=on: it may also take
    the first enemy man on its line, active or frozen); frozen men never move;
  * after the move, enemy men flip (active <-> frozen): enclosure (an unbroken run of enemy
    men next to the landing cell along a rank or file, closed by a friendly man of either
    state) and intrusion (both orthogonal neighbours on opposite sides are enemy men); every
    caught man flips once;
  * a player without a legal move has lost, so his position has no moves; draws are ignored.

FEN: `qbrrrrbq/8/8/8/8/8/8/QBRRRRBQ w - - 0 1`, a frozen man written with `-` before its
letter; the fifth field counts plies since the last flip.

Standard library only. Cells are (file, rank) pairs, 0-based.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts),
with --option captures=off|on.
"""
import sys

from oracle_common import Oracle, board_row, counter, main as oracle_main, read_row

START_FEN = 'qbrrrrbq/8/8/8/8/8/8/QBRRRRBQ w - - 0 1'
LINES = {
    'R': [(1, 0), (-1, 0), (0, 1), (0, -1)],
    'B': [(1, 1), (1, -1), (-1, 1), (-1, -1)],
}
LINES['Q'] = LINES['R'] + LINES['B']


def label(cell):
    return 'abcdefgh'[cell[0]] + str(cell[1] + 1)


def on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


class Pos:
    """men: dict cell -> (colour 'w'/'b', letter 'R'/'B'/'Q', frozen bool)."""

    def __init__(self, fen, captures):
        parts = fen.split()
        self.men = {}
        rows = parts[0].split('/')
        assert len(rows) == 8, fen
        for i, row in enumerate(rows):
            for f, token in enumerate(read_row(row, '-?[A-Za-z]')):
                if token is not None:
                    letter = token[-1]
                    colour = 'w' if letter.isupper() else 'b'
                    self.men[(f, 7 - i)] = (colour, letter.upper(), token[0] == '-')
        self.side = parts[1] if len(parts) > 1 else 'w'
        self.noflip = counter(parts, 4, 0)
        self.number = counter(parts, 5, 1)
        self.captures = captures

    def copy(self):
        p = Pos.__new__(Pos)
        p.men = dict(self.men)
        p.side = self.side
        p.noflip = self.noflip
        p.number = self.number
        p.captures = self.captures
        return p

    def fen(self):
        rows = [board_row(self.symbol((f, rank)) for f in range(8)) for rank in range(7, -1, -1)]
        return '%s %s - - %d %d' % ('/'.join(rows), self.side, self.noflip, self.number)

    def symbol(self, cell):
        man = self.men.get(cell)
        if man is None:
            return None
        colour, letter, frozen = man
        return ('-' if frozen else '') + (letter if colour == 'w' else letter.lower())

    def moves(self):
        out = []
        for cell, (colour, letter, frozen) in self.men.items():
            if colour != self.side or frozen:
                continue
            for dx, dy in LINES[letter]:
                f, r = cell[0] + dx, cell[1] + dy
                while on_board(f, r):
                    other = self.men.get((f, r))
                    if other is None:
                        out.append((cell, (f, r)))
                    else:
                        if self.captures and other[0] != colour:
                            out.append((cell, (f, r)))
                        break
                    f, r = f + dx, r + dy
        return out

    def play(self, mv):
        frm, to = mv
        me = self.side
        man = self.men.pop(frm)
        self.men.pop(to, None)
        self.men[to] = man
        caught = set()
        for dx, dy in LINES['R']:
            run = []
            f, r = to[0] + dx, to[1] + dy
            while on_board(f, r) and (f, r) in self.men and self.men[(f, r)][0] != me:
                run.append((f, r))
                f, r = f + dx, r + dy
            if run and on_board(f, r) and (f, r) in self.men and self.men[(f, r)][0] == me:
                caught.update(run)
        for dx, dy in [(1, 0), (0, 1)]:
            a = (to[0] - dx, to[1] - dy)
            b = (to[0] + dx, to[1] + dy)
            if all(c in self.men and self.men[c][0] != me for c in (a, b)):
                caught.update([a, b])
        for c in caught:
            colour, letter, frozen = self.men[c]
            self.men[c] = (colour, letter, not frozen)
        self.noflip = 0 if caught else self.noflip + 1
        if me == 'b':
            self.number += 1
        self.side = 'b' if me == 'w' else 'w'


def text(mv):
    return label(mv[0]) + label(mv[1])


class TaktikaOracle(Oracle):
    START = START_FEN
    OPTIONS = {'captures': ('off', 'on')}

    def position(self, fen):
        return Pos(fen, self.options['captures'] == 'on')

    def moves(self, pos):
        return pos.moves()

    def text(self, pos, mv):
        return text(mv)


if __name__ == '__main__':
    sys.exit(oracle_main(TaktikaOracle(), sys.argv[1:], __doc__))
