#!/usr/bin/env bash
# The test command: install dependencies, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
ci/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" --timeout 900
