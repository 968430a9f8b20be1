#!/usr/bin/env bash
# dry_run.sh SOURCE_DIR BUILD_DIR WORK_DIR: packs BUILD_DIR with ci/gpu_check.sh, then runs the
# check here (no NVIDIA device) against a fake tree laid out like the GPU machine's image
# (README.md, "The GPU check"): CUDA 13 in /usr/local/cuda, cuDNN and NCCL only as the NVIDIA
# wheels of a venv's Python under /opt, no xz. This machine's own libraries stand in, linked
# under those paths. Three runs:
#   1. every step: it must find every library under the image, resolve every step's command,
#      and end at the devices step with "no NVIDIA device" as its only failure;
#   2. every step but devices: each later step runs (and fails, with no GPU) and still
#      everything comes back within 8 files, every step's log in the results archive;
#   3. the libraries step with neither tar nor gzip on PATH: Python's tarfile unpacks;
#   4. the devices step, with nvidia-smi and the backend faked to see a GPU and a warning printed
#      after the backend's device line.
# Its tee writes a second late, so a check that does not wait for its log loses lines.
set -uo pipefail
source_dir=$1 build_dir=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
problems=0
problem() { echo "FAIL: $*"; problems=$((problems + 1)); }
check=$source_dir/ci/gpu_check.sh

if ! GPU_CHECK_BUILD=$build_dir GPU_BUNDLE_DIR=$work/bundle bash "$check" pack --no-build >"$work/pack.log" 2>&1; then
  cat "$work/pack.log"
  echo "FAIL: ci/gpu_check.sh pack --no-build failed"
  exit 1
fi
tail -1 "$work/pack.log"

# The image. This machine's CUDA libraries, wherever the loader finds them for our build.
image=$work/image
library_of() {  # SONAME: its path on this machine
  LD_LIBRARY_PATH="$build_dir/lib" ldd "$build_dir"/lib/libinfini*.so | awk -v n="$1" '$1 == n {print $3; exit}'
}
mkdir -p "$image/usr/local/cuda/lib64" "$image/usr/bin"
for soname in libcudart.so.13 libcublas.so.13 libcublasLt.so.13; do
  path=$(library_of "$soname")
  [ -n "$path" ] || { echo "FAIL: this machine has no $soname for the fake image"; exit 1; }
  ln -s "$path" "$image/usr/local/cuda/lib64/$soname"
done
python=$(readlink -f "$(command -v python3)")
version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
venv=$image/opt/torch/.venv
site=$venv/lib/python$version/site-packages
mkdir -p "$venv/bin" "$site/nvidia/cudnn/lib" "$site/nvidia/nccl/lib" "$site/nvidia/cublas/include"
ln -s "$python" "$venv/bin/python3"
printf 'home = %s\ninclude-system-site-packages = false\nversion = %s\n' "$(dirname "$python")" "$version" >"$venv/pyvenv.cfg"
touch "$site/nvidia/cudnn/__init__.py" "$site/nvidia/nccl/__init__.py"
for soname in libcudnn.so.9 libnccl.so.2; do
  path=$(library_of "$soname")
  [ -n "$path" ] || { echo "FAIL: this machine has no $soname for the fake image"; exit 1; }
  case $soname in libcudnn*) wheel=cudnn ;; *) wheel=nccl ;; esac
  ln -s "$path" "$site/nvidia/$wheel/lib/$soname"
done
# A PATH of this machine's commands less some: `without xz` and `without tar gzip`.
path_without() {  # FOLDER COMMAND...: FOLDER holds links to every command on PATH but those
  local folder=$1 dir file name
  shift
  mkdir -p "$folder"
  for dir in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
    [ -d "$dir" ] || continue
    for file in "$dir"/*; do
      name=$(basename "$file")
      case " $* " in *" $name "*) continue ;; esac
      [ -e "$folder/$name" ] || ln -s "$file" "$folder/$name"
    done
  done
}
path_without "$work/path-no-xz" xz unxz xzcat lzma unlzma tee
path_without "$work/path-no-tar" xz unxz xzcat lzma unlzma tar gzip gunzip zcat tee
# A tee that writes late, as on a loaded or sandboxed machine: it holds what it reads until its
# input ends, then a second more. The check must wait for its log's writer, or the log is not
# complete when it exits.
real_tee=$(command -v tee)
for folder in "$work/path-no-xz" "$work/path-no-tar"; do
  printf '#!/bin/sh\nheld=$(mktemp)\ncat >"$held"\nsleep 1\n%s "$@" <"$held"\nrm -f "$held"\n' "$real_tee" >"$folder/tee"
  chmod +x "$folder/tee"
done

run_check() {  # NAME PATH STEP...: a run of the check, its status in $status
  local name=$1 path=$2
  shift 2
  status=0
  env PATH="$path" OUT="$work/$name/out" GPU_CHECK_ROOT="$work/$name/root" GPU_CHECK_SYSROOT="$image" \
    GPU_BUNDLE_DIR="$work/bundle" TMPDIR="$work/$name" timeout 300 bash "$check" run "$@" >"$work/$name.log" 2>&1 ||
    status=$?
  echo "---- $name: exit $status"
  cat "$work/$name.log"
}
within_eight_files() {  # NAME
  local count
  count=$(find "$work/$1/out" -type f | wc -l)
  [ "$count" -le 8 ] || problem "$1: $count files in \$OUT, the machine brings back 8"
  [ "$(find "$work/$1/out" -mindepth 2 -type f | wc -l)" -eq 0 ] || problem "$1: files in folders below \$OUT"
}
mkdir -p "$work/full" "$work/later" "$work/python"

# 1. Every step, on the image without xz.
run_check full "$work/path-no-xz"
log=$work/full/out/gpu-check.log
[ "$status" -eq 1 ] || problem "full: the check exited $status, not 1"
[ -s "$log" ] || problem "full: no log at $log"
for soname in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libcudnn.so.9 libnccl.so.2; do
  grep -q "^$soname $image/" "$log" || problem "full: $soname was not found under the image"
done
grep -q "^libcudnn.so.9 $site/nvidia/cudnn/lib/libcudnn.so.9$" "$log" || problem "full: cuDNN not found in the venv's wheel"
grep -q "every step's command resolved" "$log" || problem "full: the steps' commands were not all resolved"
grep -q "gpu_check: no NVIDIA device" "$log" || problem "full: the log does not say 'no NVIDIA device'"
[ "$(tail -1 "$log")" = "gpu_check: FAILED: devices" ] ||
  problem "full: the log does not end with the devices step as the only failure: '$(tail -1 "$log")'"
grep -q "every step passed" "$log" && problem "full: the log says every step passed"
within_eight_files full
tar -tzf "$work/full/out/gpu-check-results.tar.gz" | grep -q -- '-devices.log$' || problem "full: no devices log in the results"
tar -tzf "$work/full/out/gpu-check-results.tar.gz" | grep -q '\.json$' && problem "full: reports though no device was there"

# 2. Every step after devices: each runs, and everything still comes back.
run_check later "$work/path-no-xz" libraries tests suites perf speed ccl
log=$work/later/out/gpu-check.log
[ "$status" -eq 1 ] || problem "later: the check exited $status, not 1"
within_eight_files later
results=$(tar -tzf "$work/later/out/gpu-check-results.tar.gz" 2>/dev/null)
for name in libraries tests suites perf speed ccl; do
  echo "$results" | grep -q -- "-$name.log$" || problem "later: no $name log in the results"
done
grep -q -- '-- test reference_cuda.host_logic: exit status' "$log" || problem "later: the host logic test did not run"
grep -q 'not run: the step' "$log" && problem "later: a GPU test was not run"
grep -q 'FAILED: .*commands' "$log" && problem "later: a command was missing"
tail -1 "$log" | grep -q '^gpu_check: FAILED: ' || problem "later: the log does not end with the failures"

# 3. Neither tar nor gzip: Python's tarfile unpacks, and the libraries step passes.
run_check python "$work/path-no-tar" libraries
log=$work/python/out/gpu-check.log
[ "$status" -eq 0 ] || problem "python: the check exited $status, not 0"
grep -q "unpacking with .*tarfile" "$log" || problem "python: the bundle was not unpacked with Python"
within_eight_files python

# 4. The devices step on a machine with a GPU, as far as it can be shown here: nvidia-smi lists
# one, and the backend's info prints its device line and then a library's warning (the bundle's
# infinicts replaced by a script that answers so). The step must read the line, not the last one.
mkdir -p "$work/warning/bundle" "$work/warning/unpacked" "$work/path-gpu"
tar -C "$work/warning/unpacked" -xzf "$work/bundle/infinicts-gpu.tar.gz"
packed_build=$(cat "$work/warning/unpacked/infinicts-build-path")
cat >"$work/warning/unpacked$packed_build/bin/infinicts" <<'FAKE'
#!/bin/sh
echo "devices (infinirtGetDeviceCount):"
echo "* nvidia     1  (INFINI_STATUS_SUCCESS)"
echo "nvidia: 1 device(s), ids 0..0"
echo "W1206 12:00:00.000000 libcudnn: a warning a library prints at exit" >&2
FAKE
chmod +x "$work/warning/unpacked$packed_build/bin/infinicts"
tar -C "$work/warning/unpacked" -czf "$work/warning/bundle/infinicts-gpu.tar.gz" infinicts-build-path "${packed_build#/}"
cp -a "$work/path-no-xz/." "$work/path-gpu/"
cat >"$work/path-gpu/nvidia-smi" <<'FAKE'
#!/bin/sh
case "$*" in
  -L) echo "GPU 0: NVIDIA H200 (UUID: GPU-00000000-0000-0000-0000-000000000000)" ;;
  *) echo "NVIDIA H200, 580.00, 143771 MiB" ;;
esac
FAKE
chmod +x "$work/path-gpu/nvidia-smi"
status=0
env PATH="$work/path-gpu" OUT="$work/warning/out" GPU_CHECK_ROOT="$work/warning/root" GPU_CHECK_SYSROOT="$image" \
  GPU_BUNDLE_DIR="$work/warning/bundle" TMPDIR="$work/warning" timeout 120 bash "$check" run devices \
  >"$work/warning.log" 2>&1 || status=$?
echo "---- warning: exit $status"
cat "$work/warning.log"
[ "$status" -eq 0 ] || problem "warning: the devices step did not read the device line before the warning"
within_eight_files warning

[ "$problems" -eq 0 ] && echo "ok: the dry run found the image's libraries, brought everything back, and failed only for want of an NVIDIA device"
exit $((problems > 0))
