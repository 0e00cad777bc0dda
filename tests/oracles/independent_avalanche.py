#!/usr/bin/env python3
"""Independent Avalanche Chess: whole-turn move generation, perft by whole turns and seeded
random games, written from docs/rules/avalanche.md alone.

python-chess (1.11) supplies only the chess move part (its en passant square is always
cleared, since Avalanche has no en passant); the pushes, self-checking pushes, promotion by
push, the turn-counting halfmove clock and the rule options are done here.

A turn is written `move;push` (`e2e4;d7d6`, `b7b8q;a2a1n`) or `move;-` when no push is
possible. A turn whose push exposes the pusher's king ends the game (the pusher loses): the
position after it has no turns; when the board does not show that loss (a promotion push
whose chosen piece does not attack), its FEN ends with the project's field `self-check`.

Usage: the command line of oracle_common.py (perft, --divide, --moves, --walk, --playouts),
with a move being a whole turn (`--playouts SEED GAMES TURNS`) and the options
push=pawn-move|single-step, self-check-push=loses|illegal, balanced=off|on,
fide-claims=off|on (draw rules only; not used here).
"""
import sys

from oracle_common import Oracle, main as oracle_main, require

chess = require("chess")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PROMO = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT]


class Options:
    """The rule options moves depend on (fide-claims changes only draw rules)."""

    def __init__(self, values):
        self.single_step = values["push"] == "single-step"
        self.illegal = values["self-check-push"] == "illegal"
        self.balanced = values["balanced"] == "on"


class Aval:
    """Board (python-chess, turn = player to start a turn), halfmove clock counting turns,
    loser (a self-checking push)."""

    def __init__(self, fen, opts):
        f = fen.split()
        self.board = chess.Board(" ".join(f[:4]))
        self.board.ep_square = None
        self.clock = int(f[4]) if len(f) > 4 else 0
        self.fullmove = int(f[5]) if len(f) > 5 else 1
        self.opts = opts
        self.loser = None
        # The side not to move with its king attacked has just lost by a push.
        them = not self.board.turn
        k = self.board.king(them)
        if k is not None and self.board.is_attacked_by(self.board.turn, k):
            self.loser = them

    def fen(self):
        f = self.board.fen().split()
        text = "%s %s %s - %d %d" % (f[0], f[1], f[2], self.clock, self.fullmove)
        # A loss by a promotion push whose chosen piece does not attack the king is not
        # visible on the board: the project's FEN then adds the field `self-check`.
        if self.loser is not None:
            k = self.board.king(self.loser)
            if k is None or not self.board.is_attacked_by(not self.loser, k):
                text += " self-check"
        return text

    def pushes(self, board, pusher):
        """(from, to, promotion-or-None, self_checking) for every push of `pusher` on `board`
        (where the move part has been made)."""
        owner = not pusher
        step = 8 if owner == chess.WHITE else -8
        start_rank = 1 if owner == chess.WHITE else 6
        last_rank = 7 if owner == chess.WHITE else 0
        king = board.king(pusher)
        out = []
        for sq in board.pieces(chess.PAWN, owner):
            targets = []
            one = sq + step
            if 0 <= one < 64 and board.piece_at(one) is None:
                targets.append(one)
                two = one + step
                if (not self.opts.single_step and chess.square_rank(sq) == start_rank
                        and board.piece_at(two) is None):
                    targets.append(two)
            for to in targets:
                promos = PROMO if chess.square_rank(to) == last_rank else [None]
                exposes = False
                for k in promos:
                    b = board.copy(stack=False)
                    b.remove_piece_at(sq)
                    b.set_piece_at(to, chess.Piece(k or chess.PAWN, owner))
                    if king is not None and b.is_attacked_by(owner, king):
                        exposes = True
                for k in promos:
                    out.append((sq, to, k, exposes))
        if self.opts.illegal and any(not p[3] for p in out):
            out = [p for p in out if not p[3]]
        return out

    def turns(self):
        """[(text, next position)] for every legal whole turn."""
        if self.loser is not None:
            return []
        out = []
        me = self.board.turn
        for mv in list(self.board.legal_moves):
            b = self.board.copy(stack=False)
            capture = b.piece_at(mv.to_square) is not None
            pawn = b.piece_type_at(mv.from_square) == chess.PAWN
            b.push(mv)
            b.ep_square = None
            no_push = self.opts.balanced and me == chess.WHITE and self.fullmove == 1
            pushes = [] if no_push else self.pushes(b, me)
            if not pushes:
                child = self.child(b, 0 if (capture or pawn) else self.clock + 1, None)
                out.append((mv.uci() + ";-", child))
                continue
            for (frm, to, k, exposes) in pushes:
                c = b.copy(stack=False)
                c.remove_piece_at(frm)
                c.set_piece_at(to, chess.Piece(k or chess.PAWN, not me))
                child = self.child(c, 0, me if exposes else None)
                text = chess.square_name(frm) + chess.square_name(to)
                if k:
                    text += chess.piece_symbol(k)
                out.append((mv.uci() + ";" + text, child))
        return out

    def child(self, board, clock, loser):
        c = Aval.__new__(Aval)
        c.board = board
        c.board.ep_square = None
        c.clock = clock
        c.fullmove = self.fullmove + (1 if self.board.turn == chess.BLACK else 0)
        c.opts = self.opts
        c.loser = loser
        return c


class AvalancheOracle(Oracle):
    START = START
    OPTIONS = {
        "push": ("pawn-move", "single-step"),
        "self-check-push": ("loses", "illegal"),
        "balanced": ("off", "on"),
        "fide-claims": ("off", "on"),
    }
    SORTED_CHOICE = False

    def position(self, fen):
        return Aval(fen, Options(self.options))

    def moves(self, p):
        return p.turns()

    def text(self, p, turn):
        return turn[0]

    def after(self, p, turn):
        return turn[1]


if __name__ == "__main__":
    sys.exit(oracle_main(AvalancheOracle(), sys.argv[1:], __doc__))
