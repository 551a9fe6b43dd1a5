#!/bin/sh
# Measures every "ours" figure of docs/REPRODUCTION.md: for each of the paper's six robots, 10 s
# of dynamics with the analytical and the finite-difference Jacobian (default tolerances and the
# paper's), Newmark at the paper's step, the derivative check, statics, and a film strip.
# Usage: tests/benchmarks/reproduce_paper.sh [BUILD_DIR] [OUT_DIR]  (run on an otherwise idle
# machine; the film strips need a display: prefix with xvfb-run -a)
set -eu
build=${1:-build}
out=${2:-reproduction}
cli="$build/app/tendril-cli"
examples=resources/examples
mkdir -p "$out"

# name:model file:Newmark step of the paper
robots="cdm:paper_cable_manipulator:0.002
serial:paper_hybrid_serial_robot:0.001
finray:finray_finger:0.01
parallel:parallel_robot:0.01
contact:paper_contact_cylinder:0.002
underwater:underwater_robot:0.01"

echo "$robots" | while IFS=: read -r name file step; do
  model="$examples/$file.json"
  echo "=== $name ($file)"
  "$cli" info "$model" | grep -E "degrees of freedom|virtual joints|constraint rows"
  echo "--- BDF, rtol 1e-6, atol 1e-8"
  "$cli" simulate "$model" --t-end 10 --quiet --compare-jacobians || true
  echo "--- BDF, the paper's tolerances (rtol 1e-3, atol 1e-6)"
  "$cli" simulate "$model" --t-end 10 --quiet --compare-jacobians --rtol 1e-3 --atol 1e-6 || true
  echo "--- Newmark, h = $step s, analytical Jacobian"
  "$cli" simulate "$model" --t-end 10 --quiet --integrator newmark --step "$step" | grep -E "wall|simulate" || true
  echo "--- derivative check at a random state (central differences)"
  "$cli" check-derivatives "$model" --state random || true
  echo "--- statics, analytical then finite-difference Jacobian"
  "$cli" statics "$model" --time 5 --jacobian analytic | head -1 || true
  "$cli" statics "$model" --time 5 --jacobian fd | head -1 || true
  if [ -n "${DISPLAY:-}" ]; then
    "$cli" render "$model" --motion 10 --frames 6 --width 1800 --height 420 --out "$out/$file.png" || true
  fi
done
