#!/usr/bin/env bash
# Installs every build and test dependency from Debian packages. Quick when they
# are already there: apt is asked only for what is missing. Chromium renders the
# HTML report in a test (the charts must draw in a real browser); OpenMPI runs the
# collectives with one process per rank under mpirun. oneDNN is the baseline the bench
# measures I8Gemm against. ccache lets a fresh clone reuse the objects of an earlier build
# (ci/build.sh).
set -euo pipefail

packages=(
  cmake g++ make pkg-config git python3
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libopenblas-dev libdnnl-dev
  openmpi-bin libopenmpi-dev
  chromium fonts-dejavu-core
  ccache
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "ci/setup.sh: all dependencies present"
  exit 0
fi

echo "ci/setup.sh: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
