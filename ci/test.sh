#!/usr/bin/env bash
# The test command: install dependencies, build, run every test, then the suites on sanitizer
# builds (AddressSanitizer + UBSan: every suite; ThreadSanitizer: the runtime and collective
# suites), which must end with zero findings.
set -euo pipefail
cd "$(dirname "$0")/.."
ci/setup.sh
ci/build.sh
(cd build && ctest --output-on-failure -j "$(nproc)" --timeout 900)
ci/sanitize.sh address
ci/sanitize.sh thread
