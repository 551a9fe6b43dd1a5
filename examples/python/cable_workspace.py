"""Tip workspace of the cable manipulator: sweep its six cable tensions, solve the statics for
each, and plot where the tip goes.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/cable_workspace.py [--samples N] [--out FILE.png]

Notebook-style: each "# %%" cell runs on its own in an editor that knows them. matplotlib is
optional: without it the script prints the workspace's extent and writes no picture.
"""

# %% set-up
import argparse
import pathlib
import time

import numpy as np

import tendril

ROOT = pathlib.Path(__file__).resolve().parents[2]
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--model", default=ROOT / "resources/examples/cable_manipulator.json")
parser.add_argument("--samples", type=int, default=200, help="random tension vectors")
parser.add_argument("--max-tension", type=float, default=40.0, help="[N]")
parser.add_argument("--out", default="cable_workspace.png", help="picture to write")
args = parser.parse_args()

# %% the model as an editable dict: its cables and their tensions (time functions, N)
description = tendril.load_description(args.model)
model = tendril.build(description)
print(f"{model.name}: {model.nq} coordinates, cables {', '.join(model.cables)}")
tip_link = model.leaf_links[0]

# %% sweep: every cable's tension drawn in [0, max] N (seeded), one statics solve each
rng = np.random.default_rng(1)
tensions = rng.uniform(0.0, args.max_tension, size=(args.samples, len(description["cables"])))
tips, failed = [], 0
started = time.perf_counter()
q = np.zeros(model.nq)
for row in tensions:
    for cable, value in zip(description["cables"], row):
        cable["tension"] = {"type": "constant", "value": float(value)}
    swept = tendril.build(description)
    result = tendril.statics(swept)
    if not result.converged:
        failed += 1
        tips.append(np.full(3, np.nan))
        continue
    tips.append(tendril.link_tip_pose(swept, result.q, tip_link)[:3, 3])
tips = np.array(tips)
elapsed = time.perf_counter() - started
print(f"{args.samples} statics solves in {elapsed:.2f} s ({failed} did not converge)")
rest = tendril.link_tip_pose(model, np.zeros(model.nq), tip_link)[:3, 3]
print(f"tip of the straight rod (q = 0): {np.round(rest, 4)} m")
print(f"tip workspace: x in [{np.nanmin(tips[:, 0]):.3f}, {np.nanmax(tips[:, 0]):.3f}] m, "
      f"y in [{np.nanmin(tips[:, 1]):.3f}, {np.nanmax(tips[:, 1]):.3f}] m, "
      f"z in [{np.nanmin(tips[:, 2]):.3f}, {np.nanmax(tips[:, 2]):.3f}] m")

# %% plot (matplotlib only here: the module does not need it)
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib is not installed: no picture")
else:
    figure = plt.figure(figsize=(7, 6))
    axes = figure.add_subplot(projection="3d")
    points = axes.scatter(tips[:, 0], tips[:, 1], tips[:, 2], c=tensions.sum(axis=1), s=12)
    axes.scatter(*rest, marker="x", color="k", label="q = 0")
    axes.set_xlabel("x [m]")
    axes.set_ylabel("y [m]")
    axes.set_zlabel("z [m]")
    axes.set_title(f"{tip_link} tip at equilibrium, {args.samples} tension vectors")
    figure.colorbar(points, label="sum of tensions [N]", shrink=0.7)
    axes.legend()
    figure.savefig(args.out, dpi=120, bbox_inches="tight")
    print(f"wrote {args.out}")
