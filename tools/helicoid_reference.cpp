// The reference of the seed paper's Simulation 1 (Pustina et al., arXiv 2402.07037, §4.1;
// docs/REPRODUCTION.md, "Simulation 1"): three LVP bodies in series whose tips follow three
// circles, held by nine tendons. For sampled times it solves the tendon statics with the three tips
// on their circles (core/algorithm/tendon_tip_statics.hpp: 24 equilibrium equations, 9 tip
// equations, 24 coordinates and 9 tensions), then writes
//   <examples>/helicoid_statics.json   the equilibrium tensions T_d(t) as spline tables, open loop
//   <examples>/helicoid_tracking.json  PFBL on the tendon lengths, set-points l_d(t) as spline
//                                       tables (with --tracking: needs controllers on LVP tendons)
//   <csv>                              t, the targets, q_d, T_d, l_d and the residuals per sample
// Usage: tendril_helicoid_reference [--examples DIR] [--csv FILE] [--tracking]
//        tendril_helicoid_reference --tips RUN.csv OUT.csv
//   (the second form: the three tips, in the base frame, of every sample of a `tendril-cli
//   simulate --out RUN.csv` run of either example, for tools/plot_helicoid.py)
// Every number of the examples comes from here: rerun it after changing the model.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numbers>
#include <string>
#include <vector>

#include "core/algorithm/data.hpp"
#include "core/algorithm/lvp_actuation.hpp"
#include "core/algorithm/tendon_tip_statics.hpp"
#include "core/io/json_io.hpp"
#include "core/io/results_io.hpp"
#include "core/math/lie.hpp"
#include "core/model/model.hpp"

namespace tendril {
namespace {

// §4.1 of the digest: three bodies of L = 0.1 m, R = 0.02 m, rho = 960 kg/m^3, C = 0.178 MPa,
// eta = 0.05 s; circles of radii 0.02/0.025/0.03 m at heights 0.08/0.15/0.24 m in the base frame,
// omega = 2 pi / 5 rad/s
constexpr int kBodies = 3;
constexpr double kLength = 0.1, kRadius = 0.02, kDensity = 960.0, kC = 0.178e6, kEta = 0.05;
constexpr double kPaperRadius[kBodies] = {0.02, 0.025, 0.03};
// The paper's circles are out of reach of this model with pulling tendons (docs/REPRODUCTION.md,
// Simulation 1): its heights ask each body to shorten by 20-30 %, i.e. 460-900 N of tendon
// compression, far past the Euler load of a 0.1 m body (about 130 N pinned), and its radii an
// S-shaped arm that needs pushing tendons. Chosen instead: every body 3 % shorter and the paper's
// radii times kRadiusScale, the largest round fraction whose tensions stay positive.
constexpr double kShortening = 0.03, kRadiusScale = 0.2;
constexpr double kCircleRadius[kBodies] = {
    kRadiusScale * kPaperRadius[0], kRadiusScale* kPaperRadius[1], kRadiusScale* kPaperRadius[2]};
constexpr double kCircleHeight[kBodies] = {
    (1 - kShortening) * kLength, (1 - kShortening) * 2 * kLength, (1 - kShortening) * 3 * kLength};
constexpr double kPeriod = 5.0;
// the base: the arm's axis x3 points down along gravity (roll pi), its base 0.35 m above the floor
const Placement kBase{{0.0, 0.0, 0.35}, {std::numbers::pi, 0.0, 0.0}};
// the reference: solved every kSample seconds over one period, tabulated (periodically) from
// kTableStart to kTableEnd so that the natural spline's free ends lie outside the run [0, 5.5] s
constexpr double kSample = 0.1, kTableStart = -1.0, kTableEnd = 6.5;
constexpr int kContinuationSteps = 20;  // from the straight rest shape to the first equilibrium

// Table 4 of the paper with its stretch mode s (1 - s) read as the axial strain: in Tendril's
// stretch primitive the parameter is the axial displacement / L (docs/theory/lvp.md (L3)), whose
// mode must then be the strain's integral s^2/2 - s^3/3. Table 4's s (1 - s) taken as the
// displacement vanishes at both ends: no Table 4 mode would move a tip along the body's axis, and
// the first circle (0.08 m below a 0.1 m body's base) would be out of reach.
std::vector<LvpPrimitiveDesc> helicoidPrimitives() {
  std::vector<LvpPrimitiveDesc> primitives = lvpTable4Primitives();
  primitives.front().modes = {{0.0, 0.0, 0.5, -1.0 / 3.0}};
  return primitives;
}

std::string bodyName(int i) {
  return "body" + std::to_string(i + 1);
}
std::string tendonName(int i, int k) {
  return "tendon" + std::to_string(i + 1) + "_" + std::to_string(k + 1);
}

// three bodies, each with three tendons from its base to its tip at 120 degrees, the triplets
// turned by 40 degrees from one body to the next (the paper: "in triplets from one body to its
// successor" along the outer perimeter; it gives no angles)
RobotDescription helicoidDescription() {
  RobotDescription robot;
  robot.name = "helicoid";
  robot.gravity = {0.0, 0.0, -9.81};
  for (int i = 0; i < kBodies; ++i) {
    LinkDesc link;
    link.name = bodyName(i);
    link.parent = i == 0 ? "world" : bodyName(i - 1);
    if (i == 0) link.origin = kBase;
    LvpBodyDesc body;
    body.length = kLength;
    body.radius = kRadius;
    body.density = kDensity;
    body.neo_hookean_c = kC;
    body.damping = kEta;
    body.primitives = helicoidPrimitives();
    link.body = body;
    robot.links.push_back(link);
    for (int k = 0; k < 3; ++k) {
      const double angle = 2.0 * std::numbers::pi * (k + i / 3.0) / 3.0;
      robot.lvp_tendons.push_back({tendonName(i, k),
                                   {{link.name, LvpAnchorDesc::End::Base, angle},
                                    {link.name, LvpAnchorDesc::End::Tip, angle}},
                                   TimeFunction::constant(0.0)});
    }
  }
  return robot;
}

// the tips' targets in the world at time t
std::vector<TipTarget> circleTargets(const Model& model, double t, double radius_scale = 1.0) {
  const double omega = 2.0 * std::numbers::pi / kPeriod;
  const Eigen::Matrix3d R = rpyToRotation(kBase.rpy[0], kBase.rpy[1], kBase.rpy[2]);
  const Eigen::Vector3d origin(kBase.position[0], kBase.position[1], kBase.position[2]);
  std::vector<TipTarget> targets;
  for (int i = 0; i < kBodies; ++i) {
    const double radius = radius_scale * kCircleRadius[i];
    const Eigen::Vector3d in_base(radius * std::cos(omega * t), radius * std::sin(omega * t),
                                  kCircleHeight[i]);
    TipTarget target;
    target.link = -1;
    for (std::size_t l = 0; l < model.links.size(); ++l) {
      if (model.links[l].name == bodyName(i)) target.link = static_cast<int>(l);
    }
    target.position = origin + R * in_base;
    targets.push_back(target);
  }
  return targets;
}

struct ReferenceSample {
  double t = 0.0;
  Eigen::VectorXd q, tensions, lengths;
  double force_residual = 0.0, position_residual = 0.0;
};

std::vector<ReferenceSample> solveReference(const Model& model, Data& data) {
  std::vector<ReferenceSample> samples;
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  Eigen::VectorXd tensions =
      Eigen::VectorXd::Zero(static_cast<Eigen::Index>(model.lvp_tendons.size()));
  const int count = static_cast<int>(std::lround(kPeriod / kSample));
  for (int s = 0; s < count; ++s) {
    const double t = s * kSample;
    const std::vector<TipTarget> targets = circleTargets(model, t);
    TendonTipStaticsResult result;
    if (s == 0) {
      result = tendonTipStaticsByContinuation(model, data, circleTargets(model, t, 0.0), q,
                                              tensions, kContinuationSteps);
      if (result.converged)
        result = tendonTipStaticsByContinuation(model, data, targets, result.q, result.tensions,
                                                kContinuationSteps);
    } else {
      result = tendonTipStatics(model, data, targets, q, tensions);
    }
    if (!result.converged)
      throw std::runtime_error("t = " + std::to_string(t) + ": " + result.message);
    if (result.tensions.minCoeff() < 0.0) {
      throw std::runtime_error("t = " + std::to_string(t) + ": a tendon would have to push (" +
                               std::to_string(result.tensions.minCoeff()) + " N)");
    }
    q = result.q;
    tensions = result.tensions;
    ReferenceSample sample{t,
                           q,
                           tensions,
                           Eigen::VectorXd(tensions.size()),
                           result.force_residual,
                           result.position_residual};
    for (Eigen::Index k = 0; k < tensions.size(); ++k)
      sample.lengths(k) = lvpTendonLength(model, data, static_cast<int>(k), q);
    samples.push_back(sample);
  }
  return samples;
}

// a spline table through one column of the periodic samples, from kTableStart to kTableEnd
TimeFunction periodicSpline(const std::vector<ReferenceSample>& samples,
                            double (*column)(const ReferenceSample&, Eigen::Index),
                            Eigen::Index k) {
  const auto count = static_cast<long>(samples.size());
  std::vector<std::array<double, 2>> points;
  const long first = std::lround(kTableStart / kSample), last = std::lround(kTableEnd / kSample);
  for (long s = first; s <= last; ++s) {
    const long wrapped = ((s % count) + count) % count;
    points.push_back({s * kSample, column(samples[static_cast<std::size_t>(wrapped)], k)});
  }
  return TimeFunction::spline(points);
}

// the tracking set-point of tendon k: the reference length l_ref(t) plus the gap from the
// straight rest shape, (l_rest - l_ref(0)) - l_ref'(0) t, faded out by a rest-to-rest cubic over
// [0, kBlendDuration], so that the run starts with y = y_d and y' = y_d' = 0. From the rest shape
// the paper's under-damped gains (K_P 10, K_D 1: damping ratio 0.16) would overshoot a 5-6 mm
// length step by ~60 % (two tendons pushing for 0.2 s, clamped at 0) and a 4 mm/s rate mismatch
// would leave 1 mm errors decaying as exp(-t / 2) (docs/REPRODUCTION.md, Simulation 1)
constexpr double kBlendDuration = 1.0;
double lengthOf(const ReferenceSample& s, Eigen::Index k) {
  return s.lengths(k);
}
TimeFunction blendedLengthSpline(const std::vector<ReferenceSample>& samples, Eigen::Index k,
                                 double rest_length) {
  const auto count = static_cast<long>(samples.size());
  const double gap = rest_length - samples.front().lengths(k);
  const double rate = periodicSpline(samples, lengthOf, k).derivative(0.0, 1);
  std::vector<std::array<double, 2>> points;
  const long first = std::lround(kTableStart / kSample), last = std::lround(kTableEnd / kSample);
  for (long s = first; s <= last; ++s) {
    const long wrapped = ((s % count) + count) % count;
    const double t = s * kSample, tau = std::clamp(t / kBlendDuration, 0.0, 1.0);
    const double faded = 1.0 - tau * tau * (3.0 - 2.0 * tau);
    points.push_back(
        {t, samples[static_cast<std::size_t>(wrapped)].lengths(k) + (gap - rate * t) * faded});
  }
  return TimeFunction::spline(points);
}

double tensionOf(const ReferenceSample& s, Eigen::Index k) {
  return s.tensions(k);
}

void writeCsv(const Model& model, const std::vector<ReferenceSample>& samples,
              const std::filesystem::path& path) {
  std::ofstream out(path);
  out.precision(17);
  out << "t";
  for (int i = 0; i < kBodies; ++i)
    out << ",target" << i + 1 << "_x,target" << i + 1 << "_y,target" << i + 1 << "_z";
  for (const std::string& name : model.coordinate_names) out << ",q:" << name;
  for (const CompiledLvpTendon& tendon : model.lvp_tendons) out << ",T:" << tendon.name;
  for (const CompiledLvpTendon& tendon : model.lvp_tendons) out << ",l:" << tendon.name;
  out << ",force_residual,tip_error\n";
  for (const ReferenceSample& s : samples) {
    out << s.t;
    for (const TipTarget& target : circleTargets(model, s.t))
      out << ',' << target.position.x() << ',' << target.position.y() << ',' << target.position.z();
    for (double x : s.q) out << ',' << x;
    for (double x : s.tensions) out << ',' << x;
    for (double x : s.lengths) out << ',' << x;
    out << ',' << s.force_residual << ',' << s.position_residual << '\n';
  }
}

// the three tips in the base frame along a recorded run
void writeTips(const std::filesystem::path& run, const std::filesystem::path& path) {
  const Model model = buildModel(helicoidDescription());
  Data data(model);
  const std::vector<Sample> samples = loadTrajectoryCsv(model, run);
  const Eigen::Matrix3d R = rpyToRotation(kBase.rpy[0], kBase.rpy[1], kBase.rpy[2]);
  const Eigen::Vector3d origin(kBase.position[0], kBase.position[1], kBase.position[2]);
  std::ofstream out(path);
  out.precision(12);
  out << "t";
  for (int i = 0; i < kBodies; ++i)
    out << ",tip" << i + 1 << "_x,tip" << i + 1 << "_y,tip" << i + 1 << "_z";
  out << '\n';
  for (const Sample& sample : samples) {
    const Eigen::VectorXd tips = tipPositions(model, data, {0, 1, 2}, sample.q);
    out << sample.t;
    for (int i = 0; i < kBodies; ++i) {
      const Eigen::Vector3d in_base = R.transpose() * (tips.segment<3>(3 * i) - origin);
      out << ',' << in_base.x() << ',' << in_base.y() << ',' << in_base.z();
    }
    out << '\n';
  }
}

const char* kStaticsText =
    "The seed paper's Simulation 1 robot (Pustina et al., arXiv 2402.07037, section 4.1; "
    "docs/REPRODUCTION.md, Simulation 1): three LVP bodies (L = 0.1 m, R = 0.02 m, rho = 960 "
    "kg/m^3, C = 0.178 MPa, eta = 0.05 s, Table 4 primitives with the stretch mode read as the "
    "axial strain s(1-s)), nine tendons in triplets (base to tip of each body), the base turned so "
    "that the arm hangs along gravity. Open loop: each tension is the equilibrium tension T_d(t) "
    "that holds the three tips on three circles of period 5 s (the paper's radii times 0.2, every "
    "body 3 % shorter than at rest: the paper's own circles need pushing tendons and loads past "
    "buckling here), a natural cubic spline through statics solved every 0.1 s. Written by "
    "tools/helicoid_reference.cpp; do not edit by hand.";

const char* kTrackingText =
    "The seed paper's Simulation 1 (Pustina et al., arXiv 2402.07037, section 4.1; "
    "docs/REPRODUCTION.md, Simulation 1): the robot of helicoid_statics.json from the straight "
    "rest shape, its nine tendon lengths driven to the reference l_d(t) (the equilibria with the "
    "tips on the three circles, statics solved every 0.1 s; the gap from the rest lengths "
    "and rates faded out by a rest-to-rest cubic over the first second; a natural cubic spline) by "
    "partial feedback linearisation, K_P = 10, K_D = 1 (the paper's gains), tensions >= 0. "
    "Written by tools/helicoid_reference.cpp; do not edit by hand.";

}  // namespace
}  // namespace tendril

int main(int argc, char** argv) {
  using namespace tendril;
  std::filesystem::path examples = "resources/examples", csv;
  bool tracking = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--tips" && a + 2 < argc) {
      try {
        writeTips(argv[a + 1], argv[a + 2]);
      } catch (const std::exception& error) {
        std::cerr << "helicoid tips: " << error.what() << '\n';
        return 1;
      }
      return 0;
    }
    if (arg == "--examples" && a + 1 < argc) {
      examples = argv[++a];
    } else if (arg == "--csv" && a + 1 < argc) {
      csv = argv[++a];
    } else if (arg == "--tracking") {
      tracking = true;
    } else {
      std::cerr << "usage: tendril_helicoid_reference [--examples DIR] [--csv FILE] [--tracking]\n";
      return 2;
    }
  }
  try {
    RobotDescription robot = helicoidDescription();
    const Model model = buildModel(robot);
    Data data(model);
    const std::vector<ReferenceSample> samples = solveReference(model, data);
    double worst_force = 0.0, worst_tip = 0.0, least = 1e300, most = 0.0;
    for (const ReferenceSample& s : samples) {
      worst_force = std::max(worst_force, s.force_residual);
      worst_tip = std::max(worst_tip, s.position_residual);
      least = std::min(least, s.tensions.minCoeff());
      most = std::max(most, s.tensions.maxCoeff());
    }
    std::printf(
        "%zu equilibria: force residual <= %.2e N, tip error <= %.2e m, tensions %.3f to %.3f N\n",
        samples.size(), worst_force, worst_tip, least, most);
    if (!csv.empty()) writeCsv(model, samples, csv);

    robot.description = kStaticsText;
    for (std::size_t k = 0; k < robot.lvp_tendons.size(); ++k)
      robot.lvp_tendons[k].tension =
          periodicSpline(samples, tensionOf, static_cast<Eigen::Index>(k));
    saveRobot(robot, examples / "helicoid_statics.json");
    std::printf("wrote %s\n", (examples / "helicoid_statics.json").string().c_str());
    if (tracking) {
      // PFBL on the nine tendon lengths with the paper's gains; the tendons only pull
      RobotDescription tracked = helicoidDescription();
      tracked.name = "helicoid_tracking";
      tracked.description = kTrackingText;
      ControllerDesc controller;
      controller.name = "tendon_length_pfbl";
      controller.type = ControllerDesc::Type::CollocatedPfbl;
      for (std::size_t k = 0; k < tracked.lvp_tendons.size(); ++k) {
        ControlledVariableDesc variable;
        variable.kind = ControlledVariableDesc::Kind::TendonLength;
        variable.name = tracked.lvp_tendons[k].name;
        variable.setpoint = blendedLengthSpline(
            samples, static_cast<Eigen::Index>(k),
            lvpTendonLength(model, data, static_cast<int>(k), Eigen::VectorXd::Zero(model.nq)));
        controller.controlled.push_back(variable);
        ControllerInputDesc input;
        input.name = tracked.lvp_tendons[k].name;
        input.min = 0.0;
        controller.inputs.push_back(input);
      }
      controller.kp = {10.0};
      controller.kd = {1.0};
      tracked.controllers.push_back(controller);
      saveRobot(tracked, examples / "helicoid_tracking.json");
      std::printf("wrote %s\n", (examples / "helicoid_tracking.json").string().c_str());
    }
  } catch (const std::exception& error) {
    std::cerr << "helicoid reference: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
