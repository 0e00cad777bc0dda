# Sourced by the strength scripts: runs `$1` (a shell function) once for each further
# argument, at most JOBS (default 1) at a time, in the background, and waits for them all.
run_jobs() {
  local job=$1; shift
  local pids=()
  for item in "$@"; do
    "$job" "$item" &
    pids+=($!)
    if [ ${#pids[@]} -ge "${JOBS:-1}" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  done
  wait
}
