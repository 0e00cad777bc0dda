#!/usr/bin/env python3
"""Other programs read our record files: python-chess, pyffish and cshogi (tests/oracles/
requirements.txt), for crates/cli/tests/cli/record_readers.rs.

    record_readers.py
        stdin:  <id> TAB <reader> TAB <file> [TAB <pyffish variant>]    (one line per file)
        stdout: <id> TAB <final position> TAB <plies> TAB <what the reader saw>

Readers, each reading the file as a program of its own would:
  python-chess  chess.pgn.read_game: its Variant tag chooses the board (Standard, Antichess),
                SetUp/FEN the start; the moves are replayed (an illegal or unreadable move is
                an error, as python-chess reports it). The final FEN is python-chess's; what
                it saw is the board's `uci_variant`.
  pyffish       Fairy-Stockfish as a library, which reads no PGN: the tags are read here (FEN,
                else pyffish's own start position of <pyffish variant>) and each SAN token of
                the movetext is the legal move whose SAN Fairy-Stockfish writes the same
                (`pyffish.get_san`, check marks aside). The final FEN is `pyffish.get_fen`'s;
                what it saw is the start FEN.
  cshogi-kif    cshogi.KIF.Parser, the file decoded as its parse_file does (a `.kifu` file as
                UTF-8, `.kif` as Shift_JIS) and `不成` removed (see cshogi_kif); the moves
                replayed on a cshogi Board, each checked legal.
                The final position is the board's SFEN; what it saw is the start SFEN.
  cshogi-csa    cshogi.CSA.Parser.parse_file, likewise.

Any failure exits non-zero naming the file.
"""

import re
import sys

from oracle_common import require

chess = require("chess")
require("chess.pgn")
require("chess.variant")
sf = require("pyffish")
cshogi = require("cshogi")
KIF = require("cshogi.KIF")
CSA = require("cshogi.CSA")


def python_chess(path):
    with open(path, encoding="utf-8") as f:
        game = chess.pgn.read_game(f)
    if game is None:
        raise ValueError("python-chess found no game")
    if game.errors:
        raise ValueError(f"python-chess: {game.errors}")
    board = game.board()
    plies = 0
    for move in game.mainline_moves():
        if not board.is_legal(move):
            raise ValueError(f"python-chess: move {plies + 1} ({move}) is illegal")
        board.push(move)
        plies += 1
    return board.fen(), plies, board.uci_variant


TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def pgn_parts(path):
    tags, movetext = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                tags[m.group(1)] = m.group(2)
            else:
                movetext.append(line)
    text = re.sub(r"\{[^}]*\}|;[^\n]*|\$\d+", " ", " ".join(movetext))
    tokens = []
    for token in text.split():
        token = re.sub(r"^\d+\.(\.\.)?", "", token)
        if token and token not in ("1-0", "0-1", "1/2-1/2", "*"):
            tokens.append(token)
    return tags, tokens


def bare(san):
    return san.rstrip("+#")


def pyffish(path, variant):
    tags, tokens = pgn_parts(path)
    start = tags["FEN"] if tags.get("SetUp") == "1" and "FEN" in tags else sf.start_fen(variant)
    moves = []
    for ply, token in enumerate(tokens, 1):
        fen = sf.get_fen(variant, start, moves)
        matches = [
            m for m in sf.legal_moves(variant, start, moves)
            if bare(sf.get_san(variant, fen, m)) == bare(token)
        ]
        if len(matches) != 1:
            raise ValueError(
                f"pyffish: move {ply} {token!r} matches {matches} in {fen}"
            )
        moves.append(matches[0])
    return sf.get_fen(variant, start, moves), len(moves), start


def replay_shogi(parser, path):
    board = cshogi.Board(parser.sfen)
    for ply, move in enumerate(parser.moves, 1):
        if not board.is_legal(move):
            raise ValueError(f"cshogi: move {ply} of {path} is illegal")
        board.push(move)
    return board.sfen(), len(parser.moves)


def cshogi_kif(path):
    # cshogi.KIF.Parser.parse_file's own choice of encoding: UTF-8 for `.kifu`, else cp932
    # (Shift_JIS). One normalisation, as in cshogi_records.py: cshogi 1.1.0's KIF parser does
    # not know `不成` (a promotion declined, as Kifu for Windows writes it) and skips such a
    # move line silently; a move without `成` does not promote, so `不成` is removed first.
    encoding = "utf-8" if path.endswith(".kifu") else "cp932"
    with open(path, encoding=encoding) as f:
        text = f.read()
    parser = KIF.Parser.parse_str(text.replace("不成", ""))
    final, plies = replay_shogi(parser, path)
    return final, plies, cshogi.Board(parser.sfen).sfen()


def cshogi_csa(path):
    parsers = CSA.Parser.parse_file(path)
    if len(parsers) != 1:
        raise ValueError(f"cshogi read {len(parsers)} CSA games")
    final, plies = replay_shogi(parsers[0], path)
    return final, plies, cshogi.Board(parsers[0].sfen).sfen()


def main():
    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line:
            continue
        fields = line.split("\t")
        ident, reader, path = fields[:3]
        try:
            if reader == "python-chess":
                result = python_chess(path)
            elif reader == "pyffish":
                result = pyffish(path, fields[3])
            elif reader == "cshogi-kif":
                result = cshogi_kif(path)
            elif reader == "cshogi-csa":
                result = cshogi_csa(path)
            else:
                raise ValueError(f"unknown reader {reader}")
        except Exception as error:  # noqa: BLE001 - any failure is the file's
            sys.exit(f"{ident} ({reader}, {path}): {type(error).__name__}: {error}")
        final, plies, seen = result
        print(f"{ident}\t{final}\t{plies}\t{seen}", flush=True)


if __name__ == "__main__":
    main()
