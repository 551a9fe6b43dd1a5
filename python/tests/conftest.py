"""Shared fixtures of the tendril module's tests: the example models, tendril-cli, a work dir."""

import os
import pathlib

import numpy as np
import pytest

import tendril

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "resources" / "examples"


@pytest.fixture(scope="session")
def examples():
    return EXAMPLES


@pytest.fixture(scope="session")
def cli():
    """tendril-cli of the same build (CTest sets TENDRIL_CLI)."""
    path = os.environ.get("TENDRIL_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("TENDRIL_CLI is not set to an executable tendril-cli")
    return path


@pytest.fixture
def work(tmp_path):
    return tmp_path


@pytest.fixture(scope="session")
def hybrid():
    """Rigid joints and GVS rods in one tree."""
    return tendril.load(EXAMPLES / "hybrid_serial_robot.json")


@pytest.fixture(scope="session")
def cables():
    """A Cosserat rod driven by six cables (tensions ramp over 1 s)."""
    return tendril.load(EXAMPLES / "cable_manipulator.json")


def random_state(model, seed, scale=0.2):
    """q, v, a of moderate size: rod strains of a few 0.1 per m, joint angles of a few 0.1 rad."""
    rng = np.random.default_rng(seed)
    return tuple(scale * rng.standard_normal(model.nv) for _ in range(3))


def central_difference(f, x, h=1e-6):
    """Columns (f(x + h e_k) - f(x - h e_k)) / 2h."""
    columns = []
    for k in range(x.size):
        e = np.zeros_like(x)
        e[k] = h
        columns.append((f(x + e) - f(x - e)) / (2 * h))
    return np.column_stack(columns)
