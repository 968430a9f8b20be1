#!/usr/bin/env bash
# The prepared GPU check of issue 6: build and pack here (no GPU needed), run on a machine
# with an NVIDIA GPU in one short command, bring the reports back.
#
#   ci/gpu_check.sh pack            here: build (ci/build.sh), then write gpu_bundle/infinicts-gpu.tar.xz:
#                                   the stripped commands, suites, GPU tests and libraries at their
#                                   build paths, plus the host libraries the GPU machine may lack
#                                   (OpenBLAS and its Fortran runtime). Carry gpu_bundle there.
#   ci/gpu_check.sh run [STEP...]   there: unpack to the same absolute path, then the steps (all by
#                                   default, in this order): tests (ctest's GPU tests), suites (every
#                                   suite, conformance and accuracy, on nvidia:0), speed
#                                   (infinicts-cuda-speed), perf (the quick perf sweep on nvidia:0).
#                                   Reports and a log go to $OUT (else reports/out/gpu). Exit 1 if a
#                                   step failed or ran out of time.
#
# Each step has its own time limit, and all of them together GPU_CHECK_BUDGET_S (default 540,
# inside the device tool's 600 s per command): a hung step costs its limit, not the lease.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
bundle_dir=$repo/gpu_bundle
bundle=$bundle_dir/infinicts-gpu.tar.xz

pack() {
  set -e
  INFINICTS_CMAKE_ARGS="${INFINICTS_CMAKE_ARGS:-} -DINFINICTS_CUDA=ON" ci/build.sh
  local build=$repo/build staging
  staging=$(mktemp -d)
  trap 'rm -rf "$staging"' RETURN
  mkdir -p "$staging$build/bin" "$staging$build/lib" "$staging$build/host-libs" "$bundle_dir"
  local commands=(infinicts infinicts-suite-rt infinicts-suite-op infinicts-suite-ccl infinicts-cuda-speed
                  reference_cuda_test reference_cuda_op_test reference_cuda_rows_test reference_cuda_ccl_test)
  for name in "${commands[@]}"; do strip --strip-debug -o "$staging$build/bin/$name" "$build/bin/$name"; done
  for lib in "$build"/lib/libinfini*.so; do strip --strip-debug -o "$staging$build/lib/$(basename "$lib")" "$lib"; done
  # ctest's test lists (paths inside are absolute, hence the same path there).
  (cd / && find "${build#/}" -name CTestTestfile.cmake -print0 | xargs -0 cp --parents -t "$staging")
  # Host libraries of our binaries outside the CUDA toolkit and the C/C++ runtime.
  ldd "$build"/lib/libinfini*.so "$build"/bin/reference_cuda_*test | awk '/=>/ {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux|libpthread|libdl|librt)\.so|cuda|/libinfini' |
    while read -r lib; do cp -L "$lib" "$staging$build/host-libs/"; done
  echo "$build" >"$staging/infinicts-build-path"
  tar -C "$staging" -cJf "$bundle" infinicts-build-path "${build#/}"
  echo "gpu_check: wrote $bundle ($(du -h "$bundle" | cut -f1)); carry gpu_bundle and run: ci/gpu_check.sh run"
}

# Directories of the CUDA libraries our libraries load, wherever this machine keeps them
# (the toolkit's folders, or the NVIDIA wheels of the Python environment).
cuda_library_path() {
  local dirs=() name found
  for name in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libnccl.so.2 libcudnn.so.9; do
    ldconfig -p 2>/dev/null | grep -q "$name" && continue
    found=$(find /usr/local/cuda* /usr/lib /opt -name "$name" 2>/dev/null | head -1)
    [ -n "$found" ] && dirs+=("$(dirname "$found")")
  done
  (IFS=:; echo "${dirs[*]}")
}

step() {  # step NAME SECONDS COMMAND...: runs it under a time limit, records the outcome
  local name=$1 seconds=$2 status=0 left=$((deadline - SECONDS - 5))
  shift 2
  [ "$left" -lt "$seconds" ] && seconds=$left
  if [ "$seconds" -le 0 ]; then echo "== gpu_check: $name not run: the budget is spent"; failed+=("$name"); return; fi
  echo "== gpu_check: $name (limit ${seconds}s): $*"
  timeout --kill-after=10 "$seconds" "$@" || status=$?
  echo "== gpu_check: $name ended with exit status $status"
  [ "$status" -eq 0 ] || failed+=("$name")
}

run() {
  local out=${OUT:-$repo/reports/out/gpu} build
  mkdir -p "$out"
  exec > >(tee -a "$out/gpu-check.log") 2>&1
  [ -f "$bundle" ] || { echo "gpu_check: no $bundle (run 'ci/gpu_check.sh pack' first and carry gpu_bundle)"; exit 2; }
  build=$(tar -xJOf "$bundle" infinicts-build-path)
  # Existing folders keep their owners and modes (the archive holds only the build path).
  mkdir -p "$build" && tar -C / --no-overwrite-dir -xJf "$bundle" --exclude=infinicts-build-path || exit 2
  export LD_LIBRARY_PATH="$build/lib:$build/host-libs:$(cuda_library_path)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "gpu_check: build at $build; LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  nvidia-smi -L || echo "gpu_check: nvidia-smi found no GPU"
  local gpu date name steps=("$@")
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')
  date=$(date -u +%Y-%m-%d)
  name="${gpu:-no-gpu}-$date"
  [ ${#steps[@]} -gt 0 ] || steps=(tests suites speed perf)
  failed=()
  deadline=$((SECONDS + ${GPU_CHECK_BUDGET_S:-540}))
  for s in "${steps[@]}"; do
    case $s in
      tests) step tests 120 ctest --test-dir "$build" --output-on-failure -j 4 -R 'reference_cuda|cuda_speed' ;;
      suites) step suites 330 "$build/bin/infinicts" run --backend "$build/lib" --device nvidia --mode conformance,accuracy \
                --timeout 60 --quiet --out "$out/$name.json"
              [ -f "$out/$name.json" ] && "$build/bin/infinicts" report "$out/$name.json" --html "$out/$name.html" ;;
      perf) step perf 180 "$build/bin/infinicts" run --backend "$build/lib" --device nvidia --mode perf --timeout 60 \
              --quiet --out "$out/$name-perf.json"
            [ -f "$out/$name-perf.json" ] && "$build/bin/infinicts" report "$out/$name-perf.json" --html "$out/$name-perf.html" ;;
      speed) step speed 150 bash -c "set -o pipefail; '$build/bin/infinicts-cuda-speed' --report-only | tee '$out/$name-cuda-speed.txt'" ;;
      *) echo "gpu_check: unknown step '$s' (tests, suites, perf, speed)"; exit 2 ;;
    esac
  done
  echo "gpu_check: wrote $(ls "$out" | tr '\n' ' ')"
  if [ ${#failed[@]} -gt 0 ]; then echo "gpu_check: failed: ${failed[*]}"; exit 1; fi
  echo "gpu_check: every step passed"
}

case "${1:-}" in
  pack) pack ;;
  run) shift; run "$@" ;;
  *) echo "usage: ci/gpu_check.sh pack | run [tests|suites|perf|speed ...]" >&2; exit 2 ;;
esac
