#!/bin/sh
# count_instructions.sh DRIVER MODEL.json ALGORITHM [N]: instructions per call of one algorithm
# (docs/PERFORMANCE.md), from two callgrind runs of tendril_instruction_driver, N calls and one:
# (I(N) - I(1)) / (N - 1), which removes loading and building the model.
set -eu
driver=$1 model=$2 algorithm=$3 n=${4:-50}
# valgrind 3.19 decodes no AVX-512: a native build on such a CPU needs CMAKE_CXX_FLAGS=-mno-avx512f
count() {
  log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$driver" "$model" "$algorithm" "$1" 2>&1) || true
  if printf '%s\n' "$log" | grep -q "Unrecognised instruction"; then
    echo "count_instructions.sh: valgrind cannot decode '$driver' (AVX-512?); build it with" \
      "-DCMAKE_CXX_FLAGS=-mno-avx512f" >&2
    exit 1
  fi
  printf '%s\n' "$log" | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
many=$(count "$n")
one=$(count 1)
if [ -z "$many" ] || [ -z "$one" ]; then
  echo "count_instructions.sh: no callgrind count (is valgrind installed, does '$driver' run?)" >&2
  exit 1
fi
echo "$(basename "$model" .json) $algorithm: $(((many - one) / (n - 1))) instructions per call"
