#!/usr/bin/python3
"""State and input plots of the model-agnostic paper's Simulation 2 (docs/REPRODUCTION.md,
"Simulation 2"), from a run of resources/examples/hybrid_ur10e_gripper.json.

Usage: tools/plot_hybrid_ur10e.py RUN.csv OUT.png
  RUN.csv  tendril-cli simulate --out (q: columns and the controllers' setpoint:, value:, input:
           columns)
The gripper's pressure is not a controller input, so it is not in the CSV: it is drawn from the
example's time function (a cubic from 0 to 2 MPa over [5, 5.05] s). Needs python3-matplotlib.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

UR10E = ["shoulder", "upper_arm", "forearm", "wrist_1", "wrist_2", "wrist_3"]
SOFT = ["theta_y", "theta_z", "elongation"]
PHASES = (3.0, 5.0)


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], [[float(x) for x in r] for r in rows[1:] if r]
    return {name: [r[i] for r in body] for i, name in enumerate(header)}


def pressure(t):
    s = min(max((t - 5.0) / 0.05, 0.0), 1.0)
    return 2.0e6 * (3 * s * s - 2 * s * s * s)


def column(run, suffix):
    matches = [name for name in run if name.endswith(suffix)]
    if len(matches) != 1:
        raise SystemExit(f"expected one column ending in {suffix!r}, found {matches}")
    return run[matches[0]]


def phases(ax):
    for t in PHASES:
        ax.axvline(t, color="0.6", lw=0.6, ls=":")


def main(run_path, out_path):
    run = read(run_path)
    t = run["t"]
    fig, axes = plt.subplots(3, 2, figsize=(11, 10), sharex=True)

    ax = axes[0][0]
    for i, name in enumerate(UR10E):
        line, = ax.plot(t, run[f"q:{name}/joint/0"], label=f"q{i + 1}")
        ax.plot(t, column(run, f"setpoint:ur10e_pfbl: {name}/joint/0"), ls="--", lw=0.8,
                color=line.get_color())
    ax.set_ylabel("UR10e joints [rad]")
    ax.set_title("UR10e (dashed: set-points)")
    ax.legend(fontsize=7, ncol=3)

    ax = axes[0][1]
    for i, name in enumerate(UR10E):
        ax.plot(t, column(run, f"input:ur10e_pfbl: {name}_motor"), label=f"tau{i + 1}")
    ax.set_ylabel("joint torques [N m]")
    ax.set_title("UR10e inputs (PFBL)")
    ax.legend(fontsize=7, ncol=3)

    ax = axes[1][0]
    for name in SOFT[:2]:
        line, = ax.plot(t, run[f"q:soft_arm/cc/{name}"], label=name)
        ax.plot(t, column(run, f"setpoint:soft_arm_pd: soft_arm/cc/{name}"), ls="--", lw=0.8,
                color=line.get_color())
    ax2 = ax.twinx()
    ax2.plot(t, [1e3 * x for x in run["q:soft_arm/cc/elongation"]], color="C2", label="elongation")
    ax2.plot(t, [1e3 * x for x in column(run, "setpoint:soft_arm_pd: soft_arm/cc/elongation")],
             color="C2", ls="--", lw=0.8)
    ax2.set_ylabel("elongation [mm]", color="C2")
    ax.set_ylabel("bending [rad]")
    ax.set_title("soft arm (dashed: set-points, active from 3 s)")
    ax.legend(fontsize=7, loc="lower left")

    ax = axes[1][1]
    for k in range(3):
        ax.plot(t, column(run, f"input:soft_arm_pd: tendon_{k + 1}"), label=f"tendon {k + 1}")
    ax.set_ylabel("tension [N]")
    ax.set_title("soft arm inputs (PD + gravity/elastic cancellation, >= 0)")
    ax.legend(fontsize=7)

    ax = axes[2][0]
    ax.plot(t, run["q:gripper/lvp/stretch/0"], label="stretch q10")
    ax.plot(t, run["q:gripper/lvp/source/0"], label="source q11")
    ax.set_ylabel("gripper coordinates [-]")
    ax.set_xlabel("t [s]")
    ax.set_title("LVP gripper")
    ax.legend(fontsize=7)

    ax = axes[2][1]
    ax.plot(t, [pressure(x) / 1e6 for x in t])
    ax.set_ylabel("pressure [MPa]")
    ax.set_xlabel("t [s]")
    ax.set_title("gripper input (feed-forward)")

    for row in axes:
        for ax in row:
            phases(ax)
            ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_path, dpi=70)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
