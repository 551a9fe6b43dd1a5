#!/usr/bin/python3
"""Writes resources/examples/hybrid_ur10e_gripper.json (the model-agnostic paper's Simulation 2).

Usage: tools/make_hybrid_ur10e.py [OUT.json]

The UR10e from Universal Robots' published DH parameters and link masses and centres of mass
(universal-robots.com, "DH parameters for calculations of kinematics and dynamics"), with each
link's rotational inertia the solid cylinder that the ur_description URDF
(Universal_Robots_ROS2_Description, config/ur10e/physical_parameters.yaml) uses: radius 0.075 m
(0.045 m for wrist 3) and the link lengths listed there. The numbers derived here (centres of mass
moved from the DH frames into Tendril's link frames, the cylinders' inertias, the tendon offsets,
the damping viscosity) are computed, not typed, so that they can be checked.
"""
import json
import math
import sys

PI = math.pi

# Universal Robots' UR10e page: standard DH (a [m], d [m], alpha [rad]), mass [kg] and centre of
# mass [m] in the DH frame i
UR10E_DH = [
    # a,        d,       alpha,    mass,   centre of mass in frame i
    (0.0, 0.1807, PI / 2, 7.369, (0.021, 0.000, 0.027)),
    (-0.6127, 0.0, 0.0, 13.051, (0.38, 0.000, 0.158)),
    (-0.57155, 0.0, 0.0, 3.989, (0.24, 0.000, 0.068)),
    (0.0, 0.17415, PI / 2, 2.1, (0.000, 0.007, 0.018)),
    (0.0, 0.11985, -PI / 2, 1.98, (0.000, 0.007, 0.018)),
    (0.0, 0.11655, 0.0, 0.615, (0.0, 0.0, -0.026)),
]
# ur_description's cylinders: (radius, length, axis in Tendril's link frame): along the link for
# the upper arm and forearm, along the joint axis for the others
UR10E_CYLINDERS = [
    (0.075, 0.178, "z"),
    (0.075, 0.612, "x"),
    (0.075, 0.57155, "x"),
    (0.075, 0.12, "z"),
    (0.075, 0.12, "z"),
    (0.045, 0.05, "z"),
]
UR10E_NAMES = ["shoulder", "upper_arm", "forearm", "wrist_1", "wrist_2", "wrist_3"]
# UR10e's rated joint torques [N m] (size 4, 4, 3, 2, 2, 2 joints): the controller's saturation
UR10E_TORQUE_LIMITS = [330.0, 330.0, 150.0, 56.0, 56.0, 56.0]
UR10E_TARGET = [PI / 2, -PI / 4, -PI / 4, -PI / 5, PI / 8, -PI / 2]

SOFT_ARM_E = 0.17857e6  # the paper's "elastic coefficient", read as E [Pa]
SOFT_ARM_DAMPING_TIME = 0.1  # the paper's damping [s]: D = 0.1 s K
SOFT_ARM_TARGET = [-PI / 2, PI / 4, -0.02]  # theta_y [rad], theta_z [rad], elongation [m]
TENDON_OFFSET = 0.015  # [m] from the centreline
GRIPPER_PRESSURE = 2.0e6  # [Pa]


def cylinder_inertia(mass, radius, length, axis):
    """[Ixx, Iyy, Izz, Ixy, Ixz, Iyz] of a solid cylinder about its centre."""
    axial = 0.5 * mass * radius**2
    transverse = mass * (3.0 * radius**2 + length**2) / 12.0
    diagonal = {"x": [axial, transverse, transverse], "z": [transverse, transverse, axial]}[axis]
    return [round(x, 9) for x in diagonal] + [0.0, 0.0, 0.0]


def skeleton_cylinder(radius, tip, com):
    """The drawn shape: a cylinder from the link frame's origin to its tip (the DH skeleton, so that
    consecutive links meet), placed in the centre-of-mass frame; a cylinder's axis is the shape
    frame's x, turned onto z for the links whose tip lies along the joint axis. Drawing only: no
    contact or fluid reads it in this model."""
    length = math.sqrt(sum(x * x for x in tip))
    centre = [0.5 * x for x in tip]
    along_z = abs(tip[2]) > abs(tip[0])
    return {
        "type": "cylinder",
        "size": [radius, round(length, 9), 0.0],
        "color": [0.55, 0.6, 0.68],
        "origin": {
            "position": [round(c - m, 9) for c, m in zip(centre, com)],
            "rpy": [0.0, -PI / 2 if along_z else 0.0, 0.0],
        },
    }


def rotate_x(alpha, p):
    c, s = math.cos(alpha), math.sin(alpha)
    return (p[0], c * p[1] - s * p[2], s * p[1] + c * p[2])


def ur10e_links():
    """Each link's frame is its joint frame (DH frame i-1 turned by theta_i); its tip is the
    constant part of the DH transform, Trans_z(d) Trans_x(a) Rot_x(alpha), so the centre of mass
    given in DH frame i is (a, 0, d) + Rot_x(alpha) c in the link frame."""
    links = []
    parent = "world"
    for i, (a, d, alpha, mass, com_dh) in enumerate(UR10E_DH):
        radius, length, axis = UR10E_CYLINDERS[i]
        turned = rotate_x(alpha, com_dh)
        com = [round(x, 9) for x in (a + turned[0], turned[1], d + turned[2])]
        links.append({
            "name": UR10E_NAMES[i],
            "parent": parent,
            "joint": {"type": "revolute", "axis": [0, 0, 1]},
            "rigid": {
                "mass": mass,
                "com": com,
                "inertia": cylinder_inertia(mass, radius, length, axis),
                "tip": {"position": [a, 0.0, d], "rpy": [alpha, 0.0, 0.0]},
                "shape": skeleton_cylinder(radius, (a, 0.0, d), com),
            },
        })
        parent = UR10E_NAMES[i]
    return links


def soft_links():
    soft_arm = {
        "name": "soft_arm",
        "parent": "wrist_3",
        # the flange's z axis (the tip of wrist_3) becomes the segment's axis x
        "origin": {"position": [0.0, 0.0, 0.0], "rpy": [0.0, -PI / 2, 0.0]},
        "joint": {"type": "fixed"},
        "constant_curvature": {
            "model": "spatial",
            "length": 0.3,
            "radius": 0.02,
            "material": {
                "youngs_modulus": SOFT_ARM_E,
                "poisson_ratio": 0.5,
                "density": 1070.0,
                # bending and elongation damp as 3 eta J and 3 eta A (core/model/section.cpp)
                "damping": round(SOFT_ARM_DAMPING_TIME * SOFT_ARM_E / 3.0, 6),
            },
            "stress_model": "linear_elastic",
            "gauss_points": 8,
        },
    }
    gripper = {
        "name": "gripper",
        "parent": "soft_arm",
        # the segment's tip axis x becomes the LVP body's axis x3
        "origin": {"position": [0.0, 0.0, 0.0], "rpy": [0.0, PI / 2, 0.0]},
        "joint": {"type": "fixed"},
        "lvp": {
            "length": 0.08,
            "radius": 0.02,
            "cavity_radius": 0.01,
            "density": 960.0,
            "C": 22.2e6,
            "eta": 0.05,
            # Table 5: stretch (x3/L)^2 q10, source (x3/L)^2 q11
            "primitives": [
                {"type": "stretch", "modes": [[0.0, 0.0, 1.0]]},
                {"type": "source", "modes": [[0.0, 0.0, 1.0]]},
            ],
            "quadrature": {"axial": 6, "radial": 3, "angular": 8},
        },
    }
    return [soft_arm, gripper]


def tendons():
    cables = []
    for k in range(3):
        angle = 2.0 * PI * k / 3.0
        cables.append({
            "name": f"tendon_{k + 1}",
            "link": "soft_arm",
            "path": [{"division": 0, "y": [round(TENDON_OFFSET * math.cos(angle), 12)],
                      "z": [round(TENDON_OFFSET * math.sin(angle), 12)]}],
            "tension": 0.0,
        })
    return cables


def controllers():
    ur10e = {
        "name": "ur10e_pfbl",
        "type": "collocated_pfbl",
        "controlled": [{"coordinate": f"{UR10E_NAMES[i]}/joint/0",
                        "setpoint": {"type": "cubic", "from": 0.0, "to": UR10E_TARGET[i],
                                     "start": 0.0, "duration": 3.0}} for i in range(6)],
        "inputs": [{"name": f"{UR10E_NAMES[i]}_motor", "min": -UR10E_TORQUE_LIMITS[i],
                    "max": UR10E_TORQUE_LIMITS[i]} for i in range(6)],
        "kp": 100.0,
        "kd": 10.0,
        "active": {"from": 0.0, "until": 3.0, "after": "hold"},
    }
    names = ["soft_arm/cc/theta_y", "soft_arm/cc/theta_z", "soft_arm/cc/elongation"]
    soft_arm = {
        "name": "soft_arm_pd",
        "type": "pd_gravity_compensation",
        "controlled": [{"coordinate": names[k], "setpoint": SOFT_ARM_TARGET[k]} for k in range(3)],
        "inputs": [f"tendon_{k + 1}" for k in range(3)],
        "kp": [1.0, 1.0, 1000.0],
        "kd": [0.2, 0.2, 20.0],
        "active": {"from": 3.0, "until": 5.0, "after": "hold"},
    }
    # the soft arm's PD first: the PFBL after it counts its tendon forces as known loads (the PD
    # needs nothing of the PFBL: joint torques have no rows at the soft coordinates)
    return [soft_arm, ur10e]


DESCRIPTION = (
    "Simulation 2 of the model-agnostic paper (Pustina, Della Santina, De Luca): a UR10e carrying "
    "a soft arm (one constant-curvature segment with elongation: theta_y, theta_z, elongation; "
    "radius 0.02 m, rest length 0.3 m, rho 1070 kg/m^3, E = 0.17857 MPa, D = 0.1 s K, three "
    "tendons 120 degrees apart at 0.015 m) and an LVP gripper (Table 5: stretch and source, "
    "(x3/L)^2 modes; rho 960 kg/m^3, C = 22.2 MPa, eta = 0.05 s; our choice of size: L = 0.08 m, "
    "R = 0.02 m, cavity 0.01 m). UR10e: Universal Robots' published DH parameters, masses and "
    "centres of mass, with the cylinder inertias of the ur_description URDF (radius 0.075 m) and "
    "the rated joint torques as saturations (generated by tools/make_hybrid_ur10e.py). A schedule "
    "of controllers: [0, 3) s collocated PFBL on the six joints to (pi/2, -pi/4, -pi/4, -pi/5, "
    "pi/8, -pi/2) along cubic rest-to-rest set-points (e'' + 10 e' + 100 e = 0), soft parts "
    "passive, then held at that set-point; [3, 5) s PD with gravity and elastic cancellation on "
    "the soft arm to (-pi/2, pi/4, -0.02) (K_P 1 N m/rad, 1 N m/rad, 1000 N/m; K_D 0.2, 0.2, 20; "
    "our gains, the paper gives none; tendons only pull), then held; from 5 s a feed-forward "
    "pressure of 2 MPa in the gripper's cavity (cubic rise over 0.05 s). Runs on the "
    "model-agnostic family."
)


def main(out_path):
    robot = {
        "schema_version": 2,
        "name": "UR10e with a soft arm and an LVP gripper (model-agnostic paper, Simulation 2)",
        "description": DESCRIPTION,
        "gravity": [0.0, 0.0, -9.81],
        "links": ur10e_links() + soft_links(),
        "joint_inputs": [{"name": f"{UR10E_NAMES[i]}_motor", "link": UR10E_NAMES[i], "value": 0.0}
                         for i in range(6)],
        "cables": tendons(),
        "cavity_pressures": [{
            "name": "gripper_chamber", "link": "gripper",
            "pressure": {"type": "cubic", "from": 0.0, "to": GRIPPER_PRESSURE, "start": 5.0,
                         "duration": 0.05},
        }],
        "controllers": controllers(),
    }
    with open(out_path, "w") as f:
        json.dump(robot, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "resources/examples/hybrid_ur10e_gripper.json")
