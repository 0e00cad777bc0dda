#!/usr/bin/env python3
"""Asks HaChu (H. G. Muller's chu / dai shogi engine, Debian package `hachu` 0.21-29-gdf26f4a)
which moves are legal, for the Rust differential test `crates/variants/tests/rulesets/oracles/hachu.rs`.

Usage: hachu_check.py [--hachu PATH] [--jobs N] < queries > answers

Everything here is in XBoard's notation; the Rust test translates from and to ours.

Query lines (tab-separated, one position each):
  <id> <variant> <options> <extra> <fen> <setup moves> <candidates>
    variant     `chu` or `dai` (HaChu's names)
    options     HaChu's engine options separated by `;`, e.g. `Promote on entry=0`, or `-`
    extra       `extra` to also report HaChu's own further moves (see the answer), else `-`
    fen         XBoard's FEN: the board string (the same as ours), a space and the side to move,
                `w` for the upper-case side (our Black, sente), `b` for the lower-case side
    setup moves moves to play from the FEN before asking, separated by spaces (may be empty);
                needed to put HaChu in a position whose history matters (the counter-strike
                rule: a lion just taken by a non-lion piece), which a FEN cannot tell it
    candidates  the moves to ask about, separated by spaces
Answer lines, in the order of the queries:
  <id> ok <verdicts> <extra> <notes>
    verdicts    one character per candidate: `1` accepted, `0` rejected (`Illegal move`)
    extra       with `extra`: the moves of HaChu's own move list that are not among the
                candidates and that HaChu accepts, separated by spaces
    notes       `starts=N crashes=M1,M2` or `crashes=-`: HaChu processes started, and the
                candidates after which HaChu crashed (counted as accepted, see below)
  <id> error <message>         HaChu timed out, kept crashing, or rejected a setup move

XBoard coordinates: files `a`.. from the upper-case side's left (our file 12 / 15 is `a`),
ranks 1.. from the upper-case side (our rank l / o is 1). Moves: `h4h5`, promotion `h4h5+`
(HaChu reads any character after the move as "promote"), a move in two steps (lion, or the
horned falcon / soaring eagle along their lion lines) `g7g8,g8g9` (first leg, comma, second
leg starting where the first ended; igui returns: `g7g8,g8g7`), and any pass `@@@@`. HaChu's
move list uses the same notation; when HaChu itself plays (`go`) it sends a two-step move as
two lines, `move g7g8,` and `move g8f7` (not used here).

How HaChu is driven, and what this script works around (found by experiment and in HaChu's
source, hachu.c at git df26f4a, the Debian version):
  * Commands: `xboard`, `protover 2`, `variant chu|dai`, `force`, `option Allow repeats=1`,
    `option <name>=<value>`, `setboard <board>`, `memory 16`, `usermove <move>`, `ping N`
    (answered `pong N` once HaChu has dealt with every earlier command; HaChu prints many
    `#` debug lines in between). A rejected move is answered `Illegal move`, or
    `Illegal move {<reason>}` for the lion-trading rules (`{Distant capture of protected
    Lion}`, `{Counterstrike against Lion}`); an accepted move gets no answer and is played.
  * HaChu checks a user move against its root move list (hachu.c ParseMove): the move must
    be in it, or be the non-promoting form of a listed promotion, which HaChu accepts as the
    "deferral" except where deferring is impossible (pawn, lance and other forward-only
    pieces on the last rank, knights on the last two), where it plays the promotion. It builds
    that list only once a hash table exists: without `memory N` every move is illegal.
  * `setboard` takes the board only: HaChu 0.21 passes the whole FEN to its board parser,
    which dies on the space before the side to move (`tellusererror Unknown piece ' '`). The
    upper-case side is then to move. When the lower-case side is to move, this script turns the
    position half a circle and swaps the colours (the rules are symmetric), so the upper-case
    side is to move, and turns every move it sends and reports the same way.
  * All positions set up by `setboard` get the same hash key, and HaChu puts the hash move of
    its root key into the root move list without checking it, so a second position in the same
    process can accept a move of the first one (seen: `h4h5` of the start position accepted
    with h4 empty). Each query therefore gets its own HaChu processes, with `memory` sent after
    `setboard` so that the first move list is built for the query's position.
  * An accepted move is played; the script sets the position up again (setboard and setup
    moves) before the next candidate. HaChu crashes (SIGSEGV in its search) after some
    dozens of such cycles in one process, so a process serves at most CYCLES accepted moves,
    and a crash restarts it and asks again. A crash right after a move in a fresh process
    means HaChu accepted the move (a rejected move starts no search) and crashed searching the
    position after it: the move counts as accepted and is listed in the notes.
  * HaChu does not test royal safety in user moves (it is a king-capture engine): it accepts
    moves that leave the king attacked. In a position where the side to move can take the
    opponent's only royal piece its search returns at once and the root move list is stale,
    so such positions cannot be asked about. (The Rust test deals with both.)
  * For a rejected move, HaChu prints its whole root move list as debug lines
    `# <n>. <hex> <hex> <move>`; the script reads it from the answer to `usermove p1p1` (file
    `p` is off the board in chu and dai, so this move is always rejected) to find the extra
    moves, and asks about each of them with `usermove`. Entries `00000000` are moves HaChu
    struck out (lion-trading rules) or holes left by its move ordering.
  * `option Allow repeats=1`: HaChu's default strikes out moves that repeat a position; with
    a fresh history after setboard that cannot happen, but the option makes sure.
  * `option Promote on entry=0` (default 1): with 1, a non-capture may promote only when it
    enters the zone (chu's rule); with 0, any move that starts or ends in the zone may
    promote (dai's rule). Captures starting or ending in the zone may always promote.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import threading

from oracle_common import board_row, read_row

INSTALL = "install HaChu with `apt-get install -y hachu` (Debian/Ubuntu package `hachu`)"
SIZES = {"chu": 12, "dai": 15}
TIMEOUT = 300.0  # seconds per query; most take well under a second
CYCLES = 8  # accepted moves per HaChu process (see the docstring)


def find_hachu(explicit):
    """The HaChu binary: --hachu, $HACHU, `hachu` on PATH, or Debian's /usr/games/hachu."""
    for candidate in (explicit, os.environ.get("HACHU"), shutil.which("hachu"), "/usr/games/hachu"):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    sys.exit(f"hachu_check.py: the HaChu binary was not found; {INSTALL} (or set HACHU)")


def parse_board(board):
    """Rows of cell tokens (`None` for empty cells, else e.g. `P`, `+A'`, `l!`)."""
    return [read_row(text, r"\+?\D['!]*") for text in board.split("/")]


def write_board(rows):
    return "/".join(board_row(row) for row in rows)


def rotate_board(board):
    """The board turned half a circle with the colours swapped."""
    rows = parse_board(board)
    return write_board([[None if c is None else c.swapcase() for c in reversed(r)] for r in reversed(rows)])


def rotate_square(square, size):
    f = ord(square[0]) - ord("a")
    r = int(square[1:])
    return chr(ord("a") + size - 1 - f) + str(size + 1 - r)


def squares(text):
    """Splits `g7g8` / `g7g10` into squares; returns (squares, suffix)."""
    out, i = [], 0
    while i < len(text) and text[i].isalpha() and text[i].islower():
        j = i + 1
        while j < len(text) and text[j].isdigit():
            j += 1
        if j == i + 1:
            break
        out.append(text[i:j])
        i = j
    return out, text[i:]


def rotate_move(move, size):
    if move.startswith("@"):
        return move
    legs = move.split(",")
    out = []
    for leg in legs:
        sq, rest = squares(leg)
        out.append("".join(rotate_square(s, size) for s in sq) + rest)
    return ",".join(out)


class Died(RuntimeError):
    """The HaChu process died (crashed) or was killed."""


class HaChu:
    """One HaChu process, driven synchronously with ping / pong."""

    def __init__(self, binary):
        self.proc = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.pings = 0

    def command(self, text):
        """Sends one command and returns HaChu's output lines up to the matching pong."""
        self.pings += 1
        tag = f"pong {self.pings}"
        try:
            self.proc.stdin.write(f"{text}\nping {self.pings}\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Died(f"HaChu died before `{text}`")
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise Died(f"HaChu died after `{text}`")
            line = line.rstrip("\n")
            if line == tag:
                return lines
            lines.append(line)

    def usermove(self, move):
        """(accepted, output lines)."""
        lines = self.command(f"usermove {move}")
        rejected = any(l.startswith("Illegal move") for l in lines)
        return not rejected, lines

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def listed_moves(lines):
    """HaChu's root move list from the debug dump that follows a rejected move."""
    moves = []
    for line in lines:
        parts = line.split()
        if len(parts) == 5 and parts[0] == "#" and parts[1].endswith(".") and len(parts[2]) == 8:
            if int(parts[2], 16) == 0:
                continue  # struck out
            if parts[4] not in moves:
                moves.append(parts[4])
    return moves


class Session:
    """HaChu set up in the query's position; started afresh every CYCLES accepted moves and
    after a crash (see the module docstring)."""

    def __init__(self, binary, variant, options, board, setup, send):
        self.binary, self.variant, self.options = binary, variant, options
        self.board, self.setup, self.send = board, setup, send
        self.engine = None
        self.cycles = 0
        self.starts = 0
        self.crashes = []
        self.timed_out = False

    def start(self):
        if self.engine:
            self.engine.kill()
        if self.timed_out:
            raise RuntimeError(f"no answer within {TIMEOUT:.0f} s")
        self.engine = HaChu(self.binary)
        self.starts += 1
        for c in ("xboard", "protover 2", f"variant {self.variant}", "force", "option Allow repeats=1"):
            self.engine.command(c)
        for o in self.options:
            self.engine.command(f"option {o}")
        self.engine.command(f"setboard {self.board}")
        self.engine.command("memory 16")
        self.play_setup()
        self.cycles = 0

    def play_setup(self):
        for m in self.setup:
            ok, lines = self.engine.usermove(m)
            if not ok:
                reason = " ".join(l for l in lines if l.startswith("Illegal"))
                raise RuntimeError(f"setup move {self.send(m)} rejected: {reason}")

    def restore(self):
        """Back to the query's position after an accepted (and so played) move."""
        self.cycles += 1
        if self.cycles >= CYCLES:
            self.start()
            return
        try:
            self.engine.command(f"setboard {self.board}")
            self.play_setup()
        except Died:
            self.start()

    def probe(self, move):
        """Whether HaChu accepts `move` (in the orientation sent to HaChu)."""
        fresh = self.cycles == 0
        try:
            ok, _ = self.engine.usermove(move)
        except Died:
            if self.timed_out:
                raise RuntimeError(f"no answer within {TIMEOUT:.0f} s")
            if not fresh:
                self.start()
                return self.probe(move)
            # Died in a fresh process right after the move: HaChu accepted it and crashed
            # while listing the moves of the position after it.
            self.crashes.append(self.send(move))
            self.start()
            return True
        if ok:
            self.restore()
        return ok

    def listing(self):
        """HaChu's root move list (debug dump after a rejected move), in a fresh process."""
        self.start()
        ok, lines = self.engine.usermove("p1p1")
        if ok:
            raise RuntimeError("HaChu accepted the off-board move p1p1")
        return listed_moves(lines)

    def kill(self):
        self.timed_out = True
        if self.engine:
            self.engine.kill()


def answer(binary, line):
    fields = line.rstrip("\n").split("\t")
    if len(fields) != 7:
        return f"{fields[0]}\terror\tmalformed query ({len(fields)} fields)"
    qid, variant, options, extras, fen, setup, candidates = fields
    options = [o.strip() for o in options.split(";") if o.strip() and o.strip() != "-"]
    if variant not in SIZES:
        return f"{qid}\terror\tunknown variant {variant}"
    size = SIZES[variant]
    board, _, side = fen.partition(" ")
    side = side.split()[0] if side.split() else "w"
    setup = setup.split()
    candidates = candidates.split()
    turn = side == "b"
    if turn:
        board = rotate_board(board)
        setup = [rotate_move(m, size) for m in setup]
    # Turning the board is its own inverse, for moves too.
    send = (lambda m: rotate_move(m, size)) if turn else (lambda m: m)
    session = Session(binary, variant, options, board, setup, send)
    timer = threading.Timer(TIMEOUT, session.kill)
    timer.start()
    try:
        session.start()
        verdicts = ["1" if session.probe(send(m)) else "0" for m in candidates]
        extra = []
        asked = set(candidates)
        for move in session.listing() if extras == "extra" else []:
            ours = send(move)
            if ours in asked:
                continue
            asked.add(ours)
            if session.probe(move):
                extra.append(ours)
        notes = f"starts={session.starts} crashes={','.join(session.crashes) or '-'}"
        return f"{qid}\tok\t{''.join(verdicts)}\t{' '.join(extra)}\t{notes}"
    except RuntimeError as error:
        return f"{qid}\terror\t{error}"
    finally:
        timer.cancel()
        session.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hachu", help="path of the HaChu binary")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="HaChu processes at once")
    args = parser.parse_args()
    binary = find_hachu(args.hachu)
    queries = [l for l in sys.stdin if l.strip()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for result in pool.map(lambda q: answer(binary, q), queries):
            print(result, flush=True)


if __name__ == "__main__":
    main()
