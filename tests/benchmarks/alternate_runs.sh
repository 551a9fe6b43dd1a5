#!/bin/sh
# alternate_runs.sh CLI_A CLI_B MODEL.json N [simulate options...]: the 10 s run of MODEL with two
# builds of tendril-cli in turn, N times each, then the minimum, median and maximum of each build's
# own "wall time". Taking the builds in turn lets a virtual machine's changes of speed fall on both.
# Example: tests/benchmarks/alternate_runs.sh old/app/tendril-cli build/app/tendril-cli \
#            resources/examples/underwater_robot.json 21 --rtol 1e-3 --atol 1e-6 --integrator ida
set -eu
cli_a=$1 cli_b=$2 model=$3 n=$4
shift 4
times=$(mktemp)
trap 'rm -f "$times"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
  for build in a b; do
    if [ "$build" = a ]; then cli=$cli_a; else cli=$cli_b; fi
    echo "$build $("$cli" simulate "$model" --t-end 10 --quiet "$@" 2>&1 |
      sed -n 's/^wall time: \([0-9.]*\) s.*/\1/p')" >>"$times"
  done
  i=$((i + 1))
done
for build in a b; do
  if [ "$build" = a ]; then cli=$cli_a; else cli=$cli_b; fi
  grep "^$build " "$times" | cut -d' ' -f2 | sort -n |
    awk -v cli="$cli" '{t[NR] = $1} END {
      printf "%s: min %.4f  median %.4f  max %.4f s (%d runs)\n", cli, t[1], t[int((NR + 1) / 2)], t[NR], NR
    }'
done
