#!/usr/bin/env bash
# `cmake --install` into a fresh prefix gives a working `infinicts` on PATH with its suites and
# the reference backend, and a failing case's rerun line, pasted as printed, runs that case
# alone and fails it again.
# usage: install_and_rerun.sh CMAKE BUILD_DIR FAULT_LIB_DIR WORK_DIR
set -u
cmake=$1 build=$2 fault=$3 work=$4
filter='rt.memory.conformance/memcpy/d2h/*'

fail() {
  echo "install_and_rerun: FAIL: $1" >&2
  exit 1
}

rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"
prefix="$work/prefix"
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install exited $?"; }
reference="$prefix/lib/infinicts/reference"
for file in bin/infinicts bin/infinicts-suite-rt bin/infinicts-suite-op bin/infinicts-suite-ccl \
            lib/infinicts/reference/libinfinirt.so lib/infinicts/reference/libinfiniop.so \
            lib/infinicts/reference/libinfiniccl.so share/infinicts/gate.sh; do
  [ -e "$prefix/$file" ] || fail "cmake --install put no $file in the prefix"
done

# From PATH, with nothing of the build directory named: the installed command, its suites
# and the installed reference.
export PATH="$prefix/bin:$PATH"
[ "$(command -v infinicts)" = "$prefix/bin/infinicts" ] || fail "infinicts on PATH is $(command -v infinicts)"
(cd "$work" && infinicts run --backend "$reference" --device cpu --suite rt,op --filter "$filter,op.add.conformance/*" \
   --out "$work/installed.json" > "$work/installed.log" 2>&1) ||
  { cat "$work/installed.log"; fail "a run of the installed infinicts on the installed reference exited $?"; }
grep -Eq '"suite": ?"op"' "$work/installed.json" || fail "the installed run has no op case"

# A failing case through the fault wrapper (its device-to-host copies lose their last byte):
# its rerun line, pasted in another directory, reruns it alone.
export INFINICTS_FAULT=d2h_short_by_one INFINICTS_FAULT_TARGET="$reference"
(cd "$work" && infinicts run --backend "$fault" --device cpu --suite rt --filter "$filter" \
   --out "$work/failing.json" > "$work/failing.log" 2>&1)
status=$?
cat "$work/failing.log"
[ "$status" -eq 1 ] || fail "the faulty run exited $status, not 1"
rerun=$(grep -m1 '^ *rerun: ' "$work/failing.log" | sed 's/^ *rerun: //')
[ -n "$rerun" ] || fail "no rerun line on the terminal"
case "$rerun" in infinicts\ *) ;; *) fail "the rerun line does not start with the command as typed: $rerun" ;; esac
mkdir -p "$work/elsewhere"
(cd "$work/elsewhere" && bash -c "$rerun --out rerun.json" > rerun.log 2>&1)
status=$?
cat "$work/elsewhere/rerun.log"
[ "$status" -eq 1 ] || fail "the pasted rerun line exited $status, not 1: $rerun"
id=$(echo "$rerun" | sed 's/.*--filter //')
[ "$(grep -c '"id"' "$work/elsewhere/rerun.json")" -eq 1 ] || fail "the rerun ran more than the one case"
grep -q "^FAIL  *$id:" "$work/elsewhere/rerun.log" || fail "the rerun did not fail $id again"
echo "install_and_rerun: ok"
