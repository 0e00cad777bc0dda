#!/usr/bin/env python3
"""Independent Progressive Chess: move generation, perft by single moves and by whole series,
and seeded random games, written from docs/rules/progressive.md alone.

python-chess (1.11) only supplies the chess moves of one player on the board; everything
progressive is done here: series of growing length, a check ends the series (or, under
`check=italian`, is illegal before the last move of a full series), en passant only as the
first move of a series against the previous series' double steps, the FEN with its own en
passant field, quiet-series counter, series number and moves played.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts),
with --option check=scottish|italian, and --turns to count perft by whole series.
"""
import sys

from oracle_common import Oracle, main as oracle_main, require

chess = require("chess")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0"


class Prog:
    """A progressive position: python-chess board (its own en passant square always None),
    series number, moves played, en passant cells (series start: usable targets of the mover;
    mid-series: the mover's own double steps), quiet-series counter, progress in this series."""

    __slots__ = ("board", "series", "played", "ep", "quiet", "progress", "italian")

    def copy(self):
        p = Prog.__new__(Prog)
        p.board = self.board.copy(stack=False)
        p.series, p.played, p.ep = self.series, self.played, set(self.ep)
        p.quiet, p.progress, p.italian = self.quiet, self.progress, self.italian
        return p

    @staticmethod
    def from_fen(fen, italian=False):
        f = fen.split()
        p = Prog()
        p.board = chess.Board(" ".join(f[:3]) + " - 0 1")
        p.quiet = int(f[4]) if len(f) > 4 else 0
        p.series = int(f[5]) if len(f) > 5 else (1 if p.board.turn == chess.WHITE else 2)
        p.played = int(f[6]) if len(f) > 6 else 0
        p.italian = italian
        p.progress = False
        cells = set()
        if len(f) > 3 and f[3] != "-":
            text = f[3].replace(",", "")
            cells = {chess.parse_square(text[i:i + 2]) for i in range(0, len(text), 2)}
        if p.played == 0:
            p.ep = set()
            p.ep = {c for c in cells if p.ep_capture_moves({c})}
        else:
            # Own double steps: the pawn stands one cell beyond the skipped cell.
            me = p.board.turn
            p.ep = set()
            for c in cells:
                rank = chess.square_rank(c)
                if rank != (2 if me == chess.WHITE else 5):
                    continue
                beyond = c + (8 if me == chess.WHITE else -8)
                if p.board.piece_at(beyond) == chess.Piece(chess.PAWN, me):
                    p.ep.add(c)
            if p.ep:
                p.progress = True  # a double step this series is a pawn move
        return p

    def fen(self):
        f = self.board.fen().split()
        ep = "".join(chess.square_name(c) for c in sorted(self.ep, key=lambda c: (chess.square_file(c), chess.square_rank(c))))
        return "%s %s %s %s %d %d %d" % (f[0], f[1], f[2], ep or "-", self.quiet, self.series, self.played)

    # -- moves ------------------------------------------------------------------------------
    def ep_capture_moves(self, targets):
        """En passant captures onto `targets` that leave the mover's king safe."""
        b = self.board
        me = b.turn
        out = []
        for t in targets:
            if chess.square_rank(t) != (5 if me == chess.WHITE else 2):
                continue  # not a cell a double step of the opponent skips
            victim = t - 8 if me == chess.WHITE else t + 8
            if b.piece_at(t) is not None or b.piece_at(victim) != chess.Piece(chess.PAWN, not me):
                continue
            for df in (-1, 1):
                f = chess.square_file(victim) + df
                if not 0 <= f < 8:
                    continue
                frm = chess.square(f, chess.square_rank(victim))
                if b.piece_at(frm) != chess.Piece(chess.PAWN, me):
                    continue
                after = self.ep_board(frm, t, victim)
                king = after.king(me)
                if king is None or not after.is_attacked_by(not me, king):
                    out.append(("ep", frm, t, victim))
        return out

    def ep_board(self, frm, to, victim):
        b = self.board.copy(stack=False)
        b.remove_piece_at(victim)
        b.remove_piece_at(frm)
        b.set_piece_at(to, chess.Piece(chess.PAWN, self.board.turn))
        return b

    def after_board(self, mv):
        """Board after `mv` with the opponent to move."""
        if isinstance(mv, tuple):
            b = self.ep_board(mv[1], mv[2], mv[3])
            b.turn = not self.board.turn
            return b
        b = self.board.copy(stack=False)
        b.push(mv)
        b.ep_square = None
        return b

    def legal(self):
        moves = list(self.board.legal_moves)
        if self.played == 0 and self.ep:
            moves += self.ep_capture_moves(self.ep)
        if self.italian and self.played + 1 < self.series:
            moves = [m for m in moves if not self.after_board(m).is_check()]
        return moves

    @staticmethod
    def text(mv):
        if isinstance(mv, tuple):
            return chess.square_name(mv[1]) + chess.square_name(mv[2])
        return mv.uci()

    def play(self, mv):
        me = self.board.turn
        own = set() if self.played == 0 else set(self.ep)
        if isinstance(mv, tuple):
            frm, to, pawn, capture = mv[1], mv[2], True, True
        else:
            frm, to = mv.from_square, mv.to_square
            pawn = self.board.piece_type_at(frm) == chess.PAWN
            capture = self.board.piece_at(to) is not None
        step = 8 if me == chess.WHITE else -8
        own = {c for c in own if c + step != frm}
        if pawn and not capture and to - frm == 2 * step:
            own.add(frm + step)
        self.board = self.after_board(mv)
        self.progress = self.progress or pawn or capture
        self.played += 1
        if self.board.is_check() or self.played >= self.series:
            self.quiet = 0 if self.progress else self.quiet + 1
            self.progress = False
            self.series += 1
            self.played = 0
            self.ep = set()
            self.ep = {c for c in own if self.ep_capture_moves({c})}
        else:
            self.board.turn = me
            self.ep = own


def perft_turns(p, depth):
    """One ply = a whole series; a series cut short by a check or by the end of the game
    (no move left in its middle) is complete."""
    if depth == 0:
        return 1
    moves = p.legal()
    me = p.board.turn
    # Last move of the last counted series: every legal move ends the series.
    if depth == 1 and p.played + 1 >= p.series:
        return len(moves)
    n = 0
    for m in moves:
        c = p.copy()
        c.play(m)
        if c.board.turn == me and c.legal():
            n += perft_turns(c, depth)
        else:
            n += perft_turns(c, depth - 1)
    return n


class ProgressiveOracle(Oracle):
    START = START
    OPTIONS = {"check": ("scottish", "italian")}
    FLAGS = {"--turns": 0}
    SORTED_CHOICE = False

    def position(self, fen):
        return Prog.from_fen(fen, self.options["check"] == "italian")

    def text(self, p, m):
        return Prog.text(m)

    def perft(self, p, depth):
        return perft_turns(p, depth) if "--turns" in self.flags else super().perft(p, depth)

    def divide(self, p, depth):
        if "--turns" not in self.flags:
            return super().divide(p, depth)
        out = []
        for m in sorted(p.legal(), key=Prog.text):
            c = self.after(p, m)
            goes_on = c.board.turn == p.board.turn and c.legal()
            out.append((Prog.text(m), perft_turns(c, depth if goes_on else depth - 1)))
        return out


if __name__ == "__main__":
    sys.exit(oracle_main(ProgressiveOracle(), sys.argv[1:], __doc__))
