"""Python call overhead of tendril.inverse_dynamics on the 7-joint arm, against the C++ call.

    PYTHONPATH=build/python /usr/bin/python3 python/bench/id_call_overhead.py [--cli build/app/tendril-cli]

The C++ figure is `tendril-cli bench`'s median time of inverseDynamics on the same model (a loop
in C++, no binding); the Python figure is the best of several timeit repeats of
tendril.inverse_dynamics(model, q, v, a, data=data) with contiguous float64 arrays and a Data
reused across calls, as a tight Python loop would call it. Their difference is what the binding
costs per call: argument conversion, the size checks, the Data lock and the result array.
"""

import argparse
import pathlib
import re
import subprocess
import timeit

import numpy as np

import tendril

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODEL = ROOT / "resources" / "examples" / "rigid_7dof_arm.json"


def cxx_inverse_dynamics_seconds(cli):
    out = subprocess.run([cli, "bench", str(MODEL), "--rounds", "1"], check=True,
                         capture_output=True, text=True).stdout
    match = re.search(r"^\s*inverse dynamics\s+([0-9.]+)\s*(ns|us|µs|ms)", out, re.MULTILINE)
    if match is None:
        raise SystemExit("no 'inverse dynamics' line in tendril-cli bench output:\n" + out)
    scale = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3}[match.group(2)]
    return float(match.group(1)) * scale


def python_inverse_dynamics_seconds(repeats=7, number=20000):
    model = tendril.load(MODEL)
    rng = np.random.default_rng(1)
    q, v, a = (rng.standard_normal(model.nv) for _ in range(3))
    data = tendril.Data(model)
    call = lambda: tendril.inverse_dynamics(model, q, v, a, data=data)  # noqa: E731
    return min(timeit.repeat(call, repeat=repeats, number=number)) / number


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=str(ROOT / "build" / "app" / "tendril-cli"))
    args = parser.parse_args()
    cxx = cxx_inverse_dynamics_seconds(args.cli)
    python = python_inverse_dynamics_seconds()
    print(f"C++ inverse dynamics (tendril-cli bench): {cxx * 1e6:.3f} us")
    print(f"tendril.inverse_dynamics from Python:     {python * 1e6:.3f} us")
    print(f"call overhead:                            {(python - cxx) * 1e6:.3f} us")


if __name__ == "__main__":
    main()
