#!/usr/bin/env bash
# Configures and builds everything into build/ (libraries in build/lib, commands in build/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/ccache.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" "${ccache_args[@]}" ${INFINICTS_CMAKE_ARGS:-}
cmake --build build -j "$(nproc)"
