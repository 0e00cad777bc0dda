#!/usr/bin/env python3
"""Independent Dark Chess: moves, perft, views and seeded random games, written from
docs/rules/darkchess.md alone.

python-chess (1.11) supplies pseudo-legal chess moves (no check); castling is generated
here, since it ignores attacks in Dark Chess; capturing the king ends the game. A player's
view: his men's cells plus every destination of his men's moves in the true position (and
the pawn an en passant capture would take), written as a fog FEN: unseen cells `*`, his own
castling and en passant rights, the halfmove clock as he can count it (his own captures and
pawn moves, and captures of his men, reset it), the move number.

Usage:
  independent_darkchess.py <depth> [--fen FEN] [--divide]
  independent_darkchess.py 0 --fen FEN --moves
  independent_darkchess.py 0 --fen FEN --view white|black
  independent_darkchess.py 0 --playouts SEED GAMES PLIES
      (lines `G <fen>`, `P <fen> <sorted moves> <white view> <black view>`, `M <move>`,
       tab-separated)
"""
import random
import sys

import chess

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

    def view_fen(self, player):
        vis = self.visible(player)
        rows = []
        for rank in range(7, -1, -1):
            row, run = "", 0
            for f in range(8):
                sq = chess.square(f, rank)
                if sq not in vis:
                    if run:
                        row += str(run)
                        run = 0
                    row += "*"
                elif self.board.piece_at(sq) is None:
                    run += 1
                else:
                    if run:
                        row += str(run)
                        run = 0
                    row += self.board.piece_at(sq).symbol()
            if run:
                row += str(run)
            rows.append(row)
        f = self.fen().split()
        castling = "".join(c for c in f[2] if c != "-" and c.isupper() == (player == chess.WHITE)) or "-"
        ep = f[3] if self.board.turn == player else "-"
        return "%s %s %s %s %d %s" % ("/".join(rows), f[1], castling, ep,
                                      self.known[0 if player == chess.WHITE else 1], f[5])


def perft(d, depth):
    if depth == 0:
        return 1
    ms = d.legal()
    if depth == 1:
        return len(ms)
    n = 0
    for m in ms:
        c = d.copy()
        c.play(m)
        n += perft(c, depth - 1)
    return n


def main(argv):
    depth = int(argv[0])
    fen, mode = START, None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--fen":
            fen = argv[i + 1]
            i += 2
        elif a == "--moves":
            mode = ("moves",)
            i += 1
        elif a == "--divide":
            mode = ("divide",)
            i += 1
        elif a == "--view":
            mode = ("view", chess.WHITE if argv[i + 1] == "white" else chess.BLACK)
            i += 2
        elif a == "--playouts":
            mode = ("playouts", int(argv[i + 1]), int(argv[i + 2]), int(argv[i + 3]))
            i += 4
        else:
            raise SystemExit("unknown argument " + a)
    if mode and mode[0] == "playouts":
        rng = random.Random(mode[1])
        out = []
        for _ in range(mode[2]):
            d = Dark(START)
            out.append("G\t" + d.fen())
            for _ in range(mode[3]):
                ms = d.legal()
                out.append("P\t%s\t%s\t%s\t%s" % (d.fen(), " ".join(sorted(m.uci() for m in ms)),
                                                  d.view_fen(chess.WHITE), d.view_fen(chess.BLACK)))
                if not ms:
                    break
                m = rng.choice(ms)
                out.append("M\t" + m.uci())
                d.play(m)
        print("\n".join(out))
        return
    d = Dark(fen)
    if mode and mode[0] == "moves":
        for t in sorted(m.uci() for m in d.legal()):
            print(t)
        return
    if mode and mode[0] == "view":
        print(d.view_fen(mode[1]))
        return
    if mode and mode[0] == "divide":
        total = 0
        for m in sorted(d.legal(), key=lambda m: m.uci()):
            c = d.copy()
            c.play(m)
            n = perft(c, depth - 1)
            total += n
            print(m.uci(), n)
        print("nodes", total)
        return
    print("nodes", perft(d, depth))


if __name__ == "__main__":
    main(sys.argv[1:])
