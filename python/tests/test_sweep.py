"""tendril.sweep: local runs on the C++ pool, and a Dask cluster of two worker processes started
here, one of which is killed mid-sweep without losing or doubling a case."""

import json
import os
import pickle
import signal
import time

import numpy as np
import pytest

import tendril
from tendril import sweeps

from conftest import EXAMPLES


def grid_spec():
    return {
        "model": str(EXAMPLES / "soft_cantilever.json"),
        "parameters": [
            {"pointer": "/gravity/2", "name": "g", "values": [-9.81, -5.0, -1.0]},
            {"pointer": "/links/0/soft/divisions/0/material/poisson_ratio", "name": "nu",
             "values": [0.3, 0.51]},
        ],
        "job": {"type": "statics"},
    }


def slow_spec(cases):
    """Simulations of the cable manipulator, slow enough (~0.1 s each) for a kill to land mid-sweep."""
    return {
        "model": str(EXAMPLES / "cable_manipulator.json"),
        "parameters": [{"pointer": "/cables/0/tension/value", "name": "tension",
                        "range": {"start": 0, "stop": 30, "count": cases}}],
        "job": {"type": "simulate", "t_end": 0.3, "dt": 0.05, "rtol": 1e-4, "atol": 1e-6},
    }


def test_local_sweep_rows_in_case_order_with_failed_cases_as_rows(tmp_path):
    frame = tendril.sweep(grid_spec(), jobs=2, out=tmp_path / "grid.csv")
    assert list(frame["case"]) == list(range(6))
    assert list(frame.columns[:4]) == ["case", "g", "nu", "success"]
    assert list(frame["success"]) == [1, 0, 1, 0, 1, 0]  # nu = 0.51 is refused by the model
    refused = frame[frame["success"] == 0]
    assert refused["message"].str.contains("poisson_ratio: must lie in").all()
    assert refused["tip:rod:x"].isna().all()
    # the same numbers as a statics solve of the case's model, built from its description
    spec = tendril.SweepSpec.from_json(json.dumps(grid_spec()))
    model = tendril.build(spec.case_description(2))
    eq = tendril.statics(model)
    tip = tendril.link_tip_pose(model, eq.q, "rod")[:3, 3]
    np.testing.assert_allclose(frame.loc[2, ["tip:rod:x", "tip:rod:y", "tip:rod:z"]].to_numpy(float), tip,
                               rtol=0, atol=1e-12)
    with open(tmp_path / "grid.csv") as csv:
        assert csv.readline().startswith("case,g,nu,success,tip:rod:x")
    with pytest.raises(tendril.ModelError, match="poisson_ratio"):
        spec.case_description(1)


def test_rows_survive_pickling_as_dask_sends_them():
    spec = tendril.SweepSpec.from_json(json.dumps(grid_spec()))
    rows = tendril.run_cases(spec, [4, 1])
    again = pickle.loads(pickle.dumps(rows))
    assert [r.index for r in again] == [4, 1]
    assert again[0].success and not again[1].success
    np.testing.assert_array_equal(again[0].outputs, rows[0].outputs)
    assert again[1].message == rows[1].message


def test_a_bad_spec_names_its_pointer():
    spec = grid_spec()
    spec["parameters"][0]["pointer"] = "/links/7/soft"
    with pytest.raises(tendril.ModelError) as error:
        tendril.sweep(spec)
    assert error.value.pointer == "/parameters/0/pointer"


def test_an_unreachable_scheduler_is_a_clear_error_and_writes_nothing(tmp_path):
    pytest.importorskip("distributed")
    started = time.monotonic()
    with pytest.raises(sweeps.SweepError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        tendril.sweep(grid_spec(), client="tcp://127.0.0.1:9", out=tmp_path / "r.csv")
    assert time.monotonic() - started < 4 * sweeps.CONNECT_TIMEOUT_S
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=40) as local:
        with distributed.Client(local) as client:
            yield client


def test_dask_sweep_equals_the_local_one(cluster, tmp_path):
    local = tendril.sweep(grid_spec(), jobs=1)
    remote = tendril.sweep(grid_spec(), client=cluster, batch=2, out=tmp_path / "grid.csv")
    assert (tmp_path / "grid.csv").exists()
    outputs = [c for c in local.columns if c not in ("wall_time",)]
    assert local[outputs].equals(remote[outputs])


def test_a_worker_killed_mid_sweep_loses_no_case(cluster, tmp_path):
    cases = 24
    pids = cluster.run(os.getpid)
    assert len(pids) == 2
    seen = {"killed_at": None, "reports": 0}

    def kill_one_worker_after_some_cases(done, total, failed):
        seen["reports"] += 1
        if seen["killed_at"] is None and done >= 4:
            seen["killed_at"] = done
            os.kill(next(iter(pids.values())), signal.SIGKILL)

    frame = tendril.sweep(slow_spec(cases), client=cluster, batch=1, out=tmp_path / "slow.csv",
                          progress=kill_one_worker_after_some_cases)
    assert seen["killed_at"] is not None and seen["killed_at"] < cases  # the kill was mid-sweep
    assert sorted(frame["case"]) == list(range(cases))  # every case, once
    assert frame["case"].is_unique
    assert frame["success"].all(), frame["message"][frame["success"] == 0].tolist()
    # the killed worker's cases were rerun elsewhere, to the same numbers as here
    local = tendril.run_cases(tendril.SweepSpec.from_json(json.dumps(slow_spec(cases))), [0, cases - 1])
    np.testing.assert_array_equal(frame.loc[0, "tip:arm:x"], local[0].outputs[0])
    np.testing.assert_array_equal(frame.loc[cases - 1, "tip:arm:x"], local[1].outputs[0])
    assert not (tmp_path / "slow.partial.csv").exists()
