#!/bin/sh
# Simulation 1 of the model-agnostic paper (docs/REPRODUCTION.md, "Simulation 1"): regenerate the
# helicoid examples from their statics (open loop: helicoid_statics.json; PFBL on the nine tendon
# lengths: helicoid_tracking.json), run both with tendril-cli, plot tips, tendon-length errors and
# tensions, and draw the tracking run's film strip (frames every 0.5 s, the paper's Fig. 7) when
# tendril-render was built (-DTENDRIL_BUILD_GUI=ON) and xvfb-run is installed.
# Usage: tools/reproduce_simulation1.sh [BUILD_DIR] [OUT_DIR]
# The plots need Debian's python3-matplotlib.
set -eu
build=${1:-build}
out=${2:-reproduction}
mkdir -p "$out"
"$build/tools/tendril_helicoid_reference" --examples resources/examples \
  --csv "$out/helicoid_reference.csv" --tracking
for example in helicoid_statics helicoid_tracking; do
  "$build/app/tendril-cli" simulate "resources/examples/$example.json" --family model-agnostic \
    --t-end 5.5 --dt 0.01 --quiet --out "$out/$example.csv"
  "$build/tools/tendril_helicoid_reference" --tips "$out/$example.csv" "$out/${example}_tips.csv"
  /usr/bin/python3 tools/plot_helicoid.py "$out/helicoid_reference.csv" "$out/$example.csv" \
    "$out/${example}_tips.csv" "$out/$example.png"
  echo "wrote $out/$example.png"
done
if [ -x "$build/app/tendril-render" ] && command -v xvfb-run > /dev/null; then
  xvfb-run -a "$build/app/tendril-cli" render resources/examples/helicoid_tracking.json \
    --motion 5.5 --frames 12 --width 1800 --height 600 --out "$out/helicoid_tracking_motion.png"
  echo "wrote $out/helicoid_tracking_motion.png"
fi
