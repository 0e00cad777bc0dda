#!/usr/bin/env bash
# Side-by-side search depth: our engine and a Fairy-Stockfish binary you built yourself (it is
# not part of this project) think for the same fixed time on the same positions, one thread
# and 64 MiB each, one after the other; prints the depth, selective depth, nodes and nodes per
# second each reached.
# Usage: scripts/depth-vs-fairy-stockfish.sh <fairy-stockfish binary> [seconds] [rulesets...]
#   seconds: per position and engine (default 5); rulesets: default chess capablanca grand
#   xiangqi shogi minishogi.
# Positions: the start, and the position after PLIES (default 12) moves that Fairy-Stockfish
# chooses at depth 8 (deterministic on one thread). Both engines are driven over UCI in
# Fairy-Stockfish's dialect (ours speaks it: moves, FENs and variant names).
set -euo pipefail
cd "$(dirname "$0")/.."
fsf=$(realpath "$1"); shift
seconds=${1:-5}; [ $# -gt 0 ] && shift
rulesets=("$@")
[ ${#rulesets[@]} -eq 0 ] && rulesets=(chess capablanca grand xiangqi shogi minishogi)
plies=${PLIES:-12}
ours=${OURS:-target/release/chaturanga}
[ -n "${OURS:-}" ] || cargo build --release --quiet -p chaturanga

# Prints an engine's whole output for the UCI lines on stdin, waiting `$2` seconds before quit.
talk() {
  local engine=$1 wait=$2
  # shellcheck disable=SC2086 # the engine's command line: a path and its arguments
  { cat; sleep "$wait"; printf 'quit\n'; } | $engine
}

setup() {
  printf 'uci\nsetoption name Threads value 1\nsetoption name Hash value 64\n'
  printf 'setoption name UCI_Variant value %s\nisready\nucinewgame\n' "$1"
}

# The last completed iteration's "depth seldepth nodes nps" from an engine's output.
last_iteration() {
  grep -E '^info .*depth [0-9]+ .* pv ' | grep -v -E 'bound' | tail -1 |
    awk '{ for (i = 1; i < NF; i++) { v[$i] = $(i + 1) } print v["depth"], v["seldepth"], v["nodes"], v["nps"] }'
}

printf '%-11s %-8s %-16s %5s %5s %11s %9s\n' ruleset position engine depth sel nodes nodes/s
for variant in "${rulesets[@]}"; do
  line=""
  for ((ply = 0; ply < plies; ply++)); do
    mv=$({ setup "$variant"; printf 'position startpos moves %s\ngo depth 8\n' "$line"; } |
      talk "$fsf" 1 2>/dev/null | sed -n 's/^bestmove \([^ ]*\).*/\1/p' | tail -1)
    [ -z "$mv" ] || [ "$mv" = "(none)" ] && break
    line="$line $mv"
  done
  for position in start "after$plies"; do
    moves=""; [ "$position" = start ] || moves="$line"
    for engine in ours fsf; do
      if [ $engine = ours ]; then binary=("$ours" uci); name=chaturanga; else binary=("$fsf"); name=fairy-stockfish; fi
      out=$({ setup "$variant"; printf 'position startpos moves %s\ngo movetime %d\n' "$moves" "$((seconds * 1000))"; } |
        talk "${binary[*]}" "$((seconds + 1))" 2>/dev/null | last_iteration)
      printf '%-11s %-8s %-16s %5s %5s %11s %9s\n' "$variant" "$position" "$name" $out
    done
  done
  printf '%-11s moves:%s\n' "$variant" "$line"
done
