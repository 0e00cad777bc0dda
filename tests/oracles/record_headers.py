#!/usr/bin/env python3
"""What other programs read in the headers of our records: python-chess (PGN) and cshogi (KIF,
CSA), for crates/session/tests/session/records.rs.

    record_headers.py
        stdin:  <id> TAB <reader> TAB <record text in hex>    (one line per record)
        stdout: <id> TAB <key> TAB <value>                    (one line per fact read)

Values have their backslashes, tabs and line breaks escaped (`\\\\`, `\\t`, `\\n`). Readers:

  python-chess  chess.pgn.read_game: `header:<name>` for every tag it read, `comment` (the
                game's comment: the comments before the first move, joined by python-chess),
                `moves` (UCI, space-separated, each checked legal), `fen` (the final position),
                `time_control` (what Game.time_control() makes of the TimeControl tag: `<type>
                <moves>/<time>+<increment>` per part, or `error`).
  cshogi-kif    cshogi.KIF.Parser.parse_str and cshogi.CSA.Parser.parse_str (the one game):
  cshogi-csa    `name:0` and `name:1` (the players), `var:<key>` for each other header item
                it kept, `comment` (the comment lines it kept), `moves` (USI), `sfen` (the
                start); KIF also `starttime` (開始日時 as cshogi read it, or nothing).

Any failure exits non-zero naming the record.
"""

import io
import sys

from oracle_common import require

chess = require("chess")
require("chess.pgn")
cshogi = require("cshogi")
KIF = require("cshogi.KIF")
CSA = require("cshogi.CSA")


def escape(value):
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def python_chess(text):
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise ValueError("python-chess found no game")
    if game.errors:
        raise ValueError(f"python-chess: {game.errors}")
    facts = [(f"header:{name}", value) for name, value in game.headers.items()]
    facts.append(("comment", game.comment))
    board = game.board()
    moves = []
    for move in game.mainline_moves():
        if not board.is_legal(move):
            raise ValueError(f"python-chess: move {len(moves) + 1} ({move}) is illegal")
        board.push(move)
        moves.append(move.uci())
    facts.append(("moves", " ".join(moves)))
    facts.append(("fen", board.fen()))
    try:
        control = game.time_control()
        parts = " ".join(f"{p.moves}/{p.time}+{p.increment:g}" for p in control.parts)
        facts.append(("time_control", f"{control.type.name} {parts}".strip()))
    except ValueError:
        facts.append(("time_control", "error"))
    return facts


def shogi_facts(parser):
    facts = [(f"name:{i}", name) for i, name in enumerate(parser.names) if name is not None]
    facts += [(f"var:{key}", value) for key, value in parser.var_info.items()]
    facts.append(("comment", parser.comment or ""))
    facts.append(("moves", " ".join(cshogi.move_to_usi(m) for m in parser.moves)))
    facts.append(("sfen", parser.sfen))
    return facts


def cshogi_kif(text):
    parser = KIF.Parser.parse_str(text)
    facts = shogi_facts(parser)
    if parser.starttime is not None:
        facts.append(("starttime", parser.starttime.strftime("%Y/%m/%d %H:%M:%S")))
    return facts


def cshogi_csa(text):
    parsers = CSA.Parser.parse_str(text)
    if len(parsers) != 1:
        raise ValueError(f"cshogi read {len(parsers)} CSA games")
    return shogi_facts(parsers[0])


READERS = {"python-chess": python_chess, "cshogi-kif": cshogi_kif, "cshogi-csa": cshogi_csa}


def main():
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        ident, reader, record = line.split("\t")
        try:
            facts = READERS[reader](bytes.fromhex(record).decode("utf-8"))
        except Exception as error:  # noqa: BLE001 - any failure is the record's
            sys.exit(f"{ident} ({reader}): {type(error).__name__}: {error}")
        for key, value in facts:
            print(f"{ident}\t{key}\t{escape(value)}", flush=True)


if __name__ == "__main__":
    main()
