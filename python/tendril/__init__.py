"""Tendril: hybrid soft-rigid robots (GVS rods, constant-curvature segments, rigid joints).

SI units throughout. Load a model with tendril.load(path), then call the algorithms with numpy
float64 arrays; results are new arrays. The engine is the extension tendril._tendril, re-exported
here; tendril.sweep runs a parameter sweep here or on a Dask cluster (tendril.sweeps).
"""

from tendril import _tendril
from tendril._tendril import *  # noqa: F401,F403  (every public name of the engine)
from tendril._tendril import __version__  # noqa: F401

__doc__ = _tendril.__doc__


def sweep(spec, client=None, jobs=None, batch=None, out=None, progress=False):
    """Runs a sweep spec and returns its results as a pandas DataFrame, one row per case.

    spec: a spec file's path, a dict (a relative model path is then relative to the current
    folder) or a SweepSpec. Locally (client None) the cases run on `jobs` threads (default one
    per core). client: a distributed.Client or a scheduler address ("tcp://host:8786"): one task
    per batch of `batch` cases. out: also write the CSV there (and Parquet beside it when pyarrow
    is importable). progress: True prints cases done, failures and time left on stderr; a
    callable(done, total, failed) is called instead. See docs/SWEEPS.md.
    """
    from tendril import sweeps

    return sweeps.sweep(spec, client=client, jobs=jobs, batch=batch, out=out, progress=progress)
