#!/bin/sh
# count_benchmark_instructions.sh BENCHMARKS FILTER FUNCTION: instructions per call of FUNCTION
# (its qualified name, e.g. tendril::modelAgnosticMID) inside the Google Benchmark runs that FILTER
# selects, from one callgrind run collecting only inside FUNCTION (docs/PERFORMANCE.md). Unlike
# count_instructions.sh it needs no model file: the PCC chains of the benchmarks have none.
set -eu
benchmarks=$1 filter=$2 function=$3
out=$(mktemp)
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" "--toggle-collect=$function(*" "$benchmarks" \
  --benchmark_filter="$filter" --benchmark_min_time=0.01 > /dev/null 2>&1
total=$(callgrind_annotate "$out" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
# callgrind names a function by number after its first mention: sum the calls to that number
id=$(grep -m1 -o "([0-9]*) $function(" "$out" | sed 's/(\([0-9]*\)).*/\1/')
calls=$(awk -v key="cfn=($id)" 'index($0, key) == 1 { getline; split($1, a, "="); n += a[2] } END { print n + 0 }' "$out")
if [ -z "$total" ] || [ "$calls" -eq 0 ]; then
  echo "count_benchmark_instructions.sh: no call of $function under '$filter'" >&2
  exit 1
fi
echo "$filter $function: $((total / calls)) instructions per call ($calls calls)"
