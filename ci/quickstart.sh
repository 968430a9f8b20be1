#!/usr/bin/env bash
# Installs, builds, runs every suite against the CPU reference backend and writes
# reports/out/cpu-reference.json, then prints the summary.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
ci/build.sh
mkdir -p reports/out
# Four virtual devices: the collective suite runs rank counts 1 to 4.
export INFINICTS_CPU_DEVICES="${INFINICTS_CPU_DEVICES:-4}"
status=0
build/bin/infinicts run --backend build/lib --device cpu --out reports/out/cpu-reference.json || status=$?
echo "quickstart: report written to reports/out/cpu-reference.json"
exit $status
