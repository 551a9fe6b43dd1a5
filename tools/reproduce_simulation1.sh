#!/bin/sh
# Simulation 1 of the model-agnostic paper (docs/REPRODUCTION.md, "Simulation 1"): regenerate the
# helicoid examples from their statics, run them with tendril-cli and plot tips, tendon-length
# errors and tensions.
# Usage: tools/reproduce_simulation1.sh [BUILD_DIR] [OUT_DIR] [--tracking]
#   (--tracking: also write and run helicoid_tracking.json, PFBL on the tendon lengths)
# The plot needs Debian's python3-matplotlib.
set -eu
build=${1:-build}
out=${2:-reproduction}
tracking=${3:-}
mkdir -p "$out"
"$build/tools/tendril_helicoid_reference" --examples resources/examples --csv "$out/helicoid_reference.csv" $tracking
for example in helicoid_statics ${tracking:+helicoid_tracking}; do
  "$build/app/tendril-cli" simulate "resources/examples/$example.json" --t-end 5.5 --dt 0.01 --quiet \
    --out "$out/$example.csv"
  "$build/tools/tendril_helicoid_reference" --tips "$out/$example.csv" "$out/${example}_tips.csv"
  /usr/bin/python3 tools/plot_helicoid.py "$out/helicoid_reference.csv" "$out/$example.csv" \
    "$out/${example}_tips.csv" "$out/$example.png"
  echo "wrote $out/$example.png"
done
