#!/usr/bin/env bash
# Side-by-side perft speed: our release binary and a Fairy-Stockfish binary you built
# yourself (it is not part of this project), same positions, same machine, one run.
# Usage: scripts/bench-vs-fairy-stockfish.sh <fairy-stockfish binary> <variant> <depth> [fen]
# Environment: FSF_VARIANT (Fairy-Stockfish's name when it differs from ours), VARIANT_PATH (a
# variants.ini for Fairy-Stockfish, e.g. tests/oracles/pyffish-seed-variants.ini),
# OUR_OPTIONS (rule options for us, e.g. "setup=standard").
set -euo pipefail
cd "$(dirname "$0")/.."
fsf=$1; variant=$2; depth=$3; fen=${4:-}
cargo build --release --quiet
ours=target/release/chaturanga
if [ -n "$fen" ]; then pos="position fen $fen"; fen_args=(--fen "$fen"); else pos="position startpos"; fen_args=(); fi
t0=$(date +%s.%N)
opt_args=(); [ -n "${OUR_OPTIONS:-}" ] && opt_args=(--option $OUR_OPTIONS)
nodes=$("$ours" perft "$variant" "$depth" "${fen_args[@]}" "${opt_args[@]}" | sed -n 's/^nodes //p')
t1=$(date +%s.%N)
fsf_variant=${FSF_VARIANT:-$variant}
path_cmd=""; [ -n "${VARIANT_PATH:-}" ] && path_cmd="setoption name VariantPath value $(realpath "$VARIANT_PATH")"
out=$(printf 'uci\n%s\nsetoption name UCI_Variant value %s\n%s\nbench %s 16 1 %s current perft\nquit\n' \
  "$path_cmd" "$fsf_variant" "$pos" "$fsf_variant" "$depth" | "$fsf" 2>&1)
fsf_nodes=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched *: *\([0-9]*\).*/\1/p' | tail -1)
fsf_ms=$(printf '%s\n' "$out" | sed -n 's/^Total time (ms) *: *\([0-9]*\).*/\1/p' | tail -1)
awk -v n="$nodes" -v a="$t0" -v b="$t1" -v fn="$fsf_nodes" -v fms="$fsf_ms" 'BEGIN {
  s = b - a; fs = fms / 1000;
  printf "chaturanga      %12d nodes %8.3f s %12.0f nodes/s\n", n, s, n / s;
  printf "fairy-stockfish %12d nodes %8.3f s %12.0f nodes/s\n", fn, fs, (fs > 0 ? fn / fs : 0);
  if (n != fn) { print "NODE COUNTS DIFFER"; exit 1 }
}'
