#!/usr/bin/env python3
"""Independent Dark Chess: moves, perft, views and seeded random games, written from
docs/rules/darkchess.md alone.

python-chess (1.11) supplies pseudo-legal chess moves (no check); castling is generated
here, since it ignores attacks in Dark Chess; capturing the king ends the game. A player's
view: his men's cells plus every destination of his men's moves in the true position (and
the pawn an en passant capture would take), written as a fog FEN: unseen cells `*`, his own
castling and en passant rights, the halfmove clock as he can count it (his own captures and
pawn moves, and captures of his men, reset it), the move number.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts),
and `0 [--fen FEN] --view white|black` for a player's view. Playouts' `P` lines end with
White's and Black's views: `P <fen> <sorted moves> <white view> <black view>`.
"""
import sys

from oracle_common import Oracle, board_row, main as oracle_main, require

chess = require("chess")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# (king from, king to, rook from, cells that must be empty, right test)
CASTLES = [
    (chess.E1, chess.G1, chess.H1, [chess.F1, chess.G1], chess.BB_H1),
    (chess.E1, chess.C1, chess.A1, [chess.B1, chess.C1, chess.D1], chess.BB_A1),
    (chess.E8, chess.G8, chess.H8, [chess.F8, chess.G8], chess.BB_H8),
    (chess.E8, chess.C8, chess.A8, [chess.B8, chess.C8, chess.D8], chess.BB_A8),
]


class Dark:
    def __init__(self, fen):
        self.board = chess.Board(fen)
        self.known = [self.board.halfmove_clock, self.board.halfmove_clock]

    def copy(self):
        d = Dark.__new__(Dark)
        d.board = self.board.copy(stack=False)
        d.known = list(self.known)
        return d

    def kings(self):
        return self.board.king(chess.WHITE) is not None and self.board.king(chess.BLACK) is not None

    def moves_of(self, board):
        """Pseudo-legal moves of board.turn, castling through attack included."""
        out = [m for m in board.pseudo_legal_moves if not board.is_castling(m)]
        me = board.turn
        for kf, kt, rf, empty, right in CASTLES:
            if chess.square_rank(kf) != (0 if me == chess.WHITE else 7):
                continue
            if not board.castling_rights & right:
                continue
            if board.piece_at(kf) != chess.Piece(chess.KING, me) or board.piece_at(rf) != chess.Piece(chess.ROOK, me):
                continue
            if any(board.piece_at(c) is not None for c in empty):
                continue
            out.append(chess.Move(kf, kt))
        return out

    def legal(self):
        if not self.kings():
            return []
        return self.moves_of(self.board)

    def play(self, mv):
        b = self.board
        me = b.turn
        pawn = b.piece_type_at(mv.from_square) == chess.PAWN
        capture = b.piece_at(mv.to_square) is not None or b.is_en_passant(mv)
        b.push(mv)
        self.known[0 if me == chess.WHITE else 1] = 0 if (pawn or capture) else self.known[0 if me == chess.WHITE else 1] + 1
        o = 1 if me == chess.WHITE else 0
        self.known[o] = 0 if capture else self.known[o] + 1

    def fen(self):
        return self.board.fen(en_passant="xfen")

    def visible(self, player):
        b = self.board.copy(stack=False)
        vis = set(b.pieces(chess.PAWN, player) | b.pieces(chess.KNIGHT, player) | b.pieces(chess.BISHOP, player)
                  | b.pieces(chess.ROOK, player) | b.pieces(chess.QUEEN, player) | b.pieces(chess.KING, player))
        if b.turn != player:
            b.turn = player
            b.ep_square = None
        for m in self.moves_of(b):
            vis.add(m.to_square)
            if b.is_en_passant(m):
                vis.add(m.to_square + (-8 if player == chess.WHITE else 8))
        return vis

    def seen(self, sq, vis):
        """A cell of a view: `*` unseen, None empty, else the man's letter."""
        if sq not in vis:
            return "*"
        man = self.board.piece_at(sq)
        return None if man is None else man.symbol()

    def view_fen(self, player):
        vis = self.visible(player)
        rows = [board_row(self.seen(chess.square(f, rank), vis) for f in range(8))
                for rank in range(7, -1, -1)]
        f = self.fen().split()
        castling = "".join(c for c in f[2] if c != "-" and c.isupper() == (player == chess.WHITE)) or "-"
        ep = f[3] if self.board.turn == player else "-"
        return "%s %s %s %s %d %s" % ("/".join(rows), f[1], castling, ep,
                                      self.known[0 if player == chess.WHITE else 1], f[5])


class DarkOracle(Oracle):
    START = START
    FLAGS = {"--view": 1}
    SORTED_CHOICE = False

    def position(self, fen):
        return Dark(fen)

    def text(self, d, m):
        return m.uci()

    def fields(self, d):
        return d.view_fen(chess.WHITE), d.view_fen(chess.BLACK)

    def report(self, d):
        if "--view" not in self.flags:
            return False
        print(d.view_fen(chess.WHITE if self.flags["--view"] == ["white"] else chess.BLACK))
        return True


if __name__ == "__main__":
    sys.exit(oracle_main(DarkOracle(), sys.argv[1:], __doc__))
