#!/usr/bin/env bash
# ccl against every peer a user could pick, as users time it (per call, IMB's method), with no
# model file: at each rank count, ccl-bench-collectives runs once per peer in its own job, the
# jobs alternating over ROUNDS rounds:
#   tuned, sm, han, adapt  Open MPI 4.1's coll components, each forced (--mca coll_<name>_priority
#                          100; tuned is the default), ccl built against Open MPI;
#   mpich                  MPICH 4.0 (build-mpich/, the mpich preset), ccl built against MPICH;
#                          only where ranks do not outnumber cores (MPICH_OVERSUBSCRIBED=1: all).
# Every job times ccl too, so ccl's time per case is the median over the Open MPI jobs (and, as
# ccl_mpich, over the MPICH jobs). The best peer per case is the fastest peer's median.
# Writes perf/results/peers.csv, peers.png (ccl / best peer, a panel per rank count) and
# prints one summary line per rank count.
#   CCL_BENCH_RANKS="2 4" ROUNDS=2 perf/run_peers.sh [extra ccl-bench-collectives options]
# (CCL_BENCH_RANKS runs those rank counts again and keeps the jobs of the others.)
# (SUMMARY_ONLY=1 summarises the last run's jobs again.)
set -euo pipefail
source "$(dirname "$0")/../scripts/common.sh"
root=$(ccl_root)
ccl_perf_prepare
(cd "$root" && cmake --preset mpich > /dev/null && cmake --build --preset mpich -j "$(nproc)" \
  --target ccl-bench-collectives > /dev/null)
out=$(ccl_results_dir)
jobs="$out/peers_jobs"
peers=(tuned sm han adapt mpich)
# SUMMARY_ONLY=1: summarise the jobs of the last run again, without running any.
if [ "${SUMMARY_ONLY:-0}" != 1 ]; then
  mkdir -p "$jobs"
  unset CCL_MODEL  # out of the box: whatever ccl chooses without a model file
  for np in ${CCL_BENCH_RANKS:-2 3 4 5 7 8}; do
    rm -f "$jobs/np${np}_"*  # the other rank counts' jobs stay, for the summary
    for round in $(seq 1 "${ROUNDS:-2}"); do
      for peer in "${peers[@]}"; do
        # MPICH's ch4 spins in every waiting rank: with more ranks than cores one job ran past ten
        # minutes at 3 ranks on 2 cores (ccl's and Open MPI's take seconds), so there it is left
        # out unless MPICH_OVERSUBSCRIBED=1.
        if [ "$peer" = mpich ] && [ "$np" -gt "$(nproc)" ] &&
          [ "${MPICH_OVERSUBSCRIBED:-0}" != 1 ]; then
          continue
        fi
        csv="$jobs/np${np}_${peer}_$round.csv"
        case $peer in
          mpich)
            mpiexec.mpich -n "$np" "$root/build-mpich/perf/ccl-bench-collectives" --peer mpich \
              --sweeps 1 --csv "$csv" "$@" ;;
          *)
            mca=()
            [ "$peer" = tuned ] || mca=(--mca "coll_${peer}_priority" 100)
            mpirun -np "$np" $(ccl_oversubscribe "$np") "${mca[@]}" "$root/build/perf/ccl-bench-collectives" \
              --peer "$peer" --sweeps 1 --csv "$csv" "$@" ;;
        esac > "$jobs/np${np}_${peer}_$round.log"
      done
    done
  done
fi

# One row per case: medians over the jobs (column 5 ccl_us, 6 mpi_us, 19 peer). The quoted
# algorithm column may hold commas (intercom:mesh=2,plan=RG): they become semicolons first.
result="$out/peers.csv"
sed -E ':a; s/^([^"]*"[^",]*),([^"]*")/\1;\2/; ta' "$jobs"/np*_*.csv | awk -F, -v peers="${peers[*]}" "$CCL_AWK_MEDIAN"'
  $1 == "collective" { next }
  {
    key = $1 "," $3 "," $4
    if (!(key in seen)) { seen[key] = 1; order[++cases] = key }
    if ($19 == "mpich") ccl_mpich[key] = ccl_mpich[key] " " $5; else ccl[key] = ccl[key] " " $5
    peer_time[key, $19] = peer_time[key, $19] " " $6
    paired[key, $19] = paired[key, $19] " " $7
  }
  END {
    np = split(peers, names, " ")
    printf "collective,ranks,bytes,ccl_us,ccl_mpich_us"
    for (i = 1; i <= np; ++i) printf ",%s_us", names[i]
    print ",best_peer,best_us,ratio_best,ratio_mpich,ratio_paired"
    for (c = 1; c <= cases; ++c) {
      key = order[c]
      mine = median(ccl[key]); theirs = key in ccl_mpich ? median(ccl_mpich[key]) : 0
      best = ""; best_us = 0; row = ""; worst_paired = 0
      for (i = 1; i <= np; ++i) {
        t = (key SUBSEP names[i]) in peer_time ? median(peer_time[key, names[i]]) : ""
        row = row "," t
        if (t != "" && (best == "" || t + 0 < best_us)) { best = names[i]; best_us = t + 0 }
        if (t != "" && median(paired[key, names[i]]) > worst_paired) {
          worst_paired = median(paired[key, names[i]])
        }
      }
      # No MPICH job at this rank count: its columns stay empty.
      mpich_us = (key SUBSEP "mpich") in peer_time ? median(peer_time[key, "mpich"]) : 0
      mine_mpich = theirs > 0 ? sprintf("%.3f", theirs) : ""
      ratio_mpich = mpich_us > 0 ? sprintf("%.4f", theirs / mpich_us) : ""
      printf "%s,%.3f,%s%s,%s,%.3f,%.4f,%s,%.4f\n", key, mine, mine_mpich, row, best, best_us,
             mine / best_us, ratio_mpich, worst_paired
    }
  }' > "$result"

# The summary per rank count, and the plot (plot_collectives.sh reads columns 1, 3-7). Two
# estimates of ccl / best peer: across jobs (ccl's median over the jobs against the fastest peer's
# median over its own), and paired (in each job ccl against that job's peer, the median per peer,
# the worst peer): a job's machine state moves every time in it alike, by up to 2x between jobs
# here, so the second cancels it where the first compares a slow job with a fast one. Every rank
# count with jobs is summarised, whichever CCL_BENCH_RANKS ran this time.
for np in 2 3 4 5 7 8; do
  awk -F, -v np="$np" "$CCL_AWK_MEDIAN"'
    NR > 1 && $2 == np {
      r = $(NF - 2); p = $NF
      ++n; ratios = ratios " " r; pairs = pairs " " p; if ($(NF - 1) != "") mpich = mpich " " $(NF - 1)
      if (r + 0 > worst) { worst = r + 0; at = $1 " " $3 " B" }
      if (p + 0 > worst_p) { worst_p = p + 0; at_p = $1 " " $3 " B" }
      if (r > 1.1) ++above; if (p > 1.1) ++above_p; if (r < 1) ++faster
      if (r > 1.5) ++above15; if (p > 1.5) ++above15_p
    }
    END {
      if (n == 0) exit  # no jobs at this rank count
      with = mpich == "" ? "" : ", MPICH"
      printf "run_peers: %d ranks, %d cases, ccl / best of tuned, sm, han, adapt%s (per call, no model file): median %.2f, worst %.2f (%s), above 1.1 in %d, above 1.5 in %d, faster in %d; paired in each job: median %.2f, worst %.2f (%s), above 1.1 in %d, above 1.5 in %d",
             np, n, with, median(ratios), worst, at, above, above15, faster, median(pairs), worst_p,
             at_p, above_p, above15_p
      if (mpich != "") printf "; ccl on MPICH / MPICH: median %.2f", median(mpich)
      printf "\n"
    }' "$result"
done
plot_csv="$jobs/plot.csv"
awk -F, 'NR == 1 { print "collective,-,ranks,bytes,ccl_us,best_us,ratio"; next }
  { print $1 ",-," $2 "," $3 "," $4 "," $(NF - 3) "," $(NF - 2) }' "$result" > "$plot_csv"
"$root/perf/plot_collectives.sh" "$plot_csv" "$out" peers ccl "the best peer"
echo "wrote $result and $out/peers.png (per-job CSVs and logs in $jobs)"
