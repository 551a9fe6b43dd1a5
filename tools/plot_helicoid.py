#!/usr/bin/python3
"""State and input plots of the seed paper's Simulation 1 (docs/REPRODUCTION.md, Simulation 1).

Usage: tools/plot_helicoid.py REFERENCE.csv RUN.csv TIPS.csv OUT.png
  REFERENCE.csv  tendril_helicoid_reference --csv (the equilibria: T_d, l_d)
  RUN.csv        tendril-cli simulate --out (with the controller's setpoint/value/input columns
                 when the run is the tracking example)
  TIPS.csv       tendril_helicoid_reference --tips RUN.csv TIPS.csv
Needs Debian's python3-matplotlib. tools/reproduce_simulation1.sh runs the whole chain.
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

RADII = (0.004, 0.005, 0.006)  # the example's circles (the paper's radii x 0.2), base frame
HEIGHTS = (0.097, 0.194, 0.291)  # 97 % of the rest lengths
OMEGA = 2 * math.pi / 5


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], [[float(x) for x in r] for r in rows[1:] if r]
    return {name: [r[i] for r in body] for i, name in enumerate(header)}


def main(reference_path, run_path, tips_path, out_path):
    reference, run, tips = read(reference_path), read(run_path), read(tips_path)
    t = tips["t"]
    tendons = [c[2:] for c in reference if c.startswith("T:")]
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))

    ax = axes[0][0]
    for i in range(3):
        a = [2 * math.pi * k / 200 for k in range(201)]
        ax.plot([RADII[i] * math.cos(x) * 1e3 for x in a], [RADII[i] * math.sin(x) * 1e3 for x in a],
                "k--", lw=0.8)
        ax.plot([x * 1e3 for x in tips[f"tip{i + 1}_x"]], [y * 1e3 for y in tips[f"tip{i + 1}_y"]],
                label=f"tip {i + 1}")
    ax.set_aspect("equal")
    ax.set_xlabel("x [mm] (base frame)")
    ax.set_ylabel("y [mm]")
    ax.set_title("tips (dashed: the target circles)")
    ax.legend(fontsize=8)

    ax = axes[0][1]
    for i in range(3):
        error = []
        for k, time in enumerate(t):
            target = (RADII[i] * math.cos(OMEGA * time), RADII[i] * math.sin(OMEGA * time), HEIGHTS[i])
            actual = (tips[f"tip{i + 1}_x"][k], tips[f"tip{i + 1}_y"][k], tips[f"tip{i + 1}_z"][k])
            error.append(max(1e-9, math.dist(target, actual)) * 1e3)
        ax.semilogy(t, error, label=f"tip {i + 1}")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("|tip - circle| [mm]")
    ax.set_title("tip error")
    ax.legend(fontsize=8)

    ax = axes[1][0]
    setpoints = [c for c in run if c.startswith("setpoint:")]
    if setpoints:
        for c in setpoints:
            name = c[len("setpoint:"):]
            error = [abs(d - y) * 1e3 for d, y in zip(run[c], run["value:" + name])]
            label = name.split(": ")[-1]  # the tendon, without the controller's name
            ax.semilogy(run["t"], [max(e, 1e-9) for e in error], lw=0.8, label=label)
        ax.set_title("tendon length error |y_d - y|")
        ax.set_ylabel("[mm]")
    else:
        for name in tendons:
            ax.plot(reference["t"], [x * 1e3 for x in reference["l:" + name]], lw=0.8, label=name)
        ax.set_title("reference tendon lengths l_d (one period)")
        ax.set_ylabel("[mm]")
    ax.set_xlabel("t [s]")
    ax.legend(fontsize=6, ncol=3)

    ax = axes[1][1]
    inputs = [c for c in run if c.startswith("input:")]
    if inputs:
        for c in inputs:
            ax.plot(run["t"], run[c], lw=0.8, label=c[len("input:"):].split(": ")[-1])
        ax.set_title("tensions written by the controller")
    else:
        for name in tendons:
            ax.plot(reference["t"], reference["T:" + name], lw=0.8, label=name)
        ax.set_title("equilibrium tensions T_d (one period; open-loop input)")
    ax.set_xlabel("t [s]")
    ax.set_ylabel("[N]")
    ax.legend(fontsize=6, ncol=3)

    fig.tight_layout()
    fig.savefig(out_path, dpi=90)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
