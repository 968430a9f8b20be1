#!/usr/bin/env bash
# The prepared GPU check: build and pack here (no GPU needed), run on a machine with an NVIDIA
# GPU in one command of at most 400 s, bring the reports and every log line back.
#
#   ci/gpu_check.sh pack [--no-build]  here: build (ci/build.sh, unless --no-build), then pack build/
#                                      ($GPU_CHECK_BUILD, where set) into
#                                      $GPU_BUNDLE_DIR/infinicts-gpu.tar.xz (default gpu_bundle/): the
#                                      stripped commands, suites, GPU tests and libraries at their build
#                                      paths, plus the host libraries outside CUDA that the GPU machine
#                                      may lack (OpenBLAS and its Fortran runtime). Carry gpu_bundle there.
#   ci/gpu_check.sh run [STEP...]      there: unpack to the same absolute path (under $GPU_CHECK_ROOT
#                                      when set: the dry run), then the steps, all by default, in this
#                                      order:
#       libraries  one search for the CUDA libraries the build links (cudart, cuBLAS, cuDNN, NCCL),
#                  then ldd of our libraries and the versions found; a missing one ends the check
#       devices    nvidia-smi and the backend must both see an NVIDIA device, else the check ends
#       tests      ctest's GPU tests (the fatbin check is CI's: it needs binutils)
#       suites     the runtime and operator suites, conformance and accuracy, on nvidia
#       perf       a short perf run (runtime and operators)
#       speed      infinicts-cuda-speed against cuBLAS and the copy engine
#       ccl        the collective suite, last (a hung NCCL costs only its own limit)
# Each step writes its output straight into $OUT (else reports/out/gpu) as NN-STEP.log, so a step
# killed at its limit, or the whole command killed, still leaves every line it printed. The
# check fails (exit 1) when a step fails or runs out of time, and when a report holds no result
# other than skip and unsupported: a machine where nothing ran never passes.
# GPU_CHECK_BUDGET_S (default 400) bounds all the steps together.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
bundle_dir=${GPU_BUNDLE_DIR:-$repo/gpu_bundle}
bundle=$bundle_dir/infinicts-gpu.tar.xz
# The libraries the CUDA build links, by soname: without one our libraries do not load.
cuda_libraries=(libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcudnn.so.9 libnccl.so.2)

pack() {
  set -e
  [ "${1:-}" = "--no-build" ] || INFINICTS_CMAKE_ARGS="${INFINICTS_CMAKE_ARGS:-} -DINFINICTS_CUDA=ON" ci/build.sh
  local build=${GPU_CHECK_BUILD:-$repo/build} staging
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
    grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux|libpthread|libdl|librt)\.so|cuda|cudnn|nccl|/libinfini' |
    while read -r lib; do cp -L "$lib" "$staging$build/host-libs/"; done
  echo "$build" >"$staging/infinicts-build-path"
  tar -C "$staging" -cf - infinicts-build-path "${build#/}" | xz -T0 >"$bundle"
  echo "gpu_check: wrote $bundle ($(du -h "$bundle" | cut -f1)); carry gpu_bundle and run: ci/gpu_check.sh run"
}

# The folders holding the CUDA libraries, from one search of the places a machine keeps them:
# the loader's cache, the toolkit, and the NVIDIA wheels of its Python (cuDNN and NCCL often
# come only that way). Prints "name path" for each library found.
find_cuda_libraries() {
  local roots=(/usr/local/cuda /usr/local/cuda-13 /usr/lib/x86_64-linux-gnu /usr/local/lib /opt /usr/lib/python3)
  local site
  for site in /usr/local/lib/python3*/dist-packages /usr/local/lib/python3*/site-packages \
              /usr/lib/python3*/dist-packages /opt/conda/lib/python3*/site-packages; do
    [ -d "$site/nvidia" ] && roots+=("$site/nvidia")
  done
  local existing=() root
  for root in "${roots[@]}"; do [ -d "$root" ] && existing+=("$root"); done
  local name_args=() name
  for name in "${cuda_libraries[@]}"; do name_args+=(-name "$name" -o); done
  unset 'name_args[${#name_args[@]}-1]'
  # The first place each name is found (the toolkit before the Python wheels).
  find -L "${existing[@]}" -maxdepth 7 \( "${name_args[@]}" \) 2>/dev/null |
    while read -r path; do echo "$(basename "$path") $path"; done | awk '!seen[$1]++'
}

# step NAME SECONDS COMMAND...: runs it under its limit (cut to what the budget has left), its
# output going straight to $out/NN-NAME.log and then to the main log; records the outcome.
step() {
  local name=$1 seconds=$2 status=0 left=$((deadline - SECONDS - 5))
  shift 2
  step_count=$((step_count + 1))
  local log
  log=$(printf '%s/%02d-%s.log' "$out" "$step_count" "$name")
  [ "$left" -lt "$seconds" ] && seconds=$left
  if [ "$seconds" -le 0 ]; then
    echo "== gpu_check: $name not run: the budget is spent"
    failed+=("$name")
    return 1
  fi
  echo "== gpu_check: $name (limit ${seconds}s, output in $(basename "$log")): $*"
  if declare -F "$1" >/dev/null; then
    "$@" >"$log" 2>&1 || status=$?  # this script's own checks: quick, no limit needed
  else
    timeout --kill-after=5 "$seconds" stdbuf -oL -eL "$@" >"$log" 2>&1 || status=$?
  fi
  cat "$log"
  [ "$status" -eq 124 ] || [ "$status" -eq 137 ] && echo "== gpu_check: $name ran out of its ${seconds}s"
  echo "== gpu_check: $name ended with exit status $status"
  [ "$status" -eq 0 ] || failed+=("$name")
  return "$status"
}

# Whether a report holds a result that ran: anything but skip and unsupported.
report_ran_something() {
  grep -o '"status": *"[a-z]*"' "$1" 2>/dev/null | grep -q -v -E '"(skip|unsupported)"'
}

finish() {
  echo "gpu_check: wrote $(ls "$out" | tr '\n' ' ')"
  if [ ${#failed[@]} -gt 0 ]; then
    echo "gpu_check: FAILED: ${failed[*]}"
    exit 1
  fi
  echo "gpu_check: every step passed on $gpu"
  exit 0
}

libraries_step() {
  local found name path dirs=()
  found=$(find_cuda_libraries)
  echo "$found"
  for name in "${cuda_libraries[@]}"; do
    path=$(echo "$found" | awk -v n="$name" '$1 == n {print $2; exit}')
    if [ -z "$path" ] && ! ldconfig -p 2>/dev/null | grep -q "$name"; then
      echo "gpu_check: this machine has no $name (searched the loader's cache, the CUDA toolkit and the"
      echo "gpu_check: NVIDIA wheels of its Python); our libraries link it, so nothing can run. Carry it in"
      echo "gpu_check: gpu_bundle and add its folder to LD_LIBRARY_PATH, or use a machine that has it."
      return 1
    fi
    [ -n "$path" ] && dirs+=("$(dirname "$path")")
  done
  local unique
  unique=$(printf '%s\n' "${dirs[@]}" | awk 'NF && !seen[$0]++' | paste -sd:)
  echo "$unique" >"$out/cuda-library-path"
  echo "== versions (each name, and the versioned files beside it):"
  for path in $(echo "$found" | awk '{print $2}'); do
    echo "  $(basename "$path"): $(cd "$(dirname "$path")" && ls "$(basename "$path")"* | tr '\n' ' ')"
  done
  LD_LIBRARY_PATH="$build/lib:$build/host-libs${unique:+:$unique}" ldd "$build"/lib/libinfini*.so
  if LD_LIBRARY_PATH="$build/lib:$build/host-libs${unique:+:$unique}" ldd "$build"/lib/libinfini*.so |
       grep -q "not found"; then
    echo "gpu_check: a library above is not found"
    return 1
  fi
}

devices_step() {
  local seen=0
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L && seen=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>/dev/null
  else
    echo "gpu_check: no nvidia-smi on this machine"
  fi
  local info
  info=$("$build/bin/infinicts" info --backend "$build/lib" --device nvidia 2>&1 | tail -1)
  echo "backend: $info"
  if [ "$seen" -eq 0 ] || ! echo "$info" | grep -q -E '^nvidia: [1-9][0-9]* device'; then
    echo "gpu_check: no NVIDIA device: nvidia-smi lists $seen GPU(s); the backend says '$info'"
    return 1
  fi
}

# The suites' step: the run, its HTML, and at least one result that ran.
suite_step() {
  local name=$1 seconds=$2 report=$3
  shift 3
  step "$name" "$seconds" "$build/bin/infinicts" run --backend "$build/lib" --device nvidia --quiet --out "$report" "$@"
  [ -f "$report" ] && "$build/bin/infinicts" report "$report" --html "${report%.json}.html" >/dev/null 2>&1
  if ! report_ran_something "$report"; then
    echo "gpu_check: $(basename "$report") holds no result other than skip and unsupported: nothing ran"
    failed+=("$name (nothing ran)")
  fi
}

run() {
  out=${OUT:-$repo/reports/out/gpu}
  mkdir -p "$out"
  exec > >(tee -a "$out/gpu-check.log") 2>&1
  [ -f "$bundle" ] || { echo "gpu_check: no $bundle (run 'ci/gpu_check.sh pack' first and carry gpu_bundle)"; exit 2; }
  local root=${GPU_CHECK_ROOT:-}
  build=$root$(xz -dc "$bundle" | tar -xOf - infinicts-build-path)
  # Existing folders keep their owners and modes (the archive holds only the build path).
  mkdir -p "$build" "${root:-/}" &&
    xz -dc "$bundle" | tar -C "${root:-/}" --no-overwrite-dir -xf - --exclude=infinicts-build-path || exit 2
  local date steps=("$@")
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')
  gpu=${gpu:-no-gpu}
  date=$(date -u +%Y-%m-%d)
  local name="$gpu-$date"
  [ ${#steps[@]} -gt 0 ] || steps=(libraries devices tests suites perf speed ccl)
  failed=()
  step_count=0
  deadline=$((SECONDS + ${GPU_CHECK_BUDGET_S:-400}))
  echo "gpu_check: build at $build; reports in $out; budget ${GPU_CHECK_BUDGET_S:-400}s"
  export LD_LIBRARY_PATH="$build/lib:$build/host-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  for s in "${steps[@]}"; do
    case $s in
      libraries)
        step libraries 20 libraries_step || finish
        LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$(cat "$out/cuda-library-path")" ;;
      devices) step devices 20 devices_step || finish ;;
      tests) step tests 60 ctest --test-dir "$build" --output-on-failure -j 4 -R 'reference_cuda|cuda_speed' -E 'fatbins' ;;
      suites) suite_step suites 140 "$out/$name.json" --suite rt,op --mode conformance,accuracy --timeout 60 ;;
      perf) suite_step perf 35 "$out/$name-perf.json" --suite rt,op --mode perf --timeout 30 ;;
      speed) step speed 45 "$build/bin/infinicts-cuda-speed" --report-only ;;
      ccl) suite_step ccl 60 "$out/$name-ccl.json" --suite ccl --mode conformance,accuracy --timeout 30 ;;
      *) echo "gpu_check: unknown step '$s' (libraries, devices, tests, suites, perf, speed, ccl)"; exit 2 ;;
    esac
  done
  finish
}

case "${1:-}" in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: ci/gpu_check.sh pack [--no-build] | run [libraries|devices|tests|suites|perf|speed|ccl ...]" >&2; exit 2 ;;
esac
