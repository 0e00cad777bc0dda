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

Usage:
  independent_taktika.py <depth> [--fen FEN] [--option captures=on] [--divide]
  independent_taktika.py 0 --playouts SEED GAMES PLIES [--option captures=on]
      (tab-separated lines: `G <fen>` per game, `P <fen> <sorted moves>` per position,
       `M <move>` per move played)
  independent_taktika.py 0 --walk SEED PLIES [--fen FEN] [--option ...]
      (the FENs of one seeded random game, to choose fixtures)
"""
import random
import sys

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
            rank = 7 - i
            f = 0
            frozen = False
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                elif ch == '-':
                    frozen = True
                else:
                    colour = 'w' if ch.isupper() else 'b'
                    self.men[(f, rank)] = (colour, ch.upper(), frozen)
                    frozen = False
                    f += 1
        self.side = parts[1] if len(parts) > 1 else 'w'
        self.noflip = int(parts[4]) if len(parts) > 4 else 0
        self.number = int(parts[5]) if len(parts) > 5 else 1
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
        rows = []
        for rank in range(7, -1, -1):
            row = ''
            empty = 0
            for f in range(8):
                man = self.men.get((f, rank))
                if man is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                colour, letter, frozen = man
                row += ('-' if frozen else '') + (letter if colour == 'w' else letter.lower())
            if empty:
                row += str(empty)
            rows.append(row)
        return '%s %s - - %d %d' % ('/'.join(rows), self.side, self.noflip, self.number)

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
    captures = False
    divide = False
    playouts = walk = None
    i = 1
    while i < len(args):
        a = args[i]
        if a == '--fen':
            fen = args[i + 1]
            i += 2
        elif a == '--option':
            name, value = args[i + 1].split('=')
            assert name == 'captures' and value in ('on', 'off'), args[i + 1]
            captures = value == 'on'
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
            pos = Pos(START_FEN, captures)
            out.append('G\t' + pos.fen())
            for _ in range(plies):
                moves = sorted(pos.moves(), key=text)
                out.append('P\t%s\t%s' % (pos.fen(), ' '.join(text(m) for m in moves)))
                if not moves:
                    break
                mv = rng.choice(moves)
                out.append('M\t' + text(mv))
                pos.play(mv)
        print('\n'.join(out))
        return 0
    if walk:
        seed, plies = walk
        rng = random.Random(seed)
        pos = Pos(fen, captures)
        print(pos.fen())
        for _ in range(plies):
            moves = sorted(pos.moves(), key=text)
            if not moves:
                break
            mv = rng.choice(moves)
            pos.play(mv)
            print(text(mv), pos.fen())
        return 0
    pos = Pos(fen, captures)
    if divide:
        total = 0
        for mv in sorted(pos.moves(), key=text):
            child = pos.copy()
            child.play(mv)
            n = perft(child, depth - 1)
            total += n
            print(text(mv), n)
        print('nodes', total)
    else:
        print('nodes', perft(pos, depth))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
