#!/usr/bin/env bash
# The bytes a run writes stay a small multiple of its report's size (docs/usage.md "The
# report"): the runner journals each case and writes the whole report only now and then. The
# runtime suite on the CPU reference: some 180 cases, each of which used to rewrite the report.
# usage: bytes_written.sh COUNT_WRITES INFINICTS BACKEND_DIR WORK_DIR
set -euo pipefail
count_writes=$1 infinicts=$2 backend=$3 work=$4
readonly max_multiple=5
rm -rf "$work" && mkdir -p "$work"
status=0
"$count_writes" "$infinicts" run --backend "$backend" --device cpu --suite rt --quiet --out "$work/r.json" \
  >"$work/stdout" 2>"$work/stderr" || status=$?
if [[ $status -ne 0 ]]; then
  echo "the run exited $status"; cat "$work/stderr"; exit 1
fi
written=$(sed -n 's/^count_writes: \([0-9]*\) bytes written$/\1/p' "$work/stderr")
report=$(stat -c %s "$work/r.json")
cases=$(grep -c '"id":' "$work/r.json" || true)
echo "$cases cases: $written bytes written for a report of $report bytes"
if [[ -e "$work/r.json.journal" ]]; then echo "the journal of a finished run is still there"; exit 1; fi
if (( cases < 100 )); then echo "expected the whole rt suite, got $cases cases"; exit 1; fi
if (( written > max_multiple * report )); then
  echo "more than $max_multiple times the report's size"; exit 1
fi
