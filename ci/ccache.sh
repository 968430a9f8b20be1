# Sourced by the build scripts: compile through ccache where it is installed, with paths taken
# relative to the checkout (CCACHE_BASEDIR) and the build folder left out of the hash
# (CCACHE_NOHASHDIR), so that a fresh clone elsewhere hits the objects of an earlier build.
ccache_args=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(pwd)}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
  ccache_args=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
