# Shared by run.sh, test.sh and perf scripts: install what is missing, configure and build.
# Sourced, not run.

CCL_PACKAGES=(cmake g++ make openmpi-bin libopenmpi-dev libfftw3-dev libfftw3-mpi-dev
  mpich libmpich-dev  # the second MPI ccl builds and is tested on (preset mpich); Open MPI stays
  # the default mpicxx/mpirun (Debian's alternatives rank it higher)
  libtrilinos-kokkos-dev libgtest-dev googletest libbenchmark-dev gnuplot-nox
  clang libclang-rt-dev  # libFuzzer test; clang only recommends the runtime (libclang_rt.fuzzer)
  clang-format  # the format check (tests/format_check.sh)
  lammps lammps-examples hpcc  # unmodified MPI programs the drop-in (libccl_mpi) is tested under
  libsimgrid-dev  # SMPI (smpirun, smpicxx): the MD app on simulated torus partitions. Debian's
  # "simgrid" is only a name libsimgrid-dev provides: dpkg never reports it installed
  ccache)  # a second build of the same sources (the next CI run, a clean clone) compiles nothing

ccl_root() { cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd; }

# Every build (build/, the presets, the find_package consumer test) compiles through ccache when
# it is there: CMake takes these as the launchers' defaults when it first configures a tree. Paths
# under the clone are hashed relative to it, so a clone elsewhere finds the same entries.
ccl_use_ccache() {
  if command -v ccache > /dev/null; then
    export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
    export CCACHE_BASEDIR; CCACHE_BASEDIR=$(ccl_root)
    export CCACHE_NOHASHDIR=1
  fi
}

# Install the Debian packages that are not installed yet (nothing to do on a second run).
ccl_install_deps() {
  local missing=()
  for p in "${CCL_PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Configure (first time only) and build incrementally into build/.
ccl_build() {
  local root; root=$(ccl_root)
  ccl_use_ccache
  if [ ! -f "$root/build/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release
  fi
  cmake --build "$root/build" -j "$(nproc)"
}

# The MPI tests again with ccl, the drop-in and the tests built against MPICH (the mpich preset,
# build-mpich/): every test that runs ccl or the drop-in on MPI, through MPICH's mpiexec. Arguments
# go to ctest.
ccl_mpich_tests() {
  local root; root=$(ccl_root)
  ccl_use_ccache
  (cd "$root" && cmake --preset mpich > /dev/null &&
    cmake --build --preset mpich -j "$(nproc)" &&
    ctest --preset mpich -j "$(nproc)" "$@")
}

# The unit, simulator and MPI tests under ASan + UBSan: configure and build the sanitize preset
# (build-sanitize/), then run its test preset (options, suppressions and the tests left out are in
# tests/CMakeLists.txt). Arguments go to ctest.
ccl_sanitize_tests() {
  local root; root=$(ccl_root)
  ccl_mpi_env
  ccl_use_ccache
  (cd "$root" && cmake --preset sanitize > /dev/null &&
    cmake --build --preset sanitize -j "$(nproc)" &&
    ctest --preset sanitize -j "$(nproc)" "$@")
}

# For perf/run_*.sh: what a benchmark needs before it runs (packages, the build, MPI's
# environment), and the directory its results go to (created, printed).
ccl_perf_prepare() {
  ccl_install_deps
  ccl_build
  ccl_mpi_env
}
ccl_results_dir() {
  local dir; dir="$(ccl_root)/perf/results"
  mkdir -p "$dir"
  echo "$dir"
}

# Open MPI refuses to run as root unless told; more ranks than cores need --oversubscribe.
ccl_mpi_env() {
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
}

# mpirun's --oversubscribe when np ranks outnumber the cores, else nothing: with it Open MPI binds
# no rank to a core even when each could have one, and a job of 2 ranks is then not what a user
# of `mpirun -np 2` gets (coll/sm's 256 KiB bcast on 2 ranks ran 3-8x slower unbound).
ccl_oversubscribe() {
  if [ "$1" -gt "$(nproc)" ]; then echo --oversubscribe; fi
}

# For the perf scripts' awk programs (prepend it): median(list), the median of the numbers in a
# space-separated list.
CCL_AWK_MEDIAN='
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }'
