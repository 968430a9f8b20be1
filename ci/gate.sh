#!/usr/bin/env bash
# A CI gate for a backend: runs infinicts against it, compares the new report with a
# baseline report, and fails the job on a failed run or a regression. Copy it into your
# pipeline; docs/compare.md explains the verdict.
set -uo pipefail

usage() {
  cat <<'TEXT'
usage: ci/gate.sh --backend DIR|LIB --device TYPE --baseline BASE.json [--baseline BASE2.json ...]
                  [--suite rt,op,ccl] [--mode conformance,accuracy,perf] [--filter GLOB]
                  [--threshold 0.05] [--out NEW.json] [--md FILE] [--infinicts PATH]
                  [-- MORE infinicts run OPTIONS]

  Runs `infinicts run` on the backend (the report goes to --out, default gate/new.json),
  then `infinicts compare BASE.json [BASE2.json ...] NEW.json` with the Markdown written to
  --md (default: NEW.json with .md) and appended to $GITHUB_STEP_SUMMARY when that is set.
  Several --baseline runs of the known-good build, or baselines and a run made with
  `-- --repeat N`, let the verdict see how much times move between runs (docs/compare.md).
  Options after `--` go to `infinicts run` as they are (e.g. --perf-budget-ms 50,
  --expect known_failures.txt, --timeout 120).
  The infinicts command is --infinicts, else $INFINICTS, else build/bin/infinicts of this
  checkout, else `infinicts` on the PATH.

Exit codes: 0 the run passed and nothing regressed; 1 a case failed, was blocked, crashed or
timed out, the backend had no device of the type (even with --allow-no-device), or the
comparison found a regression; 2 bad usage, a backend that cannot be loaded or without a
device of the type, or a baseline that cannot be read.
TEXT
}

bad_usage() {
  echo "gate.sh: $1" >&2
  echo "run ci/gate.sh --help for the options" >&2
  exit 2
}

backend="" device="" baselines=() suite="" mode="" filter="" threshold="" out="gate/new.json" md=""
infinicts="${INFINICTS:-}"
run_extra=()
if [ $# -eq 0 ]; then
  usage >&2
  exit 2
fi
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --) shift; run_extra=("$@"); break ;;
    --backend|--device|--baseline|--suite|--mode|--filter|--threshold|--out|--md|--infinicts)
      [ $# -ge 2 ] || bad_usage "$1 needs a value"
      value="$2"
      case "$1" in
        --backend) backend="$value" ;;
        --device) device="$value" ;;
        --baseline) baselines+=("$value") ;;
        --suite) suite="$value" ;;
        --mode) mode="$value" ;;
        --filter) filter="$value" ;;
        --threshold) threshold="$value" ;;
        --out) out="$value" ;;
        --md) md="$value" ;;
        --infinicts) infinicts="$value" ;;
      esac
      shift 2 ;;
    *) bad_usage "unknown argument '$1'" ;;
  esac
done
[ -n "$backend" ] || bad_usage "--backend is required"
[ -n "$device" ] || bad_usage "--device is required"
[ ${#baselines[@]} -gt 0 ] || bad_usage "--baseline is required"
for baseline in "${baselines[@]}"; do
  [ -r "$baseline" ] || bad_usage "baseline $baseline cannot be read"
done
[ -n "$md" ] || md="${out%.json}.md"

if [ -z "$infinicts" ]; then
  checkout_build="$(cd "$(dirname "$0")/.." && pwd)/build/bin/infinicts"
  if [ -x "$checkout_build" ]; then infinicts="$checkout_build"; else infinicts="infinicts"; fi
fi
command -v "$infinicts" >/dev/null 2>&1 || bad_usage "the infinicts command ($infinicts) is not found; pass --infinicts PATH"

run_args=(run --backend "$backend" --device "$device" --out "$out")
[ -z "$suite" ] || run_args+=(--suite "$suite")
[ -z "$mode" ] || run_args+=(--mode "$mode")
[ -z "$filter" ] || run_args+=(--filter "$filter")
run_args+=(${run_extra[@]+"${run_extra[@]}"})

mkdir -p "$(dirname "$out")" "$(dirname "$md")" || exit 2
echo "gate.sh: $infinicts ${run_args[*]}"
"$infinicts" "${run_args[@]}"
run_status=$?
if [ "$run_status" -eq 2 ] || [ ! -s "$out" ]; then
  echo "gate.sh: the run did not produce a report (exit $run_status)" >&2
  exit 2
fi

# A run that tested nothing (no device of the type, every case skipped under --allow-no-device)
# must never pass a gate.
if grep -Eq '"device_count": ?0[,}]' "$out"; then
  echo "gate.sh: FAILED: the backend has no $device device: the run tested nothing ($out)"
  exit 1
fi

compare_args=(compare "${baselines[@]}" "$out" --md "$md")
[ -z "$threshold" ] || compare_args+=(--threshold "$threshold")
echo "gate.sh: $infinicts ${compare_args[*]}"
"$infinicts" "${compare_args[@]}"
compare_status=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -s "$md" ]; then
  cat "$md" >> "$GITHUB_STEP_SUMMARY"
fi

if [ "$compare_status" -eq 2 ]; then
  echo "gate.sh: the comparison could not be made (exit 2)" >&2
  exit 2
fi
verdict=0
if [ "$run_status" -ne 0 ]; then
  echo "gate.sh: FAILED: the run had failing, crashed or timed-out cases (infinicts run exit $run_status)"
  verdict=1
fi
if [ "$compare_status" -ne 0 ]; then
  echo "gate.sh: FAILED: regression against ${baselines[*]} (see $md)"
  verdict=1
fi
[ "$verdict" -ne 0 ] || echo "gate.sh: passed: no failure, no regression against ${baselines[*]}"
exit "$verdict"
