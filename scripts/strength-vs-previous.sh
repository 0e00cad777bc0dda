#!/usr/bin/env bash
# Plays our engine against an earlier build of itself in the rulesets Fairy-Stockfish does not
# play, and prints each match's result: what the engine work since that build gained.
# Usage: scripts/strength-vs-previous.sh <earlier chaturanga binary> [games] [tc] [rulesets...]
#   games: per ruleset (default 40); tc: base+increment seconds (default 2+0.02);
#   rulesets: default the 17 rulesets Fairy-Stockfish does not play. Three-player chess seats
#   each engine alone at every side in turn (six games an opening; give a multiple of 6) and
#   counts pairs of seats; its ply cap is 450, 150 moves a player.
# Build the earlier binary from its commit yourself, e.g.
#   git worktree add /tmp/prev <commit> && (cd /tmp/prev && cargo build --release -p chaturanga)
# Both engines run as UCI processes (USI in chu and dai shogi; the same interface, so dark
# chess gives neither more than its view), one thread and 64 MiB each, openings of 6 random
# plies, a ply cap of 300 (450 in three-player chess).
# Environment: SEED (default 1); JOBS (default 1): matches side by side (at most the number of
# idle cores, or the clocks mean nothing); OURS: our binary instead of this tree's release
# build. PGNs and logs go to target/strength/.
set -euo pipefail
cd "$(dirname "$0")/.."
previous=$(realpath "$1"); shift
games=${1:-40}; [ $# -gt 0 ] && shift
tc=${1:-2+0.02}; [ $# -gt 0 ] && shift
rulesets=("$@")
[ ${#rulesets[@]} -eq 0 ] && rulesets=(hexchess chushogi daishogi congo gess makarenko taktika
  chex omega outer renaissance doublechess doublemove progressive avalanche darkchess
  threeplayer)
seed=${SEED:-1}
if [ -n "${OURS:-}" ]; then
  ours=$(realpath "$OURS")
else
  cargo build --release --quiet -p chaturanga
  ours=$(realpath target/release/chaturanga)
fi
mkdir -p target/strength
run() {
  local variant=$1 tag="previous-$1-seed$seed" protocol=uci plies=300
  # The shogi family's own protocol: UCI speaks Fairy-Stockfish's shogi FENs since
  # session 12, which earlier builds do not read.
  case $variant in chushogi | daishogi) protocol=usi ;; threeplayer) plies=450 ;; esac
  "$ours" match "$variant" --first "$protocol:$ours $protocol" \
    --second "$protocol:$previous $protocol" \
    --games "$games" --tc "$tc" --random-plies 6 --max-plies "$plies" --seed "$seed" \
    --pgn "target/strength/$tag.pgn" >"target/strength/$tag.log" 2>&1
  printf '%s:\n' "$variant"
  grep -E '^(W-D-L|Elo)' "target/strength/$tag.log"
}
# shellcheck source=scripts/jobs.sh
. scripts/jobs.sh
run_jobs run "${rulesets[@]}"
