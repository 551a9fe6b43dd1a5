"""Loading, validating and saving models; ModelError; time functions."""

import json
import subprocess

import numpy as np
import pytest

import tendril


def test_load_reports_the_model(hybrid, cables):
    assert hybrid.nq == hybrid.nv == len(hybrid.coordinate_names) > 0
    assert hybrid.name and hybrid.link_names
    assert set(hybrid.leaf_links) <= set(hybrid.link_names)
    assert sorted(cables.cables) == ["long1", "long2", "long3", "short1", "short2", "short3"]
    assert cables.stiffness.shape == (cables.nq, cables.nq)
    np.testing.assert_array_equal(cables.gravity, [0.0, 0.0, -9.81])


def test_coordinate_names_are_the_clis(cli, examples):
    path = examples / "hybrid_serial_robot.json"
    out = subprocess.run([cli, "info", str(path), "--coordinates"], check=True,
                         capture_output=True, text=True).stdout
    model = tendril.load(path)
    for i, name in enumerate(model.coordinate_names):
        assert f"  {i}  {name}\n" in out


def test_a_physically_invalid_value_raises_model_error_with_its_pointer(examples):
    d = tendril.load_description(examples / "soft_cantilever.json")
    d["links"][0]["soft"]["divisions"][0]["material"]["poisson_ratio"] = 0.51
    with pytest.raises(tendril.ModelError) as raised:
        tendril.build(d)
    assert raised.value.pointer == "/links/0/soft/divisions/0/material/poisson_ratio"
    assert "0.51" in raised.value.reason
    assert str(raised.value) == raised.value.pointer + ": " + raised.value.reason
    assert isinstance(raised.value, ValueError)
    with pytest.raises(tendril.ModelError):
        tendril.validate(d)


def test_malformed_json_and_unknown_keys_raise_model_error(work, examples):
    bad = work / "bad.json"
    bad.write_text('{"name": "x", "links": [')
    with pytest.raises(tendril.ModelError) as raised:
        tendril.load(bad)
    assert raised.value.pointer == ""
    assert "not valid JSON" in raised.value.reason
    d = tendril.load_description(examples / "hybrid_serial_robot.json")
    d["links"][1]["colour"] = "red"
    with pytest.raises(tendril.ModelError) as raised:
        tendril.Model.from_dict(d)
    assert raised.value.pointer == "/links/1/colour"
    with pytest.raises(tendril.ModelError):
        tendril.load(work / "missing.json")


def test_description_round_trip_and_edit(examples, work):
    d = tendril.load_description(examples / "cable_manipulator.json")
    model = tendril.build(d)
    assert model.description == d
    d["cables"][0]["tension"] = {"type": "constant", "value": 3.5}
    edited = tendril.build(d)
    assert edited.cables["long1"](0.0) == 3.5
    path = work / "edited.json"
    tendril.save(d, path)
    assert path.read_text() == edited.to_json()
    assert tendril.load_description(path) == d
    assert not list(work.glob("*.tmp-save"))


def test_save_rejects_an_invalid_description_and_keeps_the_old_file(examples, work):
    path = work / "model.json"
    tendril.save(tendril.load(examples / "soft_cantilever.json"), path)
    before = path.read_text()
    d = json.loads(before)
    d["gravity"] = [0.0, "down", 0.0]
    with pytest.raises(tendril.ModelError) as raised:
        tendril.save(d, path)
    assert raised.value.pointer.startswith("/gravity")
    assert path.read_text() == before


def test_time_functions():
    ramp = tendril.TimeFunction({"type": "ramp", "value": 20, "start": 0.5, "duration": 1.0})
    assert ramp(0.0) == 0.0 and ramp(1.0) == 10.0 and ramp(3.0) == 20.0
    assert ramp.derivative(1.0) == 20.0 and ramp.derivative(1.0, 2) == 0.0
    np.testing.assert_array_equal(ramp(np.array([0.0, 1.0, 3.0])), [0.0, 10.0, 20.0])
    sine = tendril.TimeFunction({"type": "sine", "amplitude": 2.0, "frequency": 0.5})
    assert sine(0.5) == pytest.approx(2.0, abs=1e-15)
    assert sine.derivative(0.0) == pytest.approx(2.0 * np.pi * 0.5 * 2.0)
    table = tendril.TimeFunction({"type": "table", "points": [[0, 0], [1, 4]]})
    assert table(0.25) == 1.0 and table(2.0) == 4.0
    assert tendril.TimeFunction(7.0)(123.0) == 7.0
    assert tendril.TimeFunction(ramp.to_dict()) == ramp
    with pytest.raises(tendril.ModelError) as raised:
        tendril.TimeFunction({"type": "table", "points": [[0, 0], [0, 1]]})
    assert raised.value.pointer == "/points/1/0"
    with pytest.raises(ValueError):
        ramp.derivative(0.0, 3)


def test_help_states_units():
    assert "[s]" in tendril.simulate.__doc__ and "t_end" in tendril.simulate.__doc__
    for name in ["inverse_dynamics", "mass_matrix", "forward_dynamics", "statics",
                 "inverse_dynamics_derivatives", "forward_dynamics_derivatives",
                 "actuation_jacobian", "link_tip_pose", "link_tip_jacobian", "load", "save"]:
        assert getattr(tendril, name).__doc__, name
