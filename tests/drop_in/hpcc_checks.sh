#!/usr/bin/env bash
# The HPC Challenge benchmark (Debian's hpcc: HPL, PTRANS, RandomAccess, FFT, STREAM, DGEMM,
# latency and bandwidth) on a small problem with libccl_mpi preloaded: it must pass its own
# checks (Success=1, residual and error checks), with its collectives run on ccl.
#   hpcc_checks.sh LIB NP MPIEXEC
set -euo pipefail
lib=$1 np=$2 mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# Debian's example input with a 500 x 500 HPL problem in blocks of 40 on a 1 x NP grid.
sed -e 's/^1000 .*Ns$/500          Ns/' -e 's/^80 .*NBs$/40           NBs/' \
    -e 's/^2 .*Ps$/1            Ps/' -e "s/^2 .*Qs\$/$np            Qs/" \
    /usr/share/doc/hpcc/examples/_hpccinf.txt > hpccinf.txt
"$here/run_with_drop_in.sh" "$lib" "MPI_Bcast MPI_Reduce MPI_Allreduce MPI_Alltoall MPI_Barrier" "" \
  "$mpiexec" -np "$np" --oversubscribe hpcc
grep -E "^(Success|Failure|HPL_Tflops|PTRANS_GBs|MPIRandomAccess_GUPs|MPIFFT_Gflops|StarSTREAM_Triad)=" hpccoutf.txt
grep -q "^Success=1" hpccoutf.txt || { echo "hpcc: Success is not 1"; exit 1; }
if grep -E "FAILED|[1-9][0-9]* tests completed and failed|Found [1-9][0-9]* errors" hpccoutf.txt; then
  echo "hpcc: a check failed"
  exit 1
fi
echo "hpcc passed its checks under the drop-in"
