#!/usr/bin/env bash
# ci/gate.sh end to end on a few memory cases: its usage errors, a gate that passes
# against a baseline of the same backend (with the job summary appended), and a gate that
# fails on the fault wrapper whose device-to-host copies lose their last byte.
# usage: gate_test.sh GATE_SH INFINICTS REFERENCE_LIB_DIR FAULT_LIB_DIR WORK_DIR
set -u
gate=$1 infinicts=$2 reference=$3 fault=$4 work=$5
filter='rt.memory.conformance/memcpy/d2h/*'

fail() {
  echo "gate_test: FAIL: $1" >&2
  exit 1
}

expect_exit() {  # CODE LOG COMMAND...
  local code=$1 log=$2
  shift 2
  "$@" > "$log" 2>&1
  local status=$?
  cat "$log"
  [ "$status" -eq "$code" ] || fail "$* exited $status, not $code"
}

rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"

# Usage: nothing given, a required option missing, an unreadable baseline, an unknown option.
expect_exit 2 "$work/usage.log" bash "$gate"
grep -q '^usage: ci/gate.sh' "$work/usage.log" || fail "no usage text"
expect_exit 2 "$work/missing.log" bash "$gate" --backend "$reference" --device cpu
grep -q -- '--baseline is required' "$work/missing.log" || fail "no word on the missing --baseline"
expect_exit 2 "$work/unreadable.log" bash "$gate" --backend "$reference" --device cpu --baseline "$work/absent.json"
expect_exit 2 "$work/unknown.log" bash "$gate" --backend "$reference" --device cpu --baseline x --colour

# The baseline: the reference itself.
"$infinicts" run --backend "$reference" --device cpu --suite rt --filter "$filter" --quiet \
  --out "$work/baseline.json" > "$work/baseline.log" 2>&1 || { cat "$work/baseline.log"; fail "baseline run failed"; }
[ "$(grep -c '"id"' "$work/baseline.json")" -gt 0 ] || fail "the baseline has no case"

export GITHUB_STEP_SUMMARY="$work/step_summary.md"
expect_exit 0 "$work/pass.log" bash "$gate" --backend "$reference" --device cpu --baseline "$work/baseline.json" \
  --suite rt --filter "$filter" --out "$work/pass/new.json" --infinicts "$infinicts"
[ -s "$work/pass/new.json" ] || fail "no new report"
grep -q 'No regression' "$work/pass/new.md" || fail "the Markdown of a passing gate says no 'No regression'"
grep -q 'No regression' "$GITHUB_STEP_SUMMARY" || fail "the Markdown was not appended to GITHUB_STEP_SUMMARY"

# Two baselines: both reach the comparison.
cp "$work/baseline.json" "$work/baseline2.json"
expect_exit 0 "$work/two.log" bash "$gate" --backend "$reference" --device cpu --baseline "$work/baseline.json" \
  --baseline "$work/baseline2.json" --suite rt --filter "$filter" --out "$work/two/new.json" --infinicts "$infinicts"
grep -q "compare $work/baseline.json $work/baseline2.json $work/two/new.json" "$work/two.log" ||
  fail "the comparison was not given both baselines"

# The same cases through the fault wrapper: d2h copies short by one byte fail.
INFINICTS_FAULT=d2h_short_by_one INFINICTS_FAULT_TARGET="$reference" \
  expect_exit 1 "$work/fail.log" bash "$gate" --backend "$fault" --device cpu --baseline "$work/baseline.json" \
  --suite rt --filter "$filter" --out "$work/fail/new.json" --md "$work/fail/summary.md" --infinicts "$infinicts" \
  -- --timeout 30
grep -q 'newly failing  rt\.memory\.conformance/memcpy/d2h/' "$work/fail.log" || fail "no newly failing case named"
grep -q 'FAILED: regression against' "$work/fail.log" || fail "the gate did not say it failed on a regression"
grep -q 'Newly failing' "$work/fail/summary.md" || fail "--md has no newly failing table"
[ "$(grep -c '^# infinicts compare' "$GITHUB_STEP_SUMMARY")" -eq 3 ] || fail "the later summaries were not appended"
# A device type the backend has none of: the run refuses (exit 2), and with --allow-no-device
# it skips every case, which the gate must fail all the same.
expect_exit 2 "$work/nodevice.log" bash "$gate" --backend "$reference" --device nvidia --baseline "$work/baseline.json" \
  --suite rt --filter "$filter" --out "$work/nodevice/new.json" --infinicts "$infinicts"
expect_exit 1 "$work/allowed.log" bash "$gate" --backend "$reference" --device nvidia --baseline "$work/baseline.json" \
  --suite rt --filter "$filter" --out "$work/allowed/new.json" --infinicts "$infinicts" -- --allow-no-device
grep -q 'FAILED: the backend has no nvidia device' "$work/allowed.log" || fail "the gate passed a device-less run"
echo "gate_test: ok"
