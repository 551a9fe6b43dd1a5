"""Kinematics, ID, M, FD, actuation and their analytical derivatives: identities between
algorithms, central differences, repeatability, and bad input."""

import numpy as np
import pytest
from conftest import central_difference, random_state

import tendril


def test_inverse_dynamics_is_mass_matrix_times_a_plus_bias(hybrid, cables):
    for model in (hybrid, cables):
        q, v, a = random_state(model, seed=1)
        tau = tendril.inverse_dynamics(model, q, v, a)
        bias = tendril.inverse_dynamics(model, q, v, np.zeros(model.nv))
        M = tendril.mass_matrix(model, q)
        np.testing.assert_allclose(tau, M @ a + bias, rtol=0, atol=1e-12 * (1 + np.abs(tau).max()))
        np.testing.assert_allclose(M, M.T, rtol=0, atol=1e-14 * np.abs(M).max())


def test_forward_dynamics_inverts_inverse_dynamics(hybrid, cables):
    for model in (hybrid, cables):
        q, v, _ = random_state(model, seed=2)
        t = 0.3
        tau = tendril.actuation_forces(model, q, t)
        qdd = tendril.forward_dynamics(model, q, v, t=t)
        np.testing.assert_array_equal(qdd, tendril.forward_dynamics(model, q, v, tau, t))
        lhs = tendril.inverse_dynamics(model, q, v, qdd, t)
        rhs = tau - model.stiffness @ q - model.damping @ v
        np.testing.assert_allclose(lhs, rhs, rtol=0, atol=1e-9 * (1 + np.abs(rhs).max()))


def test_repeated_calls_are_bit_identical_with_or_without_a_data(hybrid):
    q, v, a = random_state(hybrid, seed=3)
    data = tendril.Data(hybrid)
    first = tendril.inverse_dynamics(hybrid, q, v, a)
    np.testing.assert_array_equal(first, tendril.inverse_dynamics(hybrid, q, v, a, data=data))
    np.testing.assert_array_equal(first, tendril.inverse_dynamics(hybrid, q, v, a, data=data))
    dq, dv = tendril.inverse_dynamics_derivatives(hybrid, q, v, a, data=data)
    dq2, dv2 = tendril.inverse_dynamics_derivatives(hybrid, q, v, a)
    np.testing.assert_array_equal(dq, dq2)
    np.testing.assert_array_equal(dv, dv2)


def test_results_are_copies(hybrid):
    q, v, a = random_state(hybrid, seed=4)
    data = tendril.Data(hybrid)
    first = tendril.inverse_dynamics(hybrid, q, v, a, data=data)
    kept = first.copy()
    tendril.inverse_dynamics(hybrid, q, v, 2 * a, data=data)
    np.testing.assert_array_equal(first, kept)


def test_inverse_dynamics_derivatives_match_central_differences(hybrid, cables):
    for model in (hybrid, cables):
        q, v, a = random_state(model, seed=5)
        t = 0.4
        dq, dv = tendril.inverse_dynamics_derivatives(model, q, v, a, t)
        dq_fd = central_difference(lambda x: tendril.inverse_dynamics(model, x, v, a, t), q)
        dv_fd = central_difference(lambda x: tendril.inverse_dynamics(model, q, x, a, t), v)
        scale = 1 + np.abs(dq).max()
        np.testing.assert_allclose(dq, dq_fd, rtol=0, atol=1e-6 * scale)
        np.testing.assert_allclose(dv, dv_fd, rtol=0, atol=1e-6 * (1 + np.abs(dv).max()))
        assert not np.array_equal(dq, dq_fd)


def test_forward_dynamics_derivatives_match_central_differences(cables):
    # FD = M^-1 (...) inherits cond(M) (~1e11 on rods of centimetre sections), which a central
    # difference amplifies: as the engine's own test does, compare in force space, M (J - J_fd)
    q, v, _ = random_state(cables, seed=6)
    t = 0.5  # cables half-way up their ramps
    dq, dv = tendril.forward_dynamics_derivatives(cables, q, v, t)
    dq_fd = central_difference(lambda x: tendril.forward_dynamics(cables, x, v, t=t), q, h=1e-5)
    dv_fd = central_difference(lambda x: tendril.forward_dynamics(cables, q, x, t=t), v, h=1e-5)
    M = tendril.mass_matrix(cables, q)
    for analytic, reference in ((dq, dq_fd), (dv, dv_fd)):
        mismatch = np.linalg.norm(M @ (analytic - reference)) / np.linalg.norm(M @ analytic)
        assert mismatch < 1e-6
        assert not np.array_equal(analytic, reference)


def test_actuation_jacobian_matches_central_differences(cables):
    q, _, _ = random_state(cables, seed=7)
    t = 0.5
    J = tendril.actuation_jacobian(cables, q, t)
    J_fd = central_difference(lambda x: tendril.actuation_forces(cables, x, t), q)
    assert np.abs(J).max() > 0
    np.testing.assert_allclose(J, J_fd, rtol=0, atol=1e-6 * np.abs(J).max())


def test_tip_jacobian_is_the_derivative_of_the_tip_pose(hybrid):
    q, _, _ = random_state(hybrid, seed=8)
    for link in hybrid.leaf_links:
        g = tendril.link_tip_pose(hybrid, q, link)
        J = tendril.link_tip_jacobian(hybrid, q, link)
        dg = central_difference(lambda x: tendril.link_tip_pose(hybrid, x, link).ravel(), q)
        for k in range(hybrid.nv):
            # body twist of column k: g^-1 dg/dq_k = [[omega~, v], [0, 0]]
            twist = np.linalg.inv(g) @ dg[:, k].reshape(4, 4)
            omega = [twist[2, 1], twist[0, 2], twist[1, 0]]
            np.testing.assert_allclose(J[:, k], np.r_[omega, twist[:3, 3]], rtol=0, atol=1e-7)
    poses = tendril.link_tip_poses(hybrid, q)
    np.testing.assert_array_equal(poses[hybrid.link_names[0]],
                                  tendril.link_tip_pose(hybrid, q, 0))


def test_wrong_sizes_and_names_raise_value_error(hybrid, cables):
    q, v, a = random_state(hybrid, seed=9)
    with pytest.raises(ValueError, match="q has 2 entries, the model has nq"):
        tendril.inverse_dynamics(hybrid, q[:2], v, a)
    with pytest.raises(ValueError, match="a has"):
        tendril.inverse_dynamics(hybrid, q, v, np.zeros(hybrid.nv + 1))
    with pytest.raises(ValueError):
        tendril.forward_dynamics(hybrid, q, v, np.zeros(3))
    with pytest.raises(ValueError, match="no link 'nope'"):
        tendril.link_tip_pose(hybrid, q, "nope")
    with pytest.raises(ValueError, match="another Model"):
        tendril.mass_matrix(hybrid, q, data=tendril.Data(cables))
    with pytest.raises(TypeError):
        tendril.mass_matrix(hybrid, "not an array")


def test_lists_and_non_contiguous_arrays_are_accepted(hybrid):
    q, v, a = random_state(hybrid, seed=10)
    expected = tendril.inverse_dynamics(hybrid, q, v, a)
    np.testing.assert_array_equal(expected, tendril.inverse_dynamics(hybrid, list(q), list(v), list(a)))
    strided = np.zeros((hybrid.nv, 2))
    strided[:, 0] = q
    np.testing.assert_array_equal(expected, tendril.inverse_dynamics(hybrid, strided[:, 0], v, a))
