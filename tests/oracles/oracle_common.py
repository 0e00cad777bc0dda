"""What the oracle scripts of tests/oracles share: the FEN board text, the random games the Rust
differential tests read, and the command line of the second implementations.

The scripts are either second implementations of our rulesets written from the rules files
(independent_*.py) or drivers of a library (python-chess, cshogi, pyffish). The Rust tests
under crates/variants/tests/rulesets/oracles run them and compare what they print; each
script's docstring says what it prints. Scripts import this module from their own directory
(`python3 tests/oracles/<script>.py ...` puts it on the path). Standard library only.

  * FEN boards: `read_row` and `board_row` read and write one rank of a FEN board, with runs
    of empty cells as decimal numbers of any length; `counter` reads an optional move counter.
  * Positions of interest several scripts start games from (`SHOGI_SCENARIOS`).
  * Perft fixtures: `fixture` prints one block of a fixture file, `perft_lines` its counts.
  * Random games: `random_game` prints one seeded random game as tab-separated lines, `P`
    (a position's fields) and `M` (the move played); the caller prints the `G` line that
    starts it. `line` prints one such line.
  * The command line of a second implementation, `main(oracle, argv, doc)`, for the game an
    `Oracle` subclass describes: see COMMAND_LINE. Scripts may add rule options
    (`Oracle.OPTIONS`) and flags of their own (`Oracle.FLAGS`).
"""
import importlib
import random
import re
import sys

COMMAND_LINE = """The command line of a second implementation (oracle_common.py):
  <depth> [--fen FEN] [--option NAME=VALUE ...] [--divide]
      perft from FEN (default: the start position): `nodes N`; with --divide first one
      `<move> <count>` line per root move, sorted by move
  0 [--fen FEN] --moves
      the legal moves, sorted, one a line
  0 [--fen FEN] --walk SEED PLIES
      one seeded random game: the start FEN, then `<move> <fen>` per ply (a helper for
      choosing fixtures)
  0 [--fen FEN] [--option ...] --playouts SEED GAMES PLIES
      GAMES seeded random games of at most PLIES positions for the Rust tests: per game a
      line `G <fen>`, per position `P <fen> <sorted moves, space-separated>` (and the
      script's further fields) and after each move played `M <move>`, tab-separated; a game
      ends at a position without moves
  perft FEN DEPTH [--option ...]  /  divide FEN [--option ...]
      for scripts that name the moving man: the bare perft count, or the depth-1 moves
      grouped by man (`<man><cell> <count> <moves>`, then `total N`)
"""
INSTALL = "install the oracles with `python3 -m pip install -r tests/oracles/requirements.txt`"


def require(module):
    """Imports `module` (a package of requirements.txt), or exits saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        sys.exit(f"{module.split('.')[0]} is missing ({error}); {INSTALL}")


# ---- FEN boards ------------------------------------------------------------------------------


def read_row(text, piece=r"[A-Za-z]"):
    """One rank of a FEN board: a list with None for each empty cell and the token of each man,
    in order. Runs of empty cells are decimal numbers; a man is what the regular expression
    `piece` matches; anything else is a ValueError."""
    cells = []
    for m in re.finditer(r"(?P<run>\d+)|(?P<man>%s)|(?P<bad>.)" % piece, text):
        if m.group("run"):
            cells.extend([None] * int(m.group("run")))
        elif m.group("bad") is not None:
            raise ValueError("unexpected %r in FEN rank %r" % (m.group("bad"), text))
        else:
            cells.append(m.group("man"))
    return cells


def board_row(cells, empty=None):
    """One rank of a FEN board from its cells in order: the token of each man (or of a cell
    that is not on the board, `*`), `empty` for an empty cell; empty runs become numbers."""
    text, run = "", 0
    for cell in cells:
        if cell == empty:
            run += 1
            continue
        if run:
            text += str(run)
            run = 0
        text += cell
    if run:
        text += str(run)
    return text


def counter(fields, index, default):
    """The number in field `index` of a split FEN, or `default` when the FEN ends before it."""
    return int(fields[index]) if len(fields) > index else default


# ---- positions of interest -------------------------------------------------------------------

# Scenarios 2-11 and 13-15 of docs/rules/shogi.md in SFEN (11 is stalemated, so that short runs
# compare a result): where the shogi oracles, cshogi_playouts.py and pyffish_playouts.py,
# start their odd-numbered games.
SHOGI_SCENARIOS = [
    "4k4/9/9/9/9/9/4P4/9/4K4 b P 1",
    "8k/6+R2/9/9/9/9/9/9/K8 w - 1",
    "4k4/9/9/9/9/9/4+P4/9/4K4 b P 1",
    "4k4/9/9/9/9/9/9/9/4K4 b NLP 1",
    "4k4/6P2/9/7N1/9/9/9/9/4K4 b - 1",
    "7nk/9/7G1/9/9/9/9/9/K8 b P 1",
    "9/4K4/9/9/9/9/9/4k4/9 b 2RB2G2S2N2L7Pb2g2s2n2l11p 1",
    "RRBBKGGSS/+N+N7/9/9/9/9/9/9/4k4 b 2P2g2s2n4l16p 1",
    "4k4/9/5S3/9/9/9/9/9/4K4 b - 1",
    "4k4/9/9/9/9/9/9/9/4K4 b S 1",
    "7nk/9/7G1/9/9/9/9/9/K8 b G 1",
    "7nk/9/7GP/9/9/9/9/9/K8 b - 1",
    "7nk/9/9/9/9/9/9/9/K8 b P 1",
    "5k3/9/9/9/4R4/9/9/9/K8 b - 1",
]


# ---- random games ----------------------------------------------------------------------------


def line(tag, *fields):
    """Prints one tab-separated output line (`G`, `P`, `M`, ...)."""
    sys.stdout.write("\t".join((tag,) + tuple(fields)) + "\n")


def random_game(rng, positions, position, play, pick=None):
    """Prints at most `positions` positions of one random game (`P` lines) and the move played
    after each (`M` lines). `position()` gives a position's `P` fields and the moves to choose
    from, (text, move) pairs: an empty list ends the game after that position. The move is
    chosen with `pick(rng, choices)` (`rng.choice` by default) and played with `play(move)`."""
    for _ in range(positions):
        fields, choices = position()
        line("P", *fields)
        if not choices:
            return
        text, move = pick(rng, choices) if pick else rng.choice(choices)
        line("M", text)
        play(move)


def playout_numbers(args, usage):
    """SEED GAMES PLIES as numbers, or exit with `usage`."""
    try:
        seed, games, plies = (int(a) for a in args)
    except ValueError:
        sys.exit(usage)
    return seed, games, plies


def alternate(game, start, fens):
    """The start of game number `game` of a playout run and its origin: even games start from
    `start` (origin `start`), odd ones cycle through the positions of interest `fens` (`fen`)."""
    if game % 2 == 0:
        return start, "start"
    return fens[(game // 2) % len(fens)], "fen"


# ---- perft fixtures --------------------------------------------------------------------------


def perft_lines(counts):
    """Prints `perft <depth> <leaves>` per count, from depth 1."""
    for depth, leaves in enumerate(counts, 1):
        print("perft %d %d" % (depth, leaves))


def fixture(comment, ident, fields, counts):
    """Prints a perft fixture block (crates/variants/tests/perft/*.perft): `# comment`,
    `id ident`, `<key> <value>` per field (`epd <fen>`), the perft lines and a blank line."""
    print("# " + comment)
    print("id " + ident)
    for key, value in fields:
        print(key, value)
    perft_lines(counts)
    print()
    sys.stdout.flush()


# ---- the command line of a second implementation ---------------------------------------------


class Oracle:
    """A second implementation's game, as `main` drives it. A script subclasses it with its
    start position and the calls into its own position type; the defaults suit a position with
    `copy()`, `play(move)` (in place), `legal()` and `fen()`."""

    #: The start position's FEN.
    START = None
    #: Rule options, `--option NAME=VALUE`: name -> the values allowed, the default first.
    OPTIONS = {}
    #: Further flags of the script: flag -> how many values follow it.
    FLAGS = {}
    #: Random games draw from the moves sorted by text (False: in the order generated).
    SORTED_CHOICE = True

    def __init__(self):
        #: The rule options in force: name -> value.
        self.options = {name: values[0] for name, values in self.OPTIONS.items()}
        #: The script's own flags given: flag -> its values.
        self.flags = {}

    def position(self, fen):
        """The position a FEN describes (under `self.options`)."""
        raise NotImplementedError

    def moves(self, pos):
        """The legal moves."""
        return pos.legal()

    def text(self, pos, move):
        """A move's text."""
        raise NotImplementedError

    def after(self, pos, move):
        """The position after `move`; `pos` stays as it was."""
        child = pos.copy()
        child.play(move)
        return child

    def advance(self, pos, move):
        """The position after `move` in a game (`pos` is not used again)."""
        return self.after(pos, move)

    def fen(self, pos):
        """The FEN of a position."""
        return pos.fen()

    def fields(self, pos):
        """Fields that follow the moves in a playout's `P` line."""
        return ()

    def piece(self, pos, move):
        """The man a move moves and its cell, for `divide FEN`."""
        raise NotImplementedError

    def pick(self, pos, choices, rng):
        """The (text, move) a random game plays."""
        return rng.choice(choices)

    def report(self, pos):
        """A script's own mode (from its `FLAGS`): prints it and returns True, else False."""
        return False

    def choices(self, pos):
        """(text, move) of the legal moves, in the order random games draw from."""
        pairs = [(self.text(pos, m), m) for m in self.moves(pos)]
        if self.SORTED_CHOICE:
            pairs.sort(key=lambda pair: pair[0])
        return pairs

    def perft(self, pos, depth):
        """Leaves of the move tree `depth` plies deep."""
        if depth == 0:
            return 1
        moves = self.moves(pos)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.after(pos, m), depth - 1) for m in moves)

    def divide(self, pos, depth):
        """(move text, leaves below it) per legal move, sorted by text."""
        return sorted(
            ((self.text(pos, m), self.perft(self.after(pos, m), depth - 1)) for m in self.moves(pos)),
            key=lambda entry: entry[0],
        )


class Usage(Exception):
    """A command line `main` cannot read."""


def parse(oracle, args):
    """Reads the command line into a dict (and `oracle.options`, `oracle.flags`)."""
    if not args:
        raise Usage("no arguments")
    given = {"fen": None}
    rest = 1
    if args[0] in ("perft", "divide"):
        given["by_piece"] = args[0]
        if len(args) < (3 if args[0] == "perft" else 2):
            raise Usage(args[0] + " needs a FEN" + (" and a depth" if args[0] == "perft" else ""))
        given["fen"] = args[1]
        given["depth"] = int(args[2]) if args[0] == "perft" else 1
        rest = 3 if args[0] == "perft" else 2
    else:
        given["depth"] = int(args[0])
    numbers = {"--walk": 2, "--playouts": 3}
    i = rest
    while i < len(args):
        a = args[i]
        if a == "--fen":
            given["fen"] = args[i + 1]
            i += 2
        elif a == "--option":
            name, _, value = args[i + 1].partition("=")
            if value not in oracle.OPTIONS.get(name, ()):
                raise Usage("unknown option %r" % args[i + 1])
            oracle.options[name] = value
            i += 2
        elif a in ("--divide", "--moves"):
            given[a[2:]] = True
            i += 1
        elif a in numbers:
            values = args[i + 1:i + 1 + numbers[a]]
            if len(values) != numbers[a]:
                raise Usage("%s needs %d numbers" % (a, numbers[a]))
            given[a[2:]] = tuple(int(x) for x in values)
            i += 1 + numbers[a]
        elif a in oracle.FLAGS:
            oracle.flags[a] = args[i + 1:i + 1 + oracle.FLAGS[a]]
            i += 1 + oracle.FLAGS[a]
        else:
            raise Usage("unknown argument %r" % a)
    return given


def playout(oracle, pos, rng, plies):
    """One random game of `oracle` from `pos` for `--playouts`, with its `G` line."""
    line("G", oracle.fen(pos))
    state = [pos]

    def position():
        here = state[0]
        choices = oracle.choices(here)
        texts = " ".join(sorted(text for text, _ in choices))
        return (oracle.fen(here), texts) + tuple(oracle.fields(here)), choices

    def play(move):
        state[0] = oracle.advance(state[0], move)

    random_game(rng, plies, position, play, lambda rng, choices: oracle.pick(state[0], choices, rng))


def main(oracle, argv, doc):
    """Runs the command line `argv` (without the script's name) for `oracle`; `doc` is the
    script's usage text. Returns the exit status."""
    try:
        given = parse(oracle, argv)
    except (Usage, ValueError, IndexError) as error:
        sys.stderr.write("%s\n%s\n%s" % (error, doc, COMMAND_LINE))
        return 2
    fen = given["fen"] or oracle.START
    if "playouts" in given:
        seed, games, plies = given["playouts"]
        rng = random.Random(seed)
        for _ in range(games):
            playout(oracle, oracle.position(fen), rng, plies)
        return 0
    pos = oracle.position(fen)
    if "walk" in given:
        seed, plies = given["walk"]
        rng = random.Random(seed)
        print(oracle.fen(pos))
        for _ in range(plies):
            choices = oracle.choices(pos)
            if not choices:
                break
            text, move = oracle.pick(pos, choices, rng)
            pos = oracle.advance(pos, move)
            print(text, oracle.fen(pos))
        return 0
    if oracle.report(pos):
        return 0
    if given.get("by_piece") == "divide":
        moves = oracle.moves(pos)
        by_piece = {}
        for m in moves:
            by_piece.setdefault(oracle.piece(pos, m), []).append(oracle.text(pos, m))
        for key in sorted(by_piece):
            print(key, len(by_piece[key]), " ".join(sorted(by_piece[key])))
        print("total", len(moves))
    elif given.get("by_piece") == "perft":
        print(oracle.perft(pos, given["depth"]))
    elif given.get("moves"):
        for text in sorted(oracle.text(pos, m) for m in oracle.moves(pos)):
            print(text)
    elif given.get("divide"):
        total = 0
        for text, n in oracle.divide(pos, given["depth"]):
            print(text, n)
            total += n
        print("nodes", total)
    else:
        print("nodes", oracle.perft(pos, given["depth"]))
    return 0
