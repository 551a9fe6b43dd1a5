"""Parameter sweeps from Python: locally on the C++ thread pool, or on a Dask distributed
cluster with one task per batch of cases (docs/SWEEPS.md).

Also the command behind `tendril-cli sweep SPEC.json --dask tcp://host:8786`:
    python3 -m tendril.sweeps SPEC.json --dask tcp://host:8786 [--out results.csv] [--batch K]
"""

import argparse
import functools
import io
import json
import os
import pathlib
import sys
import time

from tendril import _tendril

CONNECT_TIMEOUT_S = 5.0  # an unreachable scheduler is reported after this long


class SweepError(RuntimeError):
    """The sweep could not run to its end (scheduler unreachable, cluster lost)."""


def load_spec(spec):
    """A SweepSpec from a path, a dict or a SweepSpec (ModelError names the spec's pointer)."""
    if isinstance(spec, _tendril.SweepSpec):
        return spec
    if isinstance(spec, dict):
        return _tendril.SweepSpec.from_json(json.dumps(spec), os.getcwd())
    return _tendril.SweepSpec.load(os.fspath(spec))


@functools.lru_cache(maxsize=4)
def _worker_spec(spec_json):
    # a worker parses each spec once, whatever the number of batches it runs
    return _tendril.SweepSpec.from_json(spec_json, "/")


def run_batch(spec_json, indices):
    """The task run on a Dask worker: the cases `indices` of the self-contained spec."""
    return _tendril.run_cases(_worker_spec(spec_json), list(indices), 1)


class _Progress:
    """'done/total cases, failed, elapsed, time left' on stderr, at most twice a second; or the
    caller's callable(done, total, failed), called on every report."""

    def __init__(self, total, enabled):
        self.total, self.enabled = total, enabled
        self.started = self.last = time.monotonic()

    def __call__(self, done, total, failed, elapsed=None, final=False):
        if callable(self.enabled):
            self.enabled(done, total, failed)
            return
        if not self.enabled:
            return
        now = time.monotonic()
        if not final and now - self.last < 0.5:
            return
        self.last = now
        elapsed = now - self.started if elapsed is None else elapsed
        left = f", about {elapsed / done * (total - done):.0f} s left" if 0 < done < total else ""
        sys.stderr.write(f"\r{done:6d}/{total} cases, {failed} failed, {elapsed:.1f} s elapsed{left}    ")
        if final:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _connect(client):
    import distributed  # python3-distributed

    if isinstance(client, distributed.Client):
        return client, False
    try:
        return distributed.Client(client, timeout=CONNECT_TIMEOUT_S), True
    except (OSError, TimeoutError) as error:
        raise SweepError(f"cannot reach the Dask scheduler at {client} within "
                         f"{CONNECT_TIMEOUT_S:g} s ({error})") from None


def _batches(count, batch, workers):
    if batch is None:
        # about four tasks per worker thread balances the load without much per-task overhead
        batch = max(1, count // max(1, 4 * workers))
    return [list(range(start, min(count, start + batch))) for start in range(0, count, batch)]


def _run_on_dask(spec, client, batch, progress):
    """Rows in case order: every case once, also when a worker dies (Dask reruns its tasks)."""
    import distributed

    client, owned = _connect(client)
    rows = {}
    try:
        workers = sum(client.nthreads().values()) or 1
        spec_json = spec.self_contained_json()
        futures = [client.submit(run_batch, spec_json, indices, pure=False)
                   for indices in _batches(spec.case_count, batch, workers)]
        failed = 0
        try:
            for future in distributed.as_completed(futures):
                for row in future.result():
                    if row.index in rows:
                        continue  # a batch run twice (its first worker died after finishing)
                    rows[row.index] = row
                    failed += not row.success
                progress(len(rows), spec.case_count, failed)
        except Exception as error:  # noqa: BLE001  (the cluster failed: keep what was done)
            return [rows[i] for i in sorted(rows)], f"cluster failed: {error}"
    finally:
        if owned:
            client.close()
    return [rows[i] for i in range(spec.case_count)], None


def _save(spec, rows, out, why_partial):
    written = pathlib.Path(_tendril.save_sweep_csv(spec, rows, os.fspath(out), why_partial))
    if why_partial is None or len(rows) == spec.case_count:
        try:
            import pyarrow  # noqa: F401  (optional)
        except ImportError:
            return written
        import pandas

        parquet = written.with_suffix(".parquet")
        temporary = parquet.with_name(parquet.name + ".tmp-save")
        _frame(spec, rows).to_parquet(temporary)
        os.replace(temporary, parquet)
    return written


def _frame(spec, rows):
    import pandas

    # the CSV holds every double to 17 digits; pandas' default parser can be an ulp off, round_trip is exact
    return pandas.read_csv(io.StringIO(_tendril.sweep_csv(spec, rows)), keep_default_na=False,
                           na_values=["nan"], float_precision="round_trip")


def sweep(spec, client=None, jobs=None, batch=None, out=None, progress=False):
    """See tendril.sweep."""
    spec = load_spec(spec)
    report = _Progress(spec.case_count, progress)
    if client is None:
        rows = _tendril.run_cases(spec, [], jobs or 0,
                                  (lambda d, t, f, e: report(d, t, f, e)) if progress else None)
        why_partial = None
    else:
        rows, why_partial = _run_on_dask(spec, client, batch, report)
    report(len(rows), spec.case_count, sum(not r.success for r in rows), final=True)
    if out is not None:
        _save(spec, rows, out, why_partial or "interrupted")
    if why_partial is not None:
        raise SweepError(f"{why_partial}; {len(rows)} of {spec.case_count} cases done"
                         + (f", saved as partial beside {out}" if out is not None else ""))
    return _frame(spec, rows)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m tendril.sweeps",
                                     description="Run a Tendril sweep spec (docs/SWEEPS.md).")
    parser.add_argument("spec")
    parser.add_argument("--dask", help="scheduler address, tcp://host:port (default: local threads)")
    parser.add_argument("--out", help="results CSV (default: <spec name>.csv here)")
    parser.add_argument("--jobs", type=int, help="local threads (default: one per core)")
    parser.add_argument("--batch", type=int, help="cases per Dask task")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    out = args.out or pathlib.Path(args.spec).stem + ".csv"
    try:
        spec = load_spec(args.spec)
    except _tendril.ModelError as error:
        print(f"tendril-cli: {args.spec}: {error}", file=sys.stderr)
        return 3
    if args.dask:
        try:
            import distributed  # noqa: F401
        except ImportError:
            print("tendril-cli: sweep --dask needs python3-distributed "
                  "(apt-get install python3-distributed)", file=sys.stderr)
            return 1
    started = time.monotonic()
    try:
        frame = sweep(spec, client=args.dask, jobs=args.jobs, batch=args.batch, out=out,
                      progress=not args.quiet)
    except SweepError as error:
        print(f"tendril-cli: {error}", file=sys.stderr)
        return 1
    seconds = time.monotonic() - started
    print(f"sweep: {len(frame)} of {spec.case_count} cases, {int((frame['success'] == 0).sum())} "
          f"failed, {seconds:.3g} s on {'Dask at ' + args.dask if args.dask else 'local threads'} "
          f"({len(frame) / seconds:.4g} cases/s)\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
