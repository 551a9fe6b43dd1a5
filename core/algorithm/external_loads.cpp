#include "core/algorithm/external_loads.hpp"

#include <cmath>

namespace tendril {

namespace {

// a force field acting at a point, in world: its value and how it varies with the point's
// position and velocity
struct PointForce {
  Eigen::Vector3d f = Eigen::Vector3d::Zero();
  Eigen::Matrix3d K_p = Eigen::Matrix3d::Zero();  ///< df / dp
  Eigen::Matrix3d K_v = Eigen::Matrix3d::Zero();  ///< df / dv
};

// contact force magnitude phi(delta) = k delta^p, blended to zero over [0, smoothing] by the
// smoothstep s(x) = 3 x^2 - 2 x^3 (C^1 at delta = 0 for every p >= 1, exact beyond the width)
void contactMagnitude(const CompiledEnvironment& env, double delta, double& phi, double& dphi) {
  const double k = env.stiffness, p = env.exponent;
  const double power = std::pow(delta, p - 1.0);
  phi = k * power * delta;
  dphi = k * p * power;
  if (env.smoothing > 0.0 && delta < env.smoothing) {
    const double x = delta / env.smoothing;
    const double s = x * x * (3.0 - 2.0 * x), ds = 6.0 * x * (1.0 - x) / env.smoothing;
    dphi = dphi * s + phi * ds;
    phi *= s;
  }
}

// one obstacle touching the sphere: penetration delta > 0, unit direction n that pushes the
// sphere out, and N_p = dn/dp; the force is phi (1 + c delta-dot) n plus regularised Coulomb
// friction -mu f_n v_t / sqrt(|v_t|^2 + v_s^2) (docs/theory/gvs.md (57-61), corrected sign)
void addContact(const CompiledEnvironment& env, double delta, const Eigen::Vector3d& n,
                const Eigen::Matrix3d& N_p, const Eigen::Vector3d& v, PointForce& out) {
  double phi = 0.0, dphi = 0.0;
  contactMagnitude(env, delta, phi, dphi);
  const double delta_dot = -n.dot(v);  // d delta / dp = -n^T for every obstacle
  const double f_n = phi * (1.0 + env.damping * delta_dot);
  if (!(f_n > 0.0)) return;  // a damper does not pull
  const Eigen::RowVector3d df_n_dp = -dphi * (1.0 + env.damping * delta_dot) * n.transpose() -
                                     phi * env.damping * v.transpose() * N_p;
  const Eigen::RowVector3d df_n_dv = -phi * env.damping * n.transpose();
  out.f += f_n * n;
  out.K_p += n * df_n_dp + f_n * N_p;
  out.K_v += n * df_n_dv;
  if (env.friction > 0.0) {
    const double n_v = n.dot(v);
    const Eigen::Vector3d v_t = v - n_v * n;
    const double s = std::sqrt(v_t.squaredNorm() + env.slip_velocity * env.slip_velocity);
    const Eigen::Matrix3d G = Eigen::Matrix3d::Identity() / s - v_t * v_t.transpose() / (s * s * s);
    const Eigen::Matrix3d dvt_dp = -(n * (v.transpose() * N_p) + n_v * N_p);
    const Eigen::Matrix3d dvt_dv = Eigen::Matrix3d::Identity() - n * n.transpose();
    out.f -= env.friction * f_n / s * v_t;
    out.K_p -= env.friction * (v_t / s * df_n_dp + f_n * G * dvt_dp);
    out.K_v -= env.friction * (v_t / s * df_n_dv + f_n * G * dvt_dv);
  }
}

// every obstacle against a sphere of radius r centred at p, moving at v (world)
void contactForce(const CompiledEnvironment& env, const Eigen::Vector3d& p,
                  const Eigen::Vector3d& v, double r, PointForce& out) {
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  // half-spaces: the robot on the side of the normal
  for (std::size_t i = 0; i < env.plane_normals.size(); ++i) {
    const Eigen::Vector3d& n = env.plane_normals[i];
    const double delta = r - n.dot(p - env.plane_points[i]);
    if (delta > 0.0) addContact(env, delta, n, Eigen::Matrix3d::Zero(), v, out);
  }
  // solid spheres: the robot outside
  for (std::size_t i = 0; i < env.sphere_centres.size(); ++i) {
    const Eigen::Vector3d d = p - env.sphere_centres[i];
    const double rho = d.norm();
    const double delta = env.sphere_radii[i] + r - rho;
    if (delta <= 0.0 || rho < 1e-12) continue;
    const Eigen::Vector3d n = d / rho;
    addContact(env, delta, n, (I - n * n.transpose()) / rho, v, out);
  }
  // hollow cylinders: the robot inside, pushed back toward the axis
  for (std::size_t i = 0; i < env.cylinder_axes.size(); ++i) {
    const Eigen::Vector3d& a = env.cylinder_axes[i];
    const Eigen::Vector3d d = p - env.cylinder_points[i];
    const Eigen::Vector3d d_perp = d - a.dot(d) * a;
    const double rho = d_perp.norm();
    const double delta = rho + r - env.cylinder_radii[i];
    if (delta <= 0.0 || rho < 1e-12) continue;
    const Eigen::Vector3d u = d_perp / rho;
    const Eigen::Matrix3d C1 = I - a * a.transpose();
    addContact(env, delta, -u, -(C1 - u * u.transpose()) / rho, v, out);
  }
}

// a world force at point c of frame j (local coordinates): its wrench on the frame and, when
// wanted, the sensitivities. With P = [-c~, I] (the point's motion from the frame twist),
// f_l = R^T f, K^l = R^T K R:
//   F = [c~; I] f_l,  d_pose = [c~; I] ([f_l~, 0] + K_p^l P - K_v^l [(P eta)~, 0]),
//   d_twist = [c~; I] K_v^l P
void pointForceWrench(const SE3& g, const Vector6d& eta, const Eigen::Vector3d& c,
                      const PointForce& force, Vector6d& wrench, Matrix6d* d_pose,
                      Matrix6d* d_twist) {
  const Eigen::Vector3d f_l = g.R.transpose() * force.f;
  wrench.head<3>() += c.cross(f_l);
  wrench.tail<3>() += f_l;
  if (!d_pose) return;
  Eigen::Matrix<double, 3, 6> P;
  P << -skew(c), Eigen::Matrix3d::Identity();
  const Eigen::Vector3d v_l = P * eta;
  Eigen::Matrix<double, 3, 6> df_l = (g.R.transpose() * force.K_p * g.R) * P;
  df_l.leftCols<3>() += skew(f_l);
  const Eigen::Matrix3d K_v_l = g.R.transpose() * force.K_v * g.R;
  df_l.leftCols<3>() -= K_v_l * skew(v_l);
  Eigen::Matrix<double, 6, 3> A;
  A << skew(c), Eigen::Matrix3d::Identity();
  d_pose->noalias() += A * df_l;
  d_twist->noalias() += A * (K_v_l * P);
}

// a constant world force f at point c of frame j: pointForceWrench with K_p = K_v = 0, whose
// d_pose is [c~; I] [f_l~, 0] (buoyancy: one per fluid frame, so worth the shortcut)
void constantForceWrench(const SE3& g, const Eigen::Vector3d& c, const Eigen::Vector3d& f,
                         Vector6d& wrench, Matrix6d* d_pose) {
  const Eigen::Vector3d f_l = g.R.transpose() * f;
  wrench.head<3>() += c.cross(f_l);
  wrench.tail<3>() += f_l;
  if (!d_pose) return;
  const Eigen::Matrix3d F = skew(f_l);
  d_pose->topLeftCorner<3, 3>().noalias() += skew(c) * F;
  d_pose->bottomLeftCorner<3, 3>() += F;
}

// drag -D |v_c| eta_c at point c (link axes), eta_c = Ad_{(I,c)}^-1 eta; transported to the
// frame origin; d_twist = -Ad*_(I,c) D* Ad_(I,c)^-1 with D* = D (eta_c eta_c^T I_v / |v_c| +
// |v_c| 1) (docs/theory/gvs.md (62-65)), 0 at |v_c| = 0
void dragWrench(const Matrix6d& D, const Eigen::Vector3d& c, const Vector6d& eta, Vector6d& wrench,
                Matrix6d* d_twist) {
  SE3 g_c;
  g_c.p = c;
  const bool at_origin = c.isZero(0.0);  // a rod's computational point: no transport
  const Vector6d eta_c = at_origin ? eta : applyAdInv(g_c, eta);
  const double speed = eta_c.tail<3>().norm();
  if (!(speed > 0.0)) return;
  const Vector6d D_eta = D * eta_c;
  wrench -= at_origin ? Vector6d(speed * D_eta) : applyCoAd(g_c, speed * D_eta);
  if (!d_twist) return;
  Matrix6d D_star = speed * D;
  D_star.rightCols<3>().noalias() += D_eta * (eta_c.tail<3>().transpose() / speed);
  if (at_origin) {
    *d_twist -= D_star;
  } else {
    d_twist->noalias() -= coAd(g_c) * D_star * AdInv(g_c);
  }
}

// every environment load, one joint at a time (the compiled lists are sorted by joint): added to
// data.F with `sign` (0: not at all), and when sensitivities are wanted one entry per joint
void environmentLoads(const Model& model, Data& data, double sign, bool sensitivities) {
  const CompiledEnvironment& env = model.environment;
  if (!env.has_contact && !env.has_fluid && !model.has_added_mass) return;
  const Eigen::Vector3d a_g = model.gravity.tail<3>();
  std::size_t ic = 0, ifl = 0;
  for (int j = 0; j < model.n_vjoints(); ++j) {
    const VirtualJoint& joint = model.joints[j];
    const SE3& g = data.g[j];
    const Vector6d& eta = data.eta[j];
    Vector6d wrench = Vector6d::Zero();
    WrenchSensitivity entry;
    entry.joint = j;
    Matrix6d* d_pose = sensitivities ? &entry.d_pose : nullptr;
    Matrix6d* d_twist = sensitivities ? &entry.d_twist : nullptr;
    bool touched = false;
    // contact of the spheres carried by this frame
    for (; ic < env.contact_spheres.size() && env.contact_spheres[ic].joint == j; ++ic) {
      const CompiledContactSphere& sphere = env.contact_spheres[ic];
      const Eigen::Vector3d p = g.act(sphere.offset);
      const Eigen::Vector3d v = g.R * (eta.tail<3>() + eta.head<3>().cross(sphere.offset));
      PointForce force;
      contactForce(env, p, v, sphere.radius, force);
      if (force.f.isZero(0.0) && force.K_p.isZero(0.0) && force.K_v.isZero(0.0)) continue;
      pointForceWrench(g, eta, sphere.offset, force, wrench, d_pose, d_twist);
      touched = true;
    }
    // buoyancy -rho_w V a_g at the centre of buoyancy, and drag
    for (; ifl < env.fluid_frames.size() && env.fluid_frames[ifl].joint == j; ++ifl) {
      const CompiledEnvironment::FluidFrame& frame = env.fluid_frames[ifl];
      if (frame.displaced_mass > 0.0 && !a_g.isZero(0.0)) {
        constantForceWrench(g, frame.offset, -frame.displaced_mass * a_g, wrench, d_pose);
        touched = true;
      }
      if (frame.has_drag) {
        dragWrench(frame.drag, frame.offset, eta, wrench, d_twist);
        touched = true;
      }
    }
    // the added mass is fluid, not body: cancel the weight M_A Ad_g^-1 G that the base
    // acceleration -G gives it in the inertial term, F_ext = -M_A [0; R^T a_g]
    if (joint.has_added_mass && !a_g.isZero(0.0)) {
      const Eigen::Vector3d a_l = g.R.transpose() * a_g;
      wrench.noalias() -= joint.added_mass.rightCols<3>() * a_l;
      if (d_pose) d_pose->leftCols<3>().noalias() -= joint.added_mass.rightCols<3>() * skew(a_l);
      touched = true;
    }
    if (!touched) continue;
    if (sign != 0.0) data.F[j] += sign * wrench;
    if (sensitivities) data.load_sensitivities.push_back(entry);
  }
}

}  // namespace

Vector6d pointLoadWrench(const CompiledPointLoad& load, const Data& data, double t) {
  Vector6d wrench = load.scale(t) * load.wrench;
  if (load.frame == LoadFrame::Global) {
    // world axes to the local axes of the frame; the moment is about the application point
    const Eigen::Matrix3d R_T = data.g[load.joint].R.transpose();
    wrench.head<3>() = R_T * wrench.head<3>().eval();
    wrench.tail<3>() = R_T * wrench.tail<3>().eval();
  }
  wrench.head<3>() += load.offset.cross(wrench.tail<3>());
  return wrench;
}

void subtractExternalWrenches(const Model& model, Data& data, double t) {
  for (const CompiledPointLoad& load : model.point_loads)
    data.F[load.joint] -= pointLoadWrench(load, data, t);
  environmentLoads(model, data, -1.0, false);
}

void externalWrenchSensitivities(const Model& model, Data& data, double t) {
  data.load_sensitivities.clear();
  for (const CompiledPointLoad& load : model.point_loads) {
    if (load.frame != LoadFrame::Global) continue;  // a follower load moves with its frame
    // F_local = R^T F_world: a rotation dtheta of the frame changes R^T x by (R^T x) x dtheta
    // (docs/theory/gvs.md (54) corrected: -adbar*_F I_theta = ad_F I_theta)
    const double s = load.scale(t);
    const Eigen::Matrix3d R_T = data.g[load.joint].R.transpose();
    const Eigen::Vector3d m = s * (R_T * load.wrench.head<3>());
    const Eigen::Vector3d f = s * (R_T * load.wrench.tail<3>());
    WrenchSensitivity entry;
    entry.joint = load.joint;
    entry.d_pose.topLeftCorner<3, 3>() = skew(m) + skew(load.offset) * skew(f);
    entry.d_pose.bottomLeftCorner<3, 3>() = skew(f);
    data.load_sensitivities.push_back(entry);
  }
  environmentLoads(model, data, 0.0, true);
}

}  // namespace tendril
