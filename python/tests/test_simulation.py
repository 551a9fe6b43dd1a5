"""simulate and statics: bit-equal to tendril-cli (the same C++ calls), every integrator, the
table, and concurrent use from threads."""

import subprocess
import threading

import numpy as np
import pytest

import tendril


def read_csv(path):
    header = path.read_text().splitlines()[0].split(",")
    values = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return header, values


def test_simulate_equals_the_cli_bit_for_bit(cli, examples, work):
    path = examples / "cable_manipulator.json"
    out = work / "run.csv"
    subprocess.run([cli, "simulate", str(path), "--t-end", "0.05", "--dt", "0.01", "--quiet",
                    "--out", str(out)], check=True, capture_output=True)
    header, values = read_csv(out)
    result = tendril.simulate(tendril.load(path), 0.05, dt=0.01)
    assert result.completed, result.message
    assert list(result.table) == header
    for c, name in enumerate(header):
        np.testing.assert_array_equal(result.table[name], values[:, c], err_msg=name)
    nq = result.q.shape[1]
    np.testing.assert_array_equal(result.q, values[:, 1:1 + nq])
    np.testing.assert_array_equal(result.t, values[:, 0])


def test_statics_equals_the_cli_bit_for_bit(cli, examples, work):
    path = examples / "cable_manipulator.json"
    out = work / "statics.csv"
    subprocess.run([cli, "statics", str(path), "--time", "1", "--out", str(out)], check=True,
                   capture_output=True)
    _, values = read_csv(out)
    model = tendril.load(path)
    result = tendril.statics(model, time=1.0)
    assert result.converged, result.message
    np.testing.assert_array_equal(result.q, values[0, 1:1 + model.nq])


def test_statics_is_an_equilibrium(cables):
    result = tendril.statics(cables, time=1.0)
    q = result.q
    zero = np.zeros(cables.nv)
    residual = (tendril.actuation_forces(cables, q, 1.0) - cables.stiffness @ q
                - tendril.inverse_dynamics(cables, q, zero, zero, 1.0))
    assert np.abs(residual).max() < 1e-9
    fd = tendril.statics(cables, time=1.0, jacobian="fd")
    np.testing.assert_allclose(fd.q, q, rtol=0, atol=1e-8)


FIXED_STEPS = {"newmark": 1e-4, "implicit-euler": 1e-4, "rk4": 1e-5}  # rk4: explicit, stiff rod
# largest coordinate difference from a tight BDF run, relative: implicit Euler is first order
# (1.4e-3 measured at 1e-4 s), the others 1e-6 or better
TOLERANCES = {"implicit-euler": 1e-2}


@pytest.mark.parametrize("integrator", ["bdf", "ida", "newmark", "implicit-euler", "rk4",
                                        tendril.Integrator.BDF, tendril.Integrator.IDA])
def test_every_integrator_runs_and_they_agree(hybrid, integrator):
    reference = tendril.simulate(hybrid, 0.04, dt=0.02, rtol=1e-9, atol=1e-11)
    result = tendril.simulate(hybrid, 0.04, dt=0.02, integrator=integrator,
                              step=FIXED_STEPS.get(integrator))
    assert result.completed, result.message
    assert len(result) == 3 and result.q.shape == (3, hybrid.nq)
    assert result.v.shape == (3, hybrid.nv)
    difference = np.abs(result.q - reference.q).max() / np.abs(reference.q).max()
    assert difference < TOLERANCES.get(integrator, 1e-5)
    assert result.statistics["steps"] > 0


def test_the_table_is_a_dataframe(cables):
    pandas = pytest.importorskip("pandas")
    result = tendril.simulate(cables, 0.02, dt=0.01)
    frame = pandas.DataFrame(result.table)
    assert frame.shape == (3, len(result.table))
    assert {"t", "tip:arm:x", "kinetic", "dissipated"} <= set(frame.columns)


def test_bad_options_raise_value_error(hybrid, examples):
    with pytest.raises(ValueError, match="unknown integrator"):
        tendril.simulate(hybrid, 0.1, integrator="euler")
    with pytest.raises(ValueError):
        tendril.simulate(hybrid, 0.1, dt=0.0)
    with pytest.raises(ValueError, match="q0 has"):
        tendril.simulate(hybrid, 0.1, q0=np.zeros(1))
    with pytest.raises(ValueError):  # IDA does not take closed chains
        tendril.simulate(tendril.load(examples / "parallel_robot.json"), 0.1, integrator="ida")


def test_threads_run_simulations_concurrently_with_the_sequential_results(cables):
    sequential = tendril.simulate(cables, 0.05, dt=0.01).q
    results = [None, None]

    def run(i):
        results[i] = tendril.simulate(cables, 0.05, dt=0.01).q

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for q in results:
        np.testing.assert_array_equal(q, sequential)


def test_threads_with_a_data_each_compute_the_sequential_derivatives(cables):
    rng = np.random.default_rng(11)
    states = [0.1 * rng.standard_normal((3, cables.nv)) for _ in range(2)]
    expected = [tendril.inverse_dynamics_derivatives(cables, *s) for s in states]
    got = [None, None]

    def run(i):
        data = tendril.Data(cables)
        for _ in range(20):
            got[i] = tendril.inverse_dynamics_derivatives(cables, *states[i], data=data)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for (dq, dv), (eq, ev) in zip(got, expected):
        np.testing.assert_array_equal(dq, eq)
        np.testing.assert_array_equal(dv, ev)
