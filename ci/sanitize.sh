#!/usr/bin/env bash
# Builds the CPU reference, the harness and the suites with sanitizers and runs suites on that
# build against the reference; any finding fails:
#   ci/sanitize.sh address   AddressSanitizer + UndefinedBehaviorSanitizer, every suite
#   ci/sanitize.sh thread    ThreadSanitizer, the runtime and collective suites
# A finding stops the process it is found in (no recovery): in a case, the case ends `crash`
# with the report; at exit (a leak), the run records a run failure. Either makes the run exit 1.
# The build goes to build-<mode>/ (CUDA off); the reports to reports/out/sanitize-<mode>.json.
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
case "$mode" in
  address) sanitizers="address,undefined" suites="rt,op,ccl" extra=(-DINFINICTS_SUITES_UNOPTIMIZED=ON) ;;
  thread) sanitizers="thread" suites="rt,ccl" extra=() ;;
  *) echo "usage: ci/sanitize.sh address|thread [suites]" >&2; exit 2 ;;
esac
suites="${2:-$suites}"  # a narrower list, to look at one suite

build="build-$mode"
mkdir -p "$build"
# -O1 -g1: line numbers in the reports at a fraction of the compile time of -O2 -g.
source ci/ccache.sh
cmake -S . -B "$build" "${ccache_args[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DINFINICTS_CUDA=OFF -DINFINICTS_SANITIZE="$sanitizers" "${extra[@]}" \
  > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
targets=(infinicts infinirt infiniop infiniccl)
for suite in ${suites//,/ }; do targets+=("infinicts-suite-$suite"); done
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
export INFINICTS_CPU_DEVICES=4

mkdir -p reports/out
report="reports/out/sanitize-$mode.json"
# Sanitized code runs several times slower: a longer limit per case.
status=0
"$build/bin/infinicts" run --backend "$build/lib" --device cpu --suite "$suites" --timeout 600 --quiet \
  --out "$report" || status=$?
echo "ci/sanitize.sh $mode: $report (infinicts run exit $status)"
exit "$status"
