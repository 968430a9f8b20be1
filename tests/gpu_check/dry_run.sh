#!/usr/bin/env bash
# dry_run.sh SOURCE_DIR BUILD_DIR WORK_DIR: packs BUILD_DIR with ci/gpu_check.sh, runs the check
# unpacked under WORK_DIR on this machine (no NVIDIA device), and checks that it failed for that
# reason, with its log and the devices step's log readable in the reports folder.
set -uo pipefail
source_dir=$1 build_dir=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
problems=0
problem() { echo "FAIL: $*"; problems=$((problems + 1)); }

if ! GPU_CHECK_BUILD=$build_dir GPU_BUNDLE_DIR=$work/bundle bash "$source_dir/ci/gpu_check.sh" pack --no-build \
     >"$work/pack.log" 2>&1; then
  cat "$work/pack.log"
  echo "FAIL: ci/gpu_check.sh pack --no-build failed"
  exit 1
fi
tail -1 "$work/pack.log"

status=0
OUT=$work/out GPU_CHECK_ROOT=$work/root GPU_BUNDLE_DIR=$work/bundle timeout 300 \
  bash "$source_dir/ci/gpu_check.sh" run >"$work/run.log" 2>&1 || status=$?
cat "$work/run.log"
[ "$status" -eq 1 ] || problem "the check exited $status, not 1"
log=$work/out/gpu-check.log
[ -s "$log" ] || problem "no log at $log"
grep -q "gpu_check: no NVIDIA device" "$log" || problem "the log does not say 'no NVIDIA device'"
grep -q "gpu_check: FAILED: devices" "$log" || problem "the log does not end with the devices step's failure"
grep -q "every step passed" "$log" && problem "the log says every step passed"
ls "$work"/out/*-devices.log >/dev/null 2>&1 || problem "no devices step log in $work/out"
grep -q "infinicts: the backend has no nvidia device\|backend: " "$work"/out/*-devices.log ||
  problem "the devices step's log does not give the backend's answer"
# Nothing after the devices step ran: no suite report pretends to a result.
ls "$work"/out/*.json >/dev/null 2>&1 && problem "reports were written though no device was there"
[ "$problems" -eq 0 ] && echo "ok: the dry run failed cleanly for want of an NVIDIA device"
exit $((problems > 0))
