#!/bin/sh
# Simulation 3 of the model-agnostic paper (docs/REPRODUCTION.md, "Model-agnostic inverse
# dynamics"): (a) the accuracy of IID against our Euler-Lagrange reference on planar PCC robots of
# 1-20 bodies, 100 random states each; (b) the time of M q-ddot and of c, and of ID and MID,
# against the number of bodies, with a plot.
# Usage: tests/benchmarks/reproduce_simulation3.sh [BUILD_DIR] [OUT_DIR]  (an otherwise idle
# machine; the plot needs Debian's python3-matplotlib, the table does not)
set -eu
build=${1:-build}
out=${2:-reproduction}
mkdir -p "$out"

echo "=== (a) accuracy: worst relative error over 100 states per robot"
"$build/tests/tendril_core_tests" --gtest_filter='*PlanarPccLagrangianTest*' \
  --gtest_output="xml:$out/simulation3_accuracy.xml" > /dev/null
/usr/bin/python3 - "$out/simulation3_accuracy.xml" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
rows = re.findall(r'value_param="(\d+)".*?worst_iid" value="([^"]+)".*?worst_mass_matrix" value="([^"]+)".*?worst_id" value="([^"]+)"', text, re.S)
print("bodies  IID vs EL   M vs EL    ID (GVS engine) vs EL")
for bodies, iid, mass, engine in rows:
    print(f"{bodies:>6}  {float(iid):9.1e}  {float(mass):9.1e}  {float(engine):9.1e}")
EOF

echo "=== (b) time per call against the number of bodies [us]"
"$build/tests/benchmarks/tendril_benchmarks" --benchmark_filter='BM_PlanarPcc' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_min_time=0.1 \
  --benchmark_out="$out/simulation3_timing.json" --benchmark_out_format=json > /dev/null
/usr/bin/python3 - "$out/simulation3_timing.json" "$out/pcc_scaling.png" <<'EOF'
import json, sys
runs = json.load(open(sys.argv[1]))["benchmarks"]
series = {}
for run in runs:
    if run.get("aggregate_name") != "median":
        continue
    name, bodies = run["run_name"].split("/")
    series.setdefault(name.replace("BM_PlanarPcc", ""), {})[int(bodies)] = run["real_time"]
names = ["MassTimesAcceleration", "Bias", "ID", "MID", "GvsInverseDynamics"]
print("bodies " + " ".join(f"{n[:14]:>14}" for n in names))
for bodies in sorted(series["ID"]):
    print(f"{bodies:>6} " + " ".join(f"{series[n][bodies]:14.2f}" for n in names))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("(no matplotlib: no plot)")
    sys.exit(0)
labels = {"MassTimesAcceleration": "M q̈ = IID(q, 0, q̈)", "Bias": "c = IID(q, q̇, 0)",
          "ID": "ID (gravity, elasticity)", "MID": "MID (ID and M, one pass)",
          "GvsInverseDynamics": "GVS-engine ID of the same robot"}
fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
for name in names:
    xs = sorted(series[name])
    ax.plot(xs, [series[name][x] for x in xs], marker="o", markersize=3, label=labels[name])
ax.set_xlabel("number of bodies")
ax.set_ylabel("time per call [µs]")
ax.set_title("Planar PCC robots: model-agnostic recursions (median of 5)")
ax.set_xticks(range(0, 21, 2))
ax.grid(True, alpha=0.3)
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2])
print("plot:", sys.argv[2])
EOF
