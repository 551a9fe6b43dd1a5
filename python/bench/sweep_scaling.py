"""Wall time of the 1000-statics sweep of the 24-DoF cable manipulator on 1 and 2 workers:
local threads (the C++ pool, as `tendril-cli sweep --jobs N`) and a local Dask cluster of worker
processes (start-up excluded: the cluster is started, and every worker has run one batch, before
the clock starts).

    PYTHONPATH=build/python /usr/bin/python3 python/bench/sweep_scaling.py [--rounds 3] [--no-dask]

Each configuration is timed `rounds` times in turn with the others (paired rounds), and the best
round is printed with cases/s and the speed-up from 1 to 2 workers. On a machine shared with other
work, wall times say little: the script also prints this process's CPU time per case for the local
runs, which load does not inflate much.
"""

import argparse
import pathlib
import time

import tendril

SPEC = pathlib.Path(__file__).resolve().parents[2] / "examples" / "sweeps" / "cable_1000.json"


def timed(run):
    wall, cpu = time.perf_counter(), time.process_time()
    frame = run()
    assert len(frame) == 1000 and frame["success"].all(), "every case must converge"
    return time.perf_counter() - wall, time.process_time() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    spec = tendril.SweepSpec.load(SPEC)
    runs = {f"local, {j} thread(s)": (lambda j=j: tendril.sweep(spec, jobs=j)) for j in (1, 2)}
    clusters = []
    if not args.no_dask:
        import distributed

        for workers in (1, 2):
            cluster = distributed.LocalCluster(n_workers=workers, processes=True,
                                               threads_per_worker=1, host="127.0.0.1",
                                               dashboard_address=None, silence_logs=40)
            client = distributed.Client(cluster)
            tendril.sweep(spec, client=client)  # warm: workers import tendril, parse the spec
            clusters.append((cluster, client))
            runs[f"Dask, {workers} worker process(es)"] = (
                lambda c=client: tendril.sweep(spec, client=c))
    best = {name: (float("inf"), 0.0) for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            wall, cpu = timed(run)
            if wall < best[name][0]:
                best[name] = (wall, cpu)
    for name, (wall, cpu) in best.items():
        cpu_text = f", {cpu / 1000 * 1e3:.3f} ms CPU per case in this process" if "local" in name else ""
        print(f"{name:32s} {wall:7.3f} s  {1000 / wall:8.0f} cases/s{cpu_text}")
    for kind in ("local", "Dask"):
        one = [w for n, (w, _) in best.items() if n.startswith(kind) and ", 1 " in n]
        two = [w for n, (w, _) in best.items() if n.startswith(kind) and ", 2 " in n]
        if one and two:
            print(f"{kind}: speed-up from 1 to 2 workers {one[0] / two[0]:.2f}x")
    for cluster, client in clusters:
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
