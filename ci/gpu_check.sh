#!/usr/bin/env bash
# The prepared GPU check: build and pack here (no GPU needed), run on a machine with an NVIDIA
# GPU in one command of at most 400 s, bring the reports and every log line back.
#
#   ci/gpu_check.sh pack [--no-build]  here: build (ci/build.sh, unless --no-build), then pack build/
#                                      ($GPU_CHECK_BUILD, where set) into
#                                      $GPU_BUNDLE_DIR/infinicts-gpu.tar.gz (default gpu_bundle/): the
#                                      stripped commands, suites, GPU tests and libraries at their build
#                                      paths, the GPU tests' commands (gpu-tests.txt: ctest is not needed
#                                      there), and the host libraries outside CUDA that the GPU machine
#                                      may lack (OpenBLAS and its Fortran runtime). Carry gpu_bundle there.
#   ci/gpu_check.sh run [STEP...]      there: unpack to the same absolute path (under $GPU_CHECK_ROOT
#                                      when set: the dry run) with tar and gzip, else Python's tarfile;
#                                      then check that every step's command is there, then the steps,
#                                      all by default, in this order, each under its limit (seconds):
#       libraries  20   the CUDA libraries the build links (cudart, cuBLAS, cuDNN, NCCL): in the
#                       toolkit, the loader's folders and the NVIDIA wheels of every Python found
#                       (asked where they live, and looked for in venvs under /opt), else anywhere
#                       under /opt; then ldd of our libraries; a missing one ends the check
#       devices    20   nvidia-smi and the backend must both see an NVIDIA device, else the check ends
#       tests      60   the GPU tests, from gpu-tests.txt (the fatbin check is CI's: it needs binutils)
#       suites    140   the runtime and operator suites, conformance and accuracy, on nvidia
#       perf       60   a perf sample: copies, Gemm and a few memory-bound operators, 10 ms budget
#       speed      45   infinicts-cuda-speed against cuBLAS and the copy engine
#       ccl        50   a collective sample (communicators, one-rank collectives), last: a hung NCCL
#                       costs only its own limit
#                 ---
#                 395   GPU_CHECK_BUDGET_S (default 400) bounds all of them together.
# What comes back: $OUT (else reports/out/gpu) holds two files, gpu-check.log (every line, as it
# is printed) and gpu-check-results.tar.gz (each step's log, the reports and their HTML), written
# on every exit, a failed step and a spent budget included: the machine returns 8 files at most.
# The check fails (exit 1) when a step fails or runs out of time, and when a report holds no
# result other than skip and unsupported: a machine where nothing ran never passes.
# GPU_CHECK_SYSROOT (the dry run only) is the folder the machine's own files are searched under.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
bundle_dir=${GPU_BUNDLE_DIR:-$repo/gpu_bundle}
bundle=$bundle_dir/infinicts-gpu.tar.gz
sysroot=${GPU_CHECK_SYSROOT:-}
# The libraries the CUDA build links, by soname: without one our libraries do not load.
cuda_libraries=(libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcudnn.so.9 libnccl.so.2)
# The run may carry 64 MiB in all, the checkout included.
max_bundle_bytes=$((48 * 1024 * 1024))
# The GPU tests: the ctest names the check runs there (gpu-tests.txt holds their commands).
gpu_tests='^reference_cuda\.(gpu|ccl_gpu|rows_gpu|op_gpu|host_logic)$'

pack() {
  set -e
  [ "${1:-}" = "--no-build" ] || INFINICTS_CMAKE_ARGS="${INFINICTS_CMAKE_ARGS:-} -DINFINICTS_CUDA=ON" ci/build.sh
  local build=${GPU_CHECK_BUILD:-$repo/build} staging
  staging=$(mktemp -d)
  trap 'rm -rf "$staging"' RETURN
  mkdir -p "$staging$build/bin" "$staging$build/lib" "$staging$build/host-libs" "$bundle_dir"
  # The GPU tests' commands, from ctest here: each binary they name is packed below.
  ctest --test-dir "$build" --show-only=json-v1 -R "$gpu_tests" >"$staging/tests.json"
  python3 "$repo/ci/gpu_tests_list.py" "$staging/tests.json" "$build" >"$staging$build/gpu-tests.txt"
  rm "$staging/tests.json"
  local commands=(infinicts infinicts-suite-rt infinicts-suite-op infinicts-suite-ccl infinicts-cuda-speed)
  local named
  for named in $(awk -F'\t' '{split($4, words, " "); print words[1]}' "$staging$build/gpu-tests.txt" | sort -u); do
    case $named in
      @BUILD@/bin/*) commands+=("$(basename "$named")") ;;
      *) echo "gpu_check: a GPU test runs $named, outside the build's bin/: it cannot be packed" >&2; return 1 ;;
    esac
  done
  local name dir
  for name in $(printf '%s\n' "${commands[@]}" | sort -u); do
    strip --strip-debug -o "$staging$build/bin/$name" "$build/bin/$name"
  done
  for dir in $(awk -F'\t' '{print $2}' "$staging$build/gpu-tests.txt" | sort -u); do mkdir -p "$staging${dir/#@BUILD@/$build}"; done
  for lib in "$build"/lib/libinfini*.so; do strip --strip-debug -o "$staging$build/lib/$(basename "$lib")" "$lib"; done
  # Host libraries of our binaries outside the CUDA toolkit and the C/C++ runtime.
  ldd "$build"/lib/libinfini*.so "$staging$build"/bin/reference_cuda_*test | awk '/=>/ {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux|libpthread|libdl|librt)\.so|cuda|cudnn|nccl|/libinfini' |
    while read -r lib; do cp -L "$lib" "$staging$build/host-libs/"; done
  echo "$build" >"$staging/infinicts-build-path"
  tar -C "$staging" -cf - infinicts-build-path "${build#/}" | gzip -6 >"$bundle"
  local bytes
  bytes=$(stat -c %s "$bundle")
  if [ "$bytes" -gt "$max_bundle_bytes" ]; then
    echo "gpu_check: $bundle is $bytes bytes, over the $max_bundle_bytes the run may carry with the checkout" >&2
    return 1
  fi
  echo "gpu_check: wrote $bundle ($(du -h "$bundle" | cut -f1), $(wc -l <"$staging$build/gpu-tests.txt") GPU tests);" \
       "carry gpu_bundle and run: ci/gpu_check.sh run"
}

# The Python of the machine: on PATH, else in a venv or an install under /opt.
find_python() {
  local candidate
  if [ -z "$sysroot" ] && command -v python3 >/dev/null; then command -v python3; return 0; fi
  for candidate in "$sysroot"/opt/*/.venv/bin/python3 "$sysroot"/opt/*/venv/bin/python3 "$sysroot"/opt/*/bin/python3 \
                   "$sysroot"/opt/conda/bin/python3 "$sysroot"/usr/bin/python3; do
    [ -x "$candidate" ] && { echo "$candidate"; return 0; }
  done
  return 1
}

# Where the NVIDIA wheels of `python` live: the folders of its `nvidia` namespace package.
nvidia_wheel_folders() {
  "$1" - <<'PYTHON' 2>/dev/null
import importlib.util
spec = importlib.util.find_spec("nvidia")
for folder in (spec.submodule_search_locations or []) if spec else []:
    print(folder)
PYTHON
}

# The folders holding the CUDA libraries. First the places a machine keeps them, a few folders
# down: the toolkit, the loader's folders, and the NVIDIA wheels (cuDNN and NCCL often come only
# that way) of every Python found; then, for a library still missing, all of /opt, 12 folders
# down (a venv's wheels sit 9 below it), which may take a while on a large /opt. Prints
# "name path" for each library found, the first place first.
find_cuda_libraries() {
  local roots=() root
  for root in /usr/local/cuda /usr/local/cuda-13 /usr/local/cuda-13.0 /usr/lib/x86_64-linux-gnu /usr/local/lib; do
    roots+=("$sysroot$root")
  done
  if [ -n "$python" ]; then  # run() found it
    while read -r root; do roots+=("$root"); done < <(nvidia_wheel_folders "$python")
  fi
  for root in "$sysroot"/opt/*/.venv/lib/python3*/site-packages/nvidia "$sysroot"/opt/*/lib/python3*/site-packages/nvidia \
              "$sysroot"/usr/local/lib/python3*/dist-packages/nvidia "$sysroot"/usr/local/lib/python3*/site-packages/nvidia \
              "$sysroot"/usr/lib/python3/dist-packages/nvidia; do
    roots+=("$root")
  done
  local found
  found=$(search_libraries 3 "${roots[@]}")
  local name missing=()
  for name in "${cuda_libraries[@]}"; do
    echo "$found" | awk -v n="$name" '$1 == n {hit = 1} END {exit !hit}' || missing+=("$name")
  done
  [ ${#missing[@]} -eq 0 ] || found=$(printf '%s\n%s\n' "$found" "$(search_libraries 12 "$sysroot/opt")")
  echo "$found" | awk 'NF && !seen[$1]++'
}

# search_libraries DEPTH ROOT...: "name path" of each CUDA library below the roots that exist.
search_libraries() {
  local depth=$1 existing=() root
  shift
  for root in "$@"; do [ -d "$root" ] && existing+=("$root"); done
  [ ${#existing[@]} -gt 0 ] || return 0
  local name_args=() name
  for name in "${cuda_libraries[@]}"; do name_args+=(-name "$name" -o); done
  unset 'name_args[${#name_args[@]}-1]'
  find -L "${existing[@]}" -maxdepth "$depth" \( "${name_args[@]}" \) 2>/dev/null |
    while read -r path; do echo "$(basename "$path") $path"; done
}

# step NAME SECONDS COMMAND...: runs it under its limit (cut to what the budget has left), its
# output going straight to $work/NN-NAME.log and then to the main log; records the outcome.
step() {
  local name=$1 seconds=$2 status=0 left=$((deadline - SECONDS - 5))
  shift 2
  step_count=$((step_count + 1))
  local log
  log=$(printf '%s/%02d-%s.log' "$work" "$step_count" "$name")
  [ "$left" -lt "$seconds" ] && seconds=$left
  if [ "$seconds" -le 0 ]; then
    echo "== gpu_check: $name not run: the budget is spent"
    failed+=("$name")
    return 1
  fi
  echo "== gpu_check: $name (limit ${seconds}s, output in $(basename "$log")): $*"
  if declare -F "$1" >/dev/null; then
    step_limit=$seconds "$@" >"$log" 2>&1 || status=$?
  else
    timeout --kill-after=5 "$seconds" stdbuf -oL -eL "$@" >"$log" 2>&1 || status=$?
  fi
  cat "$log"
  { [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; } && echo "== gpu_check: $name ran out of its ${seconds}s"
  echo "== gpu_check: $name ended with exit status $status"
  [ "$status" -eq 0 ] || failed+=("$name")
  return "$status"
}

# Whether a report holds a result that ran: anything but skip and unsupported.
report_ran_something() {
  grep -o '"status": *"[a-z]*"' "$1" 2>/dev/null | grep -q -v -E '"(skip|unsupported)"'
}

# Packs every step's log and report into $OUT, beside the main log; then waits for the log's
# writer, so that the last lines reach the file before the process ends.
bring_back() {
  [ -n "${work:-}" ] && [ -d "$work" ] || return 0
  local results=$out/gpu-check-results.tar.gz
  echo "gpu_check: $out holds gpu-check.log and $(basename "$results"): $(cd "$work" && ls | tr '\n' ' ')"
  if ! tar -C "$work" -czf "$results" . 2>/dev/null; then
    "$python" -c 'import sys, tarfile; t = tarfile.open(sys.argv[1], "w:gz"); t.add(sys.argv[2], "."); t.close()' \
      "$results" "$work" || echo "gpu_check: could not pack $work into $results"
  fi
  rm -rf "$work"
  work=""
}

end_log() {
  exec 1>&3 2>&4 3>&- 4>&-
  [ -n "${log_writer:-}" ] && wait "$log_writer" 2>/dev/null
}

finish() {
  bring_back
  local status=0
  if [ ${#failed[@]} -gt 0 ]; then
    echo "gpu_check: FAILED: ${failed[*]}"
    status=1
  else
    echo "gpu_check: every step passed on $gpu"
  fi
  end_log
  trap - EXIT
  exit "$status"
}

libraries_step() {
  local found name path dirs=()
  found=$(find_cuda_libraries)
  echo "$found"
  for name in "${cuda_libraries[@]}"; do
    path=$(echo "$found" | awk -v n="$name" '$1 == n {print $2; exit}')
    if [ -z "$path" ] && { [ -n "$sysroot" ] || ! ldconfig -p 2>/dev/null | grep -q "$name"; }; then
      echo "gpu_check: this machine has no $name (searched the loader's folders, the CUDA toolkit and the"
      echo "gpu_check: NVIDIA wheels of its Python); our libraries link it, so nothing can run. Carry it in"
      echo "gpu_check: gpu_bundle and add its folder to LD_LIBRARY_PATH, or use a machine that has it."
      return 1
    fi
    [ -n "$path" ] && dirs+=("$(dirname "$path")")
  done
  local unique
  unique=$(printf '%s\n' "${dirs[@]}" | awk 'NF && !seen[$0]++' | paste -sd:)
  echo "$unique" >"$work/cuda-library-path"
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
  local info device_line
  info=$("$build/bin/infinicts" info --backend "$build/lib" --device nvidia 2>&1)
  echo "$info" | grep -v '^  infini' | sed 's/^/backend: /'  # all but the list of exported functions
  # The device line by its pattern: a library may print a warning after it.
  device_line=$(echo "$info" | grep -E '^nvidia: [0-9]+ device' | head -1)
  if [ "$seen" -eq 0 ] || ! echo "$device_line" | grep -q -E '^nvidia: [1-9][0-9]* device'; then
    echo "gpu_check: no NVIDIA device: nvidia-smi lists $seen GPU(s); the backend says '${device_line:-$(echo "$info" | tail -1)}'"
    return 1
  fi
}

# The GPU tests of gpu-tests.txt, one after another, each under its ctest limit cut to what the
# step has left.
tests_step() {
  local name directory environment command limit status failures=0 started=$SECONDS
  while IFS=$'\t' read -r name directory environment command limit; do
    local left=$((step_limit - (SECONDS - started) - 2))
    [ "$left" -lt "$limit" ] && limit=$left
    if [ "$limit" -le 0 ]; then echo "gpu_check: test $name not run: the step's time is spent"; failures=$((failures + 1)); continue; fi
    [ "$environment" = "-" ] && environment=""
    echo "-- test $name (limit ${limit}s): $command"
    status=0
    (cd "$directory" && eval "env $environment timeout --kill-after=5 $limit $command") || status=$?
    echo "-- test $name: exit status $status"
    [ "$status" -eq 0 ] || failures=$((failures + 1))
  done < <(sed "s|@BUILD@|$build|g" "$build/gpu-tests.txt")
  [ "$failures" -eq 0 ]
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

# The build path the bundle holds, and the bundle unpacked under `root`: tar and gzip where the
# machine has them, else Python's tarfile.
unpack() {
  local root=$1
  if command -v tar >/dev/null && command -v gzip >/dev/null; then
    build=$root$(gzip -dc "$bundle" | tar -xOf - infinicts-build-path) || return 1
    mkdir -p "$build" "${root:-/}" || return 1
    # Existing folders keep their owners and modes (the archive holds only the build path).
    gzip -dc "$bundle" | tar -C "${root:-/}" --no-overwrite-dir -xf - --exclude=infinicts-build-path
  elif [ -n "$python" ]; then
    echo "gpu_check: no tar or gzip here: unpacking with $python's tarfile"
    build=$root$("$python" - "$bundle" "${root:-/}" <<'PYTHON'
import os, sys, tarfile
bundle, root = sys.argv[1], sys.argv[2]
with tarfile.open(bundle, "r:gz") as archive:
    print(archive.extractfile("infinicts-build-path").read().decode().strip())
    members = [m for m in archive.getmembers() if m.name != "infinicts-build-path" and not (m.isdir() and os.path.isdir(os.path.join(root, m.name)))]
    extra = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}
    archive.extractall(root, members=members, **extra)
PYTHON
)
  else
    echo "gpu_check: neither tar and gzip nor a Python here: the bundle cannot be unpacked"
    return 1
  fi
}

# Every step's command, and every binary the GPU tests name, is in the unpacked bundle.
check_commands() {
  local missing=0 path
  for path in "$build"/bin/{infinicts,infinicts-suite-rt,infinicts-suite-op,infinicts-suite-ccl,infinicts-cuda-speed} \
              $(sed "s|@BUILD@|$build|g" "$build/gpu-tests.txt" | awk -F'\t' '{split($4, words, " "); print words[1]}' | sort -u); do
    if [ ! -x "$path" ]; then echo "gpu_check: $path is not in the bundle"; missing=$((missing + 1)); fi
  done
  [ "$missing" -eq 0 ] && echo "gpu_check: every step's command resolved, every binary the GPU tests name is in the bundle"
  [ "$missing" -eq 0 ]
}

run() {
  out=${OUT:-$repo/reports/out/gpu}
  mkdir -p "$out" || exit 2
  work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-check.XXXXXX") || exit 2
  python=$(find_python) || python=""
  exec 3>&1 4>&2
  exec > >(tee -a "$out/gpu-check.log") 2>&1
  log_writer=$!
  failed=()
  gpu=no-gpu
  trap 'failed+=("interrupted"); finish' INT TERM
  trap 'bring_back; end_log' EXIT
  [ -f "$bundle" ] || { echo "gpu_check: no $bundle (run 'ci/gpu_check.sh pack' first and carry gpu_bundle)"; exit 2; }
  local root=${GPU_CHECK_ROOT:-}
  unpack "$root" || { echo "gpu_check: could not unpack $bundle"; exit 2; }
  local date steps=("$@")
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-')
  gpu=${gpu:-no-gpu}
  date=$(date -u +%Y-%m-%d)
  local name="$gpu-$date"
  [ ${#steps[@]} -gt 0 ] || steps=(libraries devices tests suites perf speed ccl)
  step_count=0
  deadline=$((SECONDS + ${GPU_CHECK_BUDGET_S:-400}))
  echo "gpu_check: build at $build; reports in $out; budget ${GPU_CHECK_BUDGET_S:-400}s"
  check_commands || failed+=("commands")
  export LD_LIBRARY_PATH="$build/lib:$build/host-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local perf_sample='rt.memory.perf/memcpy_bandwidth/*,op.gemm.perf/*,op.add.perf/*,op.rms_norm.perf/*,op.softmax.perf/*'
  local ccl_sample='ccl.comm.*,ccl.*/sum/f32/*/ranks_1/*,ccl.*/sum/bf16/*/ranks_1/*,ccl.broadcast.*/f32/*/ranks_1/*,ccl.all_gather*/ranks_1/*'
  for s in "${steps[@]}"; do
    case $s in
      libraries)
        step libraries 20 libraries_step || finish
        LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$(cat "$work/cuda-library-path")" ;;
      devices) step devices 20 devices_step || finish ;;
      tests) step tests 60 tests_step ;;
      suites) suite_step suites 140 "$work/$name.json" --suite rt,op --mode conformance,accuracy --timeout 60 ;;
      perf) suite_step perf 60 "$work/$name-perf.json" --suite rt,op --mode perf --filter "$perf_sample" \
              --perf-budget-ms 10 --timeout 30 ;;
      speed) step speed 45 "$build/bin/infinicts-cuda-speed" --report-only ;;
      ccl) suite_step ccl 50 "$work/$name-ccl.json" --suite ccl --mode conformance,accuracy --filter "$ccl_sample" \
             --timeout 30 ;;
      *) echo "gpu_check: unknown step '$s' (libraries, devices, tests, suites, perf, speed, ccl)"; failed+=("$s"); finish ;;
    esac
  done
  finish
}

case "${1:-}" in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) echo "usage: ci/gpu_check.sh pack [--no-build] | run [libraries|devices|tests|suites|perf|speed|ccl ...]" >&2; exit 2 ;;
esac
