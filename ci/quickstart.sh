#!/usr/bin/env bash
# Installs, builds, runs every suite against the CPU reference backend and writes, under
# reports/out/:
#   cpu-reference.json        every mode (conformance, accuracy and a quick perf sweep), the
#                             reference's streams asynchronous (its default)
#   cpu-reference.html        the same, rendered with its charts (open in a browser)
#   cpu-reference.md          a Markdown summary, cpu-reference.junit.xml for CI tools
#   cpu-reference-sync.json   conformance and accuracy again with INFINICTS_CPU_SYNC=1, the
#                             reference running every stream's work at the call (and its .md)
# Exits 1 when either run has a case that did not pass.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
ci/build.sh
mkdir -p reports/out
# Eight virtual devices: every collective case runs (rank counts 1 to 8), so the run skips
# nothing and judges both levels on a whole run.
export INFINICTS_CPU_DEVICES="${INFINICTS_CPU_DEVICES:-8}"
report=reports/out/cpu-reference
status=0
build/bin/infinicts run --backend build/lib --device cpu --mode conformance,accuracy,perf \
  --out "$report.json" || status=$?
build/bin/infinicts report "$report.json" --html "$report.html" --md "$report.md" --junit "$report.junit.xml"
INFINICTS_CPU_SYNC=1 build/bin/infinicts run --backend build/lib --device cpu --mode conformance,accuracy \
  --out "$report-sync.json" || status=$?
build/bin/infinicts report "$report-sync.json" --md "$report-sync.md"
echo "quickstart: wrote $report.json, $report.html, $report.md, $report.junit.xml and $report-sync.{json,md}"
exit $status
