#!/usr/bin/env bash
# How honest the run's ETA is: runs `infinicts run ARGS…` piped (so it prints a heartbeat line
# every HEARTBEAT seconds), then holds each heartbeat's ETA against the time the run really
# took after it. With --load N, N busy loops share the machine while it runs, as a CI runner's
# neighbours would.
#   bench/eta_accuracy.sh [--load N] -- build/bin/infinicts run --backend build/lib --device cpu
# Prints one row per heartbeat near 10, 25, 50 and 75 % of the cases: the error is
# (ETA - time really left) / time really left; negative is optimistic.
set -euo pipefail

load=0
if [[ "${1:-}" == "--load" ]]; then
  load="$2"
  shift 2
fi
[[ "${1:-}" == "--" ]] && shift
if [[ $# -eq 0 ]]; then
  echo "usage: $0 [--load N] -- INFINICTS run ARGS..." >&2
  exit 2
fi

log=$(mktemp)
loaders=()
cleanup() {
  for pid in "${loaders[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -f "$log"
}
trap cleanup EXIT
for ((i = 0; i < load; i++)); do
  (while :; do :; done) &
  loaders+=("$!")
done

start=$(date +%s.%N)
INFINICTS_HEARTBEAT_SECONDS="${HEARTBEAT:-2}" "$@" >"$log" 2>/dev/null || true
end=$(date +%s.%N)

python3 - "$log" "$start" "$end" "$load" <<'PY'
import re, sys
log, start, end, load = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
total_s = end - start
beats = []
pattern = re.compile(r"^\[(\d+)/(\d+)\] .*?(\d+):(\d\d) elapsed, ETA (\d+):(\d\d)")
for line in open(log, errors="replace"):
    m = pattern.match(line)
    if not m:
        continue
    done, total = int(m[1]), int(m[2])
    elapsed = int(m[3]) * 60 + int(m[4])
    eta = int(m[5]) * 60 + int(m[6])
    beats.append((done / total, elapsed, eta))
if not beats:
    sys.exit("no heartbeat line with an ETA: was the run shorter than one heartbeat?")
print(f"run took {total_s:.0f} s with {load} busy loop(s) beside it; {len(beats)} heartbeats")
print(f"{'done':>6} {'elapsed':>8} {'ETA':>6} {'really left':>12} {'error':>7}")
for target in (0.10, 0.25, 0.50, 0.75):
    fraction, elapsed, eta = min(beats, key=lambda b: abs(b[0] - target))
    left = total_s - elapsed
    error = (eta - left) / left * 100 if left > 0 else float("nan")
    print(f"{fraction*100:5.0f}% {elapsed:7d}s {eta:5d}s {left:11.0f}s {error:+6.0f}%")
PY
