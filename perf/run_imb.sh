#!/usr/bin/env bash
# The Intel MPI Benchmarks (IMB-MPI1, public source, built by hand: no internet here, so it is
# not fetched by this script) with libccl_mpi preloaded, against the MPI libraries' own
# collectives as a user would pick them: Open MPI 4.1's tuned (default), sm, han and adapt, each
# forced in its own job, and MPICH 4.0 (IMB built against it, set IMB_MPICH) where the ranks fit
# the cores: MPICH waits by spinning, so with more ranks than cores its calls take milliseconds
# or IMB times them out (even with MPIR_CVAR_POLLS_BEFORE_YIELD=1). No model file (out of the
# box). At each rank count, ROUNDS rounds (9 unless set) of one job per benchmark and library,
# the libraries in turn for each benchmark (the machine's states last seconds: the jobs of one
# case then see the same ones). A case's time is its median t_avg (IMB: each call between
# barriers, root 0, the mean over ranks), and ccl's ratio is against the best peer per case.
# The paired ratio takes each round's jobs as a pair: against each peer, the median over rounds
# of ccl's time over the peer's in that round; the case's is the highest over the peers. Both
# are printed.
# The null test: coll/sm runs a second job each round (sm_again), timed like the others and never
# a peer; its medians over sm's own show how far two runs of one library differ case by case at
# this many rounds (2 ranks, coll/sm against itself: 20 of 141 cases above 1.1 at 3 rounds, 2 at
# 9). A ratio against the best peer means no more than that.
# CCL_BENCH_RANKS runs those rank counts again and keeps the jobs of the others, so a long run can
# be made a few rank counts at a time; the summary covers every rank count with jobs.
# Writes perf/results/imb.csv and imb.png (ccl / best peer, a panel per rank count) and prints
# two summary lines per rank count (one per ratio), one of each library against itself and one
# of the null test.
#   IMB=/path/to/IMB-MPI1 IMB_MPICH=/path/to/IMB-MPI1.mpich CCL_BENCH_RANKS="2 4" ROUNDS=2 \
#     perf/run_imb.sh
# Build IMB by hand, e.g. from github.com/intel/mpi-benchmarks, once per MPI:
#   make IMB-MPI1 CC=mpicc.openmpi CXX="mpicxx.openmpi -DOMPI_SKIP_MPICXX -Wno-error"
#   make IMB-MPI1 CC=mpicc.mpich CXX="mpicxx.mpich -Wno-error"
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
imb=${IMB:?set IMB to an IMB-MPI1 built against Open MPI}
ccl_perf_prepare
out=$(ccl_results_dir)
jobs="$out/imb_jobs"
lib="$root/build/comm/drop_in/libccl_mpi.so"
benches="Bcast,Reduce,Allreduce,Scatter,Gather,Allgather,Alltoall,Barrier"
imb_mpich=${IMB_MPICH:-}
configs=(ccl tuned sm han adapt mpich)
runs=("${configs[@]}" sm_again)  # the null test's second coll/sm job
# SUMMARY_ONLY=1: summarise the last run's jobs again, without running any.
if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
  mkdir -p "$jobs"
  unset CCL_MODEL
  for np in ${CCL_BENCH_RANKS:-2 3 4 5 7 8}; do
    rm -f "$jobs/np${np}_"*.txt
    for round in $(seq 1 "${ROUNDS:-9}"); do
      # One benchmark at a time, every library in turn (first another one each round): a state
      # of the machine lasts seconds, so the libraries' jobs of one case see the same states.
      shift_by=$(( (round - 1) % ${#runs[@]} ))
      for bench in ${benches//,/ }; do
        for config in "${runs[@]:shift_by}" "${runs[@]:0:shift_by}"; do
          imb_args=(-npmin "$np" -msglog 3:22 -time 2 -iter 1000 -zero_size off "$bench")
          job="$jobs/np${np}_${config}_$round.txt"
          extra=()
          case $config in
            ccl) extra=(-x LD_PRELOAD="$lib") ;;
            tuned) ;;
            mpich)
              if [ -n "$imb_mpich" ] && [ "$np" -le "$(nproc)" ]; then
                mpirun.mpich -np "$np" "$imb_mpich" "${imb_args[@]}" >> "$job"
              fi
              continue ;;
            sm_again) extra=(--mca coll_sm_priority 100) ;;
            *) extra=(--mca "coll_${config}_priority" 100) ;;
          esac
          mpirun -np "$np" $(ccl_oversubscribe "$np") "${extra[@]}" "$imb" "${imb_args[@]}" \
            >> "$job"
        done
      done
    done
  done
fi

# IMB's tables: "# Benchmarking NAME", then rows "bytes reps t_min t_max t_avg" (Barrier: no
# bytes). One row per job and case: config, np, bench, bytes, t_avg.
for f in "$jobs"/*.txt; do
  base=$(basename "$f" .txt)
  np=${base%%_*}; np=${np#np}
  config=${base#*_}; config=${config%_*}
  round=${base##*_}
  awk -v np="$np" -v config="$config" -v round="$round" '
    /^# Benchmarking/ { bench = $3; next }
    /^#/ || NF == 0 { next }
    bench != "" && $1 ~ /^[0-9]+$/ {
      if (bench == "Barrier" && NF == 4) print config "," np "," bench ",0," $4 "," round
      else if (NF >= 5) print config "," np "," bench "," $1 "," $5 "," round
    }' "$f"
done > "$jobs/rows.csv"

result="$out/imb.csv"
ratio_column=$((${#configs[@]} + 6))  # benchmark, ranks, bytes, a time per config, best_peer, best_us
paired_column=$((ratio_column + 2))   # then paired_peer
awk -F, -v configs="${configs[*]}" "$CCL_AWK_MEDIAN"'
  {
    key = $3 "," $2 "," $4
    if (!(key in seen)) { seen[key] = 1; order[++cases] = key }
    t[key, $1] = t[key, $1] " " $5
    at[key, $1, $6] = $5; rounds[$6] = 1
  }
  END {
    n = split(configs, names, " ")
    printf "benchmark,ranks,bytes,ccl_us"
    for (i = 2; i <= n; ++i) printf ",%s_us", names[i]
    print ",best_peer,best_us,ratio,paired_peer,paired_ratio"
    for (c = 1; c <= cases; ++c) {
      key = order[c]
      if (t[key, "ccl"] == "") continue
      mine = median(t[key, "ccl"]); best = ""; who = ""
      printf "%s,%.3f", key, mine
      for (i = 2; i <= n; ++i) {
        m = t[key, names[i]] == "" ? "" : median(t[key, names[i]])
        printf ",%s", m
        if (m != "" && (best == "" || m + 0 < best + 0)) { best = m; who = names[i] }
      }
      ratio = best > 0 ? mine / best : 0
      # Paired: against each peer, the median over rounds of ccl / peer in the same round, and
      # the peer against which that is highest.
      paired = 0; pwho = ""
      for (i = 2; i <= n; ++i) {
        r = ""
        for (round in rounds) {
          if ((key, "ccl", round) in at && (key, names[i], round) in at && at[key, names[i], round] > 0)
            r = r " " at[key, "ccl", round] / at[key, names[i], round]
        }
        if (r == "") continue
        m = median(r)
        if (m > paired) { paired = m; pwho = names[i] }
      }
      printf ",%s,%.3f,%.4f,%s,%.4f\n", who, best, ratio, pwho, paired
    }
  }' "$jobs/rows.csv" > "$result"

for np in $(tail -n +2 "$result" | cut -d, -f2 | sort -n | uniq); do
  awk -F, -v np="$np" -v rc="$ratio_column" -v pc="$paired_column" "$CCL_AWK_MEDIAN"'
    NR > 1 && $2 == np {
      ++n; r = r " " $rc; if ($rc > 1.1) above++; if ($rc > 1.5) above15++
      if ($rc > w) { w = $rc; at = $1 " " $3 " B" }
      p = p " " $pc; if ($pc > 1.1) pabove++; if ($pc > 1.5) pabove15++
      if ($pc > pw) { pw = $pc; pat = $1 " " $3 " B" }
    }
    END {
      printf "run_imb: %d ranks, %d cases, libccl_mpi / best peer (IMB t_avg): median %.2f, worst %.2f (%s), above 1.1 in %d, above 1.5 in %d\n", np, n, median(r), w, at, above, above15
      printf "run_imb: %d ranks, paired by round (median of ccl / peer, the worst peer): median %.2f, worst %.2f (%s), above 1.1 in %d, above 1.5 in %d\n", np, median(p), pw, pat, pabove, pabove15
    }' "$result"
done

# How far one library's own jobs disagree, per rank count: the cases whose slowest job took more
# than 1.1x and 1.5x its fastest. A whole job runs fast or slow here (the host's placement of the
# cores, other tenants), by up to 3x at 8 ranks, so a per-case ratio between two libraries' medians
# cannot be trusted to finer than that spread.
awk -F, -v configs="${configs[*]}" '
  { key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; ran[$2 SUBSEP $1] = 1; nps[$2] = 1
    if (!(key in lo) || $5 < lo[key]) lo[key] = $5
    if ($5 > hi[key]) hi[key] = $5 }
  END {
    for (key in lo) {
      split(key, k, SUBSEP)
      if (lo[key] > 0 && hi[key] / lo[key] > 1.1) ++a11[k[2] SUBSEP k[1]]
      if (lo[key] > 0 && hi[key] / lo[key] > 1.5) ++a15[k[2] SUBSEP k[1]]
    }
    n = split(configs, names, " ")
    for (np in nps) {
      line = ""
      for (i = 1; i <= n; ++i) {
        at = np SUBSEP names[i]
        if (at in ran) line = line sprintf(" %s %d/%d", names[i], a11[at], a15[at])
      }
      printf "run_imb: %d ranks, each library against itself (cases whose slowest job took", np
      printf " over 1.1x/1.5x its fastest):%s\n", line
    }
  }' "$jobs/rows.csv" | sort -t' ' -k2n

# The null test, per rank count: coll/sm's second job against its first, median over rounds each.
awk -F, "$CCL_AWK_MEDIAN"'
  $1 == "sm" || $1 == "sm_again" { t[$2 SUBSEP $3 SUBSEP $4 SUBSEP $1] = t[$2 SUBSEP $3 SUBSEP $4 SUBSEP $1] " " $5 }
  END {
    for (key in t) {
      split(key, k, SUBSEP)
      if (k[4] != "sm" || !((k[1] SUBSEP k[2] SUBSEP k[3] SUBSEP "sm_again") in t)) continue
      first = median(t[key]); again = median(t[k[1] SUBSEP k[2] SUBSEP k[3] SUBSEP "sm_again"])
      if (first <= 0) continue
      ++n[k[1]]; r = again / first
      if (r > 1.1) ++a11[k[1]]; if (r > 1.5) ++a15[k[1]]
    }
    for (np in n)
      printf "run_imb: %d ranks, null test (coll/sm, second job / first): above 1.1 in %d, above 1.5 in %d, of %d cases\n", np, a11[np], a15[np], n[np]
  }' "$jobs/rows.csv" | sort -t' ' -k2n

{
  echo "set terminal pngcairo size 1500,900 font ',9'"
  echo "set output '$out/imb.png'"
  echo "set termoption noenhanced; set datafile separator ','; set logscale x 2; set logscale y 2; set grid"
  echo "set xtics ('8' 8, '512' 512, '32K' 32768, '1M' 1048576, '4M' 4194304); set xrange [5:6000000]"
  echo "set xlabel 'bytes'; set ylabel 'libccl_mpi / best peer (IMB t_avg)'"
  nps=$(tail -n +2 "$result" | cut -d, -f2 | sort -n | uniq)
  echo "set multiplot layout 2,3"
  for np in $nps; do
    echo "set title '$np ranks'"
    printf "plot 1 notitle lc rgb 'black'"
    for b in ${benches//,/ }; do
      [ "$b" = Barrier ] && continue
      printf ", '%s' using (\$2 == %s && strcol(1) eq '%s' ? \$3 : 1/0):%d with linespoints title '%s'" "$result" "$np" "$b" "$ratio_column" "$b"
    done
    echo
  done
  echo "unset multiplot"
} | gnuplot
echo "run_imb: wrote $result and $out/imb.png"
