#!/usr/bin/env bash
# Installs, builds, runs every suite against the CPU reference backend in every mode
# (conformance, accuracy and a quick perf sweep) and writes, under reports/out/:
#   cpu-reference.json        the report (schema: reports/schema/report.schema.json)
#   cpu-reference.html        the same, rendered with its charts (open in a browser)
#   cpu-reference.md          a Markdown summary, cpu-reference.junit.xml for CI tools
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
echo "quickstart: wrote $report.json, $report.html, $report.md and $report.junit.xml"
exit $status
