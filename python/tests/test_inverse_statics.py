"""inverse_statics: the same numbers as tendril-cli, the forward statics at the answer lands on the
target, unreachable targets and bad input."""

import json
import subprocess

import numpy as np
import pytest

import tendril

TENSIONS = [6.0, 0.0, 2.0, 3.0, 0.0, 4.0]  # N, the six cables of the manipulator


def with_tensions(model, tensions):
    """The model with its cables held at constant tensions [N]."""
    description = model.description
    for cable, tension in zip(description["cables"], tensions):
        cable["tension"] = {"type": "constant", "value": float(tension)}
    return tendril.build(description)


def forward_tip(model, link="arm"):
    result = tendril.statics(model)
    assert result.converged, result.message
    return tendril.link_tip_pose(model, result.q, link)[:3, 3]


@pytest.fixture(scope="module")
def target(cables):
    return forward_tip(with_tensions(cables, TENSIONS))


def test_forward_statics_at_the_answer_lands_on_the_target(cables, target):
    result = tendril.inverse_statics(cables, target, link="arm")
    assert result.converged, result.message
    assert result.actuators == ["long1", "long2", "long3", "short1", "short2", "short3"]
    assert result.units == ["N"] * 6
    assert np.all(result.u >= 0.0)
    assert result.position_error <= 1e-9
    np.testing.assert_allclose(result.tip, target, rtol=0, atol=1e-9)
    reached = forward_tip(with_tensions(cables, result.u))
    assert np.linalg.norm(reached - target) <= 1e-9


def test_result_equals_the_cli(cli, examples, work, cables, target):
    out = work / "solved.json"
    run = subprocess.run([cli, "inverse-statics", str(examples / "cable_manipulator.json"),
                          "--link", "arm", "--target", *[repr(float(x)) for x in target],
                          "--out", str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "long1: " in run.stdout and " N\n" in run.stdout
    saved = json.loads(out.read_text())
    cli_tensions = [cable["tension"]["value"] for cable in saved["cables"]]
    result = tendril.inverse_statics(cables, target, link="arm")
    np.testing.assert_array_equal(result.u, cli_tensions)


def test_chosen_actuators_bounds_and_warm_start(cables, target):
    result = tendril.inverse_statics(cables, target, link=0,
                                     actuators=["long1", "long3", "short1", "short3"],
                                     bounds=[(0, 50)] * 4, q0=np.zeros(cables.nq))
    assert result.converged, result.message
    assert result.actuators == ["long1", "long3", "short1", "short3"]
    assert np.all((result.u >= 0) & (result.u <= 50))


def test_unreachable_target_names_the_closest_point(cables):
    result = tendril.inverse_statics(cables, [3.0, 0.0, 0.0], link="arm")
    assert not result.converged
    assert result.message.startswith("unreachable: closest point (")
    assert result.position_error == pytest.approx(np.linalg.norm(result.tip - [3.0, 0.0, 0.0]))


def test_bad_input_raises_value_error(cables):
    with pytest.raises(ValueError, match="unknown actuator 'nope'"):
        tendril.inverse_statics(cables, [0.5, 0, 0], link="arm", actuators=["nope"])
    with pytest.raises(ValueError, match="lower 3 > upper 1"):
        tendril.inverse_statics(cables, [0.5, 0, 0], link="arm", actuators=["long1"],
                                bounds=[(3, 1)])
    with pytest.raises(ValueError, match="no link 'hand'"):
        tendril.inverse_statics(cables, [0.5, 0, 0], link="hand")
    with pytest.raises(ValueError, match="not finite"):
        tendril.inverse_statics(cables, [np.nan, 0, 0], link="arm")
    with pytest.raises(ValueError, match="orientation must be"):
        tendril.inverse_statics(cables, [0.5, 0, 0], link="arm", orientation=[1, 2])


def test_docstring_states_units():
    doc = tendril.inverse_statics.__doc__
    assert "[m" in doc and "[N]" in doc and "[rad]" in doc
