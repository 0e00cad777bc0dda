#!/usr/bin/env python3
"""cshogi (PyPI `cshogi`, 1.1.0) as the oracle for our KIF and CSA game records.

Used by crates/variants/tests/rulesets/oracles/cshogi_records.rs. Record texts travel as hex of their
UTF-8 bytes, one record per line, so that no quoting is needed.

    cshogi_records.py read
        stdin:  <id> TAB <kif|csa> TAB <hex record>          (one line per record)
                <id> TAB bod TAB <hex sfen>
        stdout: <id> TAB <start sfen> TAB <usi moves> TAB <final sfen> TAB <winner> TAB <ending>
                <id> TAB <hex board diagram>                (cshogi.KIF.board_to_bod)
        Reads each record with cshogi.KIF.Parser / cshogi.CSA.Parser and replays its moves on a
        cshogi Board (an illegal move is reported as `illegal <ply>` instead of the final SFEN).
        <winner> is black, white, draw or none (cshogi's `win`); <ending> is cshogi's endgame
        (`-` when it has none).

        One normalisation: cshogi 1.1.0's KIF parser does not know `不成` (Kifu for Windows
        writes it when a possible promotion is declined), and skips such a move line silently.
        A move without `成` does not promote, so `不成` is removed before cshogi reads the text.
        Our side checks that the record has one `不成` per declined promotion.

    cshogi_records.py write <seed> <games> <max plies>
        stdout: <id> TAB <kif|csa> TAB <start sfen> TAB <usi moves> TAB <final sfen> TAB
                <ending> TAB <hex record>
        Plays seeded random games with cshogi and writes each with cshogi.KIF.Exporter and
        cshogi.CSA.Exporter. Odd games start from a position reached by random moves (pieces
        in hand, either player to move): the KIF exporter writes it as a board diagram (BOD),
        the CSA exporter as P1..P9 / P+ / P- lines. A game that reaches checkmate ends with
        `resign` (KIF 投了, CSA %TORYO); every third other game is also ended as a resignation
        after its last move; the rest have no ending.
"""

import io
import random
import sys

from oracle_common import require

cshogi = require("cshogi")
require("cshogi.CSA")
require("cshogi.KIF")


def winner_name(win):
    if win == cshogi.BLACK_WIN:
        return "black"
    if win == cshogi.WHITE_WIN:
        return "white"
    if win == cshogi.DRAW:
        return "draw"
    return "none"


def replay(sfen, moves):
    board = cshogi.Board(sfen)
    for ply, move in enumerate(moves, 1):
        if not board.is_legal(move):
            return f"illegal {ply}"
        board.push(move)
    return board.sfen()


def read():
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        ident, fmt, hexed = line.split("\t")
        text = bytes.fromhex(hexed).decode("utf-8")
        if fmt == "bod":
            bod = cshogi.KIF.board_to_bod(cshogi.Board(text))
            print(f"{ident}\t{bod.encode('utf-8').hex()}")
            continue
        if fmt == "kif":
            parser = cshogi.KIF.Parser.parse_str(text.replace("不成", ""))
            endgame = parser.endgame
        elif fmt == "csa":
            parsers = cshogi.CSA.Parser.parse_str(text)
            if len(parsers) != 1:
                raise SystemExit(f"{ident}: cshogi read {len(parsers)} CSA games")
            parser = parsers[0]
            endgame = parser.endgame
        else:
            raise SystemExit(f"{ident}: unknown format {fmt}")
        moves = list(parser.moves)
        usi = " ".join(cshogi.move_to_usi(m) for m in moves)
        final = replay(parser.sfen, moves)
        # The start SFEN as cshogi.Board writes it: the CSA parser's own SFEN lists the
        # pieces in hand in another order (P before N), which SFEN leaves open.
        start = cshogi.Board(parser.sfen).sfen()
        print(
            "\t".join([ident, start, usi, final, winner_name(parser.win), endgame or "-"])
        )


def random_start(rng):
    board = cshogi.Board()
    for _ in range(rng.randrange(20, 60)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    if board.is_game_over():
        return cshogi.Board()
    # A fresh move number: the formats keep no move number for a set-up position.
    fields = board.sfen().split(" ")
    return cshogi.Board(" ".join(fields[:3] + ["1"]))


def write(seed, games, max_plies):
    rng = random.Random(seed)
    for index in range(games):
        board = random_start(rng) if index % 2 == 1 else cshogi.Board()
        start = board.sfen()
        start_board = cshogi.Board(start)
        moves = []
        mated = False
        for _ in range(rng.randrange(max_plies // 2, max_plies + 1)):
            legal = list(board.legal_moves)
            if not legal:
                mated = True
                break
            move = rng.choice(legal)
            board.push(move)
            moves.append(move)
        if not mated and not list(board.legal_moves):
            mated = True
        resign = mated or index % 3 == 0
        final = board.sfen()
        usi = " ".join(cshogi.move_to_usi(m) for m in moves)

        kif = cshogi.KIF.Exporter()
        kif.kifu = io.StringIO()
        kif.prev_move = None
        kif.move_number = 1
        standard = start == cshogi.STARTING_SFEN
        kif.header(["Sente", "Gote"], handicap=None if standard else start_board)
        for move in moves:
            kif.move(move)
        if resign:
            kif.end("resign")
        csa = cshogi.CSA.Exporter()
        csa.f = io.StringIO()
        csa.info(init_board=start_board, names=["Sente", "Gote"], version="V2.2")
        for move in moves:
            csa.move(move)
        if resign:
            csa.endgame("%TORYO")
        ending = "resign" if resign else "-"
        for fmt, text in (("kif", kif.kifu.getvalue()), ("csa", csa.f.getvalue())):
            print(
                "\t".join(
                    [
                        f"g{index}",
                        fmt,
                        start,
                        usi,
                        final,
                        ending,
                        text.encode("utf-8").hex(),
                    ]
                )
            )


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "read":
        read()
    elif len(sys.argv) == 5 and sys.argv[1] == "write":
        write(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
