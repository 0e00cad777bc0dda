#!/usr/bin/env bash
# Plays our engine against a Fairy-Stockfish binary you built yourself (it is not part of
# this project) in the rulesets both play, one thread each, and prints each match's result.
# Usage: scripts/strength-vs-fairy-stockfish.sh <fairy-stockfish binary> [games] [tc] [rulesets...]
#   games: per ruleset (default 40); tc: base+increment seconds (default 10+0.1);
#   rulesets: default chess capablanca grand xiangqi shogi minishogi.
# Environment: ODDS (default 1): our time is ODDS times the base and increment of `tc`, for
# finding the time odds at which we score 50 %; SEED (default 1); JOBS (default 1): matches
# run side by side (at most the number of idle cores, or the clocks mean nothing).
# Capablanca is played from the standard array (`setup=standard`), which Fairy-Stockfish
# knows; shogi and minishogi over USI, the others over UCI. PGNs go to target/strength/.
set -euo pipefail
cd "$(dirname "$0")/.."
fsf=$(realpath "$1"); shift
games=${1:-40}; [ $# -gt 0 ] && shift
tc=${1:-10+0.1}; [ $# -gt 0 ] && shift
rulesets=("$@")
[ ${#rulesets[@]} -eq 0 ] && rulesets=(chess capablanca grand xiangqi shogi minishogi)
odds=${ODDS:-1}; seed=${SEED:-1}
cargo build --release --quiet -p chaturanga
ours=target/release/chaturanga
mkdir -p target/strength
base=${tc%+*}; inc=${tc#*+}
our_tc=$(awk -v b="$base" -v i="$inc" -v o="$odds" 'BEGIN { printf "%g+%g", b * o, i * o }')
run() {
  local variant=$1 protocol=uci options=()
  case $variant in shogi | minishogi) protocol=usi ;; esac
  [ "$variant" = capablanca ] && options=(--option setup=standard)
  local tag="$variant-odds$odds-seed$seed"
  "$ours" match "$variant" --first chaturanga --first-tc "$our_tc" --second "$protocol:$fsf" \
    --games "$games" --tc "$tc" --random-plies 6 --seed "$seed" \
    --pgn "target/strength/$tag.pgn" "${options[@]}" >"target/strength/$tag.log" 2>&1
  printf '%s (odds %s):\n' "$variant" "$odds"
  grep -E '^(W-D-L|Elo)' "target/strength/$tag.log"
}
# shellcheck source=scripts/jobs.sh
. scripts/jobs.sh
run_jobs run "${rulesets[@]}"
