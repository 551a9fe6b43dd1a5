#include "core/io/json_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/model/validate.hpp"

namespace tendril {
namespace {

using Json = nlohmann::ordered_json;

// names of enum values as they appear in files
const std::map<JointType, std::string> kJointNames = {{JointType::Fixed, "fixed"},
                                                      {JointType::Revolute, "revolute"},
                                                      {JointType::Prismatic, "prismatic"},
                                                      {JointType::Helical, "helical"},
                                                      {JointType::Cylindrical, "cylindrical"},
                                                      {JointType::Universal, "universal"},
                                                      {JointType::Planar, "planar"},
                                                      {JointType::Spherical, "spherical"},
                                                      {JointType::Free, "free"}};
const std::map<ShapeType, std::string> kShapeNames = {{ShapeType::Box, "box"},
                                                      {ShapeType::Cylinder, "cylinder"},
                                                      {ShapeType::Sphere, "sphere"},
                                                      {ShapeType::Mesh, "mesh"}};
const std::map<SectionShape, std::string> kSectionNames = {
    {SectionShape::Circular, "circular"}, {SectionShape::Rectangular, "rectangular"}};
const std::map<BasisFamily, std::string> kBasisNames = {
    {BasisFamily::Monomial, "monomial"},   {BasisFamily::Legendre, "legendre"},
    {BasisFamily::Chebyshev, "chebyshev"}, {BasisFamily::Fourier, "fourier"},
    {BasisFamily::Gaussian, "gaussian"},   {BasisFamily::PiecewiseConstant, "piecewise_constant"}};
const std::map<CurvatureModel, std::string> kCurvatureModelNames = {
    {CurvatureModel::Planar, "planar"}, {CurvatureModel::Spatial, "spatial"}};
const std::map<StressModel, std::string> kStressModelNames = {
    {StressModel::LinearElastic, "linear_elastic"}};
const std::array<const char*, 6> kStrainNames = {"torsion", "bend_y",  "bend_z",
                                                 "stretch", "shear_y", "shear_z"};

/// A JSON object being read: knows its pointer, and at the end rejects keys nobody asked for.
class ObjectReader {
 public:
  ObjectReader(const Json& json, std::string pointer) : json_(json), pointer_(std::move(pointer)) {
    if (!json_.is_object()) fail(pointer_, "expected an object");
  }

  [[noreturn]] static void fail(const std::string& pointer, const std::string& reason) {
    throw ParseError(pointer, reason);
  }

  std::string at(const std::string& key) const { return pointer_ + "/" + key; }
  bool has(const std::string& key) const { return json_.contains(key); }

  const Json& required(const std::string& key) {
    seen_.insert(key);
    if (!json_.contains(key)) fail(at(key), "missing required field");
    return json_.at(key);
  }
  const Json* optional(const std::string& key) {
    seen_.insert(key);
    return json_.contains(key) ? &json_.at(key) : nullptr;
  }

  double number(const std::string& key, std::optional<double> fallback = std::nullopt) {
    const Json* value = fallback ? optional(key) : &required(key);
    if (!value) return *fallback;
    return asNumber(*value, at(key));
  }
  double positive(const std::string& key, std::optional<double> fallback = std::nullopt) {
    const double x = number(key, fallback);
    if (!(x > 0.0)) fail(at(key), "must be positive, got " + format(x));
    return x;
  }
  double nonNegative(const std::string& key, std::optional<double> fallback = std::nullopt) {
    const double x = number(key, fallback);
    if (!(x >= 0.0)) fail(at(key), "must not be negative, got " + format(x));
    return x;
  }
  int integer(const std::string& key, std::optional<int> fallback = std::nullopt) {
    const Json* value = fallback ? optional(key) : &required(key);
    if (!value) return *fallback;
    if (!value->is_number_integer()) fail(at(key), "expected an integer");
    const auto wide = value->get<long long>();
    if (wide < -1000000 || wide > 1000000) fail(at(key), "integer out of range");
    return static_cast<int>(wide);
  }
  std::string string(const std::string& key, std::optional<std::string> fallback = std::nullopt) {
    const Json* value = fallback ? optional(key) : &required(key);
    if (!value) return *fallback;
    if (!value->is_string()) fail(at(key), "expected a string");
    return value->get<std::string>();
  }
  template <std::size_t N>
  std::array<double, N> numbers(const std::string& key, std::array<double, N> fallback) {
    const Json* value = optional(key);
    if (!value) return fallback;
    return asNumbers<N>(*value, at(key));
  }
  template <class Enum>
  Enum enumeration(const std::string& key, const std::map<Enum, std::string>& names,
                   std::optional<Enum> fallback = std::nullopt) {
    const std::string name =
        string(key, fallback ? std::optional(names.at(*fallback)) : std::nullopt);
    for (const auto& [value, text] : names) {
      if (text == name) return value;
    }
    std::string allowed;
    for (const auto& entry : names) allowed += (allowed.empty() ? "" : ", ") + entry.second;
    fail(at(key), "unknown value \"" + name + "\" (expected one of: " + allowed + ")");
  }

  void rejectUnknownKeys() const {
    for (const auto& item : json_.items()) {
      if (!seen_.count(item.key())) fail(at(item.key()), "unknown key");
    }
  }

  static double asNumber(const Json& value, const std::string& pointer) {
    if (!value.is_number()) fail(pointer, "expected a number");
    const double x = value.get<double>();
    if (!std::isfinite(x)) fail(pointer, "expected a finite number");
    return x;
  }
  template <std::size_t N>
  static std::array<double, N> asNumbers(const Json& value, const std::string& pointer) {
    if (!value.is_array() || value.size() != N) {
      fail(pointer, "expected an array of " + std::to_string(N) + " numbers");
    }
    std::array<double, N> out{};
    for (std::size_t i = 0; i < N; ++i)
      out[i] = asNumber(value[i], pointer + "/" + std::to_string(i));
    return out;
  }
  static std::string format(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
  }

 private:
  const Json& json_;
  std::string pointer_;
  std::set<std::string> seen_;
};

Placement readPlacement(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  Placement p;
  p.position = in.numbers<3>("position", p.position);
  p.rpy = in.numbers<3>("rpy", p.rpy);
  in.rejectUnknownKeys();
  return p;
}

Vec3 readAxis(ObjectReader& in, const std::string& key, Vec3 fallback) {
  const Vec3 axis = in.numbers<3>(key, fallback);
  const double norm = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  if (!(norm > 1e-12)) ObjectReader::fail(in.at(key), "axis must not be zero");
  // a unit axis stays as written: dividing by a norm one ulp off 1 would change it on every load
  if (std::abs(norm - 1.0) <= 4.0 * std::numeric_limits<double>::epsilon()) return axis;
  return {axis[0] / norm, axis[1] / norm, axis[2] / norm};
}

// each limit is optional; the position range, when given whole, must not be empty
JointLimitsDesc readJointLimits(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  JointLimitsDesc limits;
  const auto optional = [&in](const std::string& key, bool signed_value) -> std::optional<double> {
    if (!in.has(key)) return std::nullopt;
    return signed_value ? in.number(key) : in.nonNegative(key);
  };
  limits.lower = optional("lower", true);
  limits.upper = optional("upper", true);
  limits.velocity = optional("velocity", false);
  limits.effort = optional("effort", false);
  limits.damping = optional("damping", false);
  limits.friction = optional("friction", false);
  if (limits.lower && limits.upper && *limits.lower > *limits.upper)
    ObjectReader::fail(in.at("upper"), "must not be below lower");
  in.rejectUnknownKeys();
  return limits;
}

JointDesc readJoint(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  JointDesc joint;
  joint.type = in.enumeration("type", kJointNames);
  joint.axis = readAxis(in, "axis", joint.axis);
  joint.pitch = in.number("pitch", 0.0);
  if (const Json* limits = in.optional("limits"))
    joint.limits = readJointLimits(*limits, in.at("limits"));
  in.rejectUnknownKeys();
  return joint;
}

ShapeDesc readShape(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ShapeDesc shape;
  shape.type = in.enumeration("type", kShapeNames);
  shape.size = in.numbers<3>("size", shape.size);
  shape.color = in.numbers<3>("color", shape.color);
  if (const Json* origin = in.optional("origin"))
    shape.origin = readPlacement(*origin, in.at("origin"));
  if (shape.type == ShapeType::Mesh) {
    shape.mesh = in.string("file");
    if (shape.mesh.empty()) ObjectReader::fail(in.at("file"), "must name a mesh file");
    shape.scale = in.numbers<3>("scale", shape.scale);
    for (int i = 0; i < 3; ++i) {
      if (shape.scale[i] == 0.0)
        ObjectReader::fail(in.at("scale/" + std::to_string(i)), "must not be zero");
    }
    shape.box_centre = in.numbers<3>("box_centre", shape.box_centre);
  }
  const int used = shape.type == ShapeType::Cylinder ? 2 : shape.type == ShapeType::Sphere ? 1 : 3;
  for (int i = 0; i < used; ++i) {
    if (!(shape.size[i] > 0.0))
      ObjectReader::fail(in.at("size/" + std::to_string(i)), "must be positive");
  }
  for (int i = 0; i < 3; ++i) {
    if (shape.color[i] < 0.0 || shape.color[i] > 1.0) {
      ObjectReader::fail(in.at("color/" + std::to_string(i)), "must lie in [0, 1]");
    }
  }
  in.rejectUnknownKeys();
  return shape;
}

RigidBodyDesc readRigid(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  RigidBodyDesc body;
  body.mass = in.positive("mass");
  body.com = in.numbers<3>("com", body.com);
  body.inertia = in.numbers<6>("inertia", body.inertia);
  if (const Json* tip = in.optional("tip")) body.tip = readPlacement(*tip, in.at("tip"));
  if (const Json* shape = in.optional("shape")) body.shape = readShape(*shape, in.at("shape"));
  in.rejectUnknownKeys();
  return body;
}

// a linearly tapering size given as [start, end] (or one number for a constant size)
std::array<double, 2> readTaper(ObjectReader& in, const std::string& key) {
  const Json& value = in.required(key);
  if (value.is_number()) {
    const double x = ObjectReader::asNumber(value, in.at(key));
    if (!(x > 0.0)) ObjectReader::fail(in.at(key), "must be positive");
    return {x, x};
  }
  const auto pair = ObjectReader::asNumbers<2>(value, in.at(key));
  for (int i = 0; i < 2; ++i) {
    if (!(pair[i] > 0.0))
      ObjectReader::fail(in.at(key + "/" + std::to_string(i)), "must be positive");
  }
  return pair;
}

CrossSectionDesc readSection(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  CrossSectionDesc section;
  section.shape = in.enumeration("shape", kSectionNames);
  if (section.shape == SectionShape::Circular) {
    const auto radius = readTaper(in, "radius");
    section.radius_start = radius[0];
    section.radius_end = radius[1];
  } else {
    const auto width = readTaper(in, "width");
    const auto height = readTaper(in, "height");
    section.width_start = width[0];
    section.width_end = width[1];
    section.height_start = height[0];
    section.height_end = height[1];
  }
  in.rejectUnknownKeys();
  return section;
}

// A modulus far beyond any solid's makes the rod so stiff that no integrator can step it; a part
// that should not deform is a rigid link. Diamond's Young's modulus is about 1.2e12 Pa.
constexpr double kStiffestModulus = 1e13;

void rejectBeyondAnyMaterial(ObjectReader& in, const std::string& key, double modulus) {
  if (modulus > kStiffestModulus) {
    ObjectReader::fail(in.at(key), ObjectReader::format(modulus) +
                                       " Pa is stiffer than any material (diamond: 1.2e12 Pa, the "
                                       "limit is 1e13 Pa); make a part that must not bend a rigid "
                                       "link");
  }
}

MaterialDesc readMaterial(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  MaterialDesc material;
  material.youngs_modulus = in.positive("youngs_modulus");
  rejectBeyondAnyMaterial(in, "youngs_modulus", material.youngs_modulus);
  material.density = in.positive("density");
  material.damping = in.nonNegative("damping", 0.0);
  if (in.has("shear_modulus")) {
    if (in.has("poisson_ratio")) {
      ObjectReader::fail(in.at("shear_modulus"),
                         "give either poisson_ratio or shear_modulus, not both");
    }
    material.shear_modulus = in.positive("shear_modulus");
    rejectBeyondAnyMaterial(in, "shear_modulus", *material.shear_modulus);
    material.poisson_ratio.reset();
  } else {
    const double nu = in.number("poisson_ratio");
    if (!(nu > -1.0 && nu <= 0.5)) {
      ObjectReader::fail(in.at("poisson_ratio"),
                         "must lie in (-1, 0.5], got " + ObjectReader::format(nu));
    }
    material.poisson_ratio = nu;
  }
  in.rejectUnknownKeys();
  return material;
}

StrainBasisDesc readBasis(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  StrainBasisDesc basis;
  basis.family = in.enumeration("family", kBasisNames);
  ObjectReader orders(in.required("order"), in.at("order"));
  for (int i = 0; i < 6; ++i) {
    const int order = orders.integer(kStrainNames[i], -1);
    if (order < -1) {
      ObjectReader::fail(orders.at(kStrainNames[i]),
                         "order must be -1 (off) or >= 0, got " + std::to_string(order));
    }
    if (order > 20)
      ObjectReader::fail(orders.at(kStrainNames[i]), "order above 20 is not supported");
    basis.order[i] = order;
  }
  orders.rejectUnknownKeys();
  in.rejectUnknownKeys();
  return basis;
}

DivisionDesc readDivision(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  DivisionDesc division;
  if (const Json* origin = in.optional("origin"))
    division.origin = readPlacement(*origin, in.at("origin"));
  division.length = in.positive("length");
  division.section = readSection(in.required("section"), in.at("section"));
  division.material = readMaterial(in.required("material"), in.at("material"));
  division.basis = readBasis(in.required("basis"), in.at("basis"));
  division.reference_strain = in.numbers<6>("reference_strain", division.reference_strain);
  division.gauss_points = in.integer("gauss_points", division.gauss_points);
  if (division.gauss_points < 1 || division.gauss_points > 30) {
    ObjectReader::fail(in.at("gauss_points"), "must lie in [1, 30]");
  }
  in.rejectUnknownKeys();
  return division;
}

SoftBodyDesc readSoft(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  SoftBodyDesc soft;
  soft.magnus_order = in.integer("magnus_order", 4);
  if (soft.magnus_order != 2 && soft.magnus_order != 4)
    ObjectReader::fail(in.at("magnus_order"), "must be 2 or 4");
  const Json& divisions = in.required("divisions");
  if (!divisions.is_array() || divisions.empty()) {
    ObjectReader::fail(in.at("divisions"), "expected a non-empty array of divisions");
  }
  soft.divisions.clear();
  for (std::size_t i = 0; i < divisions.size(); ++i) {
    soft.divisions.push_back(readDivision(divisions[i], in.at("divisions/" + std::to_string(i))));
  }
  in.rejectUnknownKeys();
  return soft;
}

ConstantCurvatureBodyDesc readConstantCurvature(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ConstantCurvatureBodyDesc body;
  body.model = in.enumeration("model", kCurvatureModelNames);
  body.length = in.positive("length");
  body.radius = in.positive("radius");
  body.material = readMaterial(in.required("material"), in.at("material"));
  body.stress = in.enumeration("stress_model", kStressModelNames, std::optional(body.stress));
  body.gauss_points = in.integer("gauss_points", body.gauss_points);
  if (body.gauss_points < 1 || body.gauss_points > 30)
    ObjectReader::fail(in.at("gauss_points"), "must lie in [1, 30]");
  in.rejectUnknownKeys();
  return body;
}

LvpPrimitiveDesc readLvpPrimitive(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  LvpPrimitiveDesc primitive;
  const std::string type = in.string("type");
  const auto known = lvpPrimitiveFromName(type);
  if (!known) {
    ObjectReader::fail(in.at("type"), "unknown primitive \"" + type +
                                          "\" (expected one of: stretch, bend_x1, bend_x2, "
                                          "twist, shear_x1, shear_x2, source)");
  }
  primitive.type = *known;
  const auto coefficients = [&](const Json& value, const std::string& at) {
    if (!value.is_array() || value.empty() ||
        value.size() > static_cast<std::size_t>(kLvpMaxCoefficients)) {
      ObjectReader::fail(at, "expected 1 to 8 polynomial coefficients (c0, c1, ... of s = x3/L)");
    }
    std::vector<double> out;
    for (std::size_t i = 0; i < value.size(); ++i)
      out.push_back(ObjectReader::asNumber(value[i], at + "/" + std::to_string(i)));
    return out;
  };
  const Json& modes = in.required("modes");
  if (!modes.is_array()) ObjectReader::fail(in.at("modes"), "expected an array of polynomials");
  for (std::size_t k = 0; k < modes.size(); ++k)
    primitive.modes.push_back(coefficients(modes[k], in.at("modes/" + std::to_string(k))));
  if (const Json* rest = in.optional("rest")) primitive.rest = coefficients(*rest, in.at("rest"));
  in.rejectUnknownKeys();
  return primitive;
}

LvpBodyDesc readLvp(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  LvpBodyDesc body;
  body.length = in.positive("length");
  body.radius = in.positive("radius");
  body.cavity_radius = in.nonNegative("cavity_radius", 0.0);
  body.density = in.positive("density");
  body.neo_hookean_c = in.nonNegative("C");
  body.damping = in.nonNegative("eta", 0.0);
  const Json& primitives = in.required("primitives");
  if (primitives.is_string()) {  // a preset
    const std::string name = primitives.get<std::string>();
    if (name == "table4") {
      body.primitives = lvpTable4Primitives();
    } else if (name == "table5") {
      body.primitives = lvpTable5Primitives();
    } else {
      ObjectReader::fail(in.at("primitives"),
                         "unknown preset \"" + name + "\" (expected table4 or table5)");
    }
  } else if (primitives.is_array()) {
    body.primitives.clear();
    for (std::size_t i = 0; i < primitives.size(); ++i) {
      body.primitives.push_back(
          readLvpPrimitive(primitives[i], in.at("primitives/" + std::to_string(i))));
    }
  } else {
    ObjectReader::fail(in.at("primitives"), "expected an array of primitives or a preset name");
  }
  if (const Json* quadrature = in.optional("quadrature")) {
    ObjectReader rule(*quadrature, in.at("quadrature"));
    body.quadrature.axial = rule.integer("axial", body.quadrature.axial);
    body.quadrature.radial = rule.integer("radial", body.quadrature.radial);
    body.quadrature.angular = rule.integer("angular", body.quadrature.angular);
    rule.rejectUnknownKeys();
  }
  in.rejectUnknownKeys();
  if (const auto problem = findLvpBodyProblem(body, pointer))
    ObjectReader::fail(problem->pointer, problem->reason);
  return body;
}

LinkDesc readLink(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  LinkDesc link;
  link.name = in.string("name");
  if (link.name.empty() || link.name == "world")
    ObjectReader::fail(in.at("name"), "must be non-empty and not \"world\"");
  link.parent = in.string("parent", "world");
  if (const Json* origin = in.optional("origin"))
    link.origin = readPlacement(*origin, in.at("origin"));
  if (const Json* joint = in.optional("joint")) link.joint = readJoint(*joint, in.at("joint"));
  // the body: exactly one of the kinds' keys
  const bool rigid = in.has("rigid"), soft = in.has("soft"),
             curvature = in.has("constant_curvature"), lvp = in.has("lvp");
  if (rigid + soft + curvature + lvp != 1) {
    ObjectReader::fail(pointer,
                       "a link needs exactly one of \"rigid\", \"soft\", "
                       "\"constant_curvature\" or \"lvp\"");
  }
  if (lvp) {
    link.body = readLvp(in.required("lvp"), in.at("lvp"));
  } else if (rigid) {
    link.body = readRigid(in.required("rigid"), in.at("rigid"));
  } else if (soft) {
    link.body = readSoft(in.required("soft"), in.at("soft"));
  } else {
    link.body =
        readConstantCurvature(in.required("constant_curvature"), in.at("constant_curvature"));
  }
  in.rejectUnknownKeys();
  return link;
}

TimeFunction readTimeFunction(const Json& json, const std::string& pointer) {
  TimeFunction f;
  if (json.is_number()) {
    f.value = ObjectReader::asNumber(json, pointer);
    return f;
  }
  ObjectReader in(json, pointer);
  static const std::map<TimeFunction::Kind, std::string> kinds = {
      {TimeFunction::Kind::Constant, "constant"},
      {TimeFunction::Kind::Ramp, "ramp"},
      {TimeFunction::Kind::Sine, "sine"},
      {TimeFunction::Kind::Table, "table"},
      {TimeFunction::Kind::Cubic, "cubic"}};
  f.kind = in.enumeration("type", kinds);
  switch (f.kind) {
    case TimeFunction::Kind::Constant:
      f.value = in.number("value");
      break;
    case TimeFunction::Kind::Ramp:
      f.value = in.number("value");
      f.start = in.nonNegative("start", 0.0);
      f.duration = in.nonNegative("duration", 1.0);
      break;
    case TimeFunction::Kind::Cubic:
      f.initial = in.number("from");
      f.value = in.number("to");
      f.start = in.nonNegative("start", 0.0);
      f.duration = in.positive("duration");
      break;
    case TimeFunction::Kind::Sine:
      f.amplitude = in.number("amplitude");
      f.frequency = in.nonNegative("frequency");
      f.phase = in.number("phase", 0.0);
      f.offset = in.number("offset", 0.0);
      break;
    case TimeFunction::Kind::Table: {
      const Json& points = in.required("points");
      if (!points.is_array() || points.empty())
        ObjectReader::fail(in.at("points"), "expected a non-empty array of [t, value]");
      for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string at = in.at("points/" + std::to_string(i));
        f.table.push_back(ObjectReader::asNumbers<2>(points[i], at));
        if (i > 0 && !(f.table[i][0] > f.table[i - 1][0]))
          ObjectReader::fail(at + "/0", "times must increase");
      }
      static const std::map<TimeFunction::Interpolation, std::string> interpolations = {
          {TimeFunction::Interpolation::Linear, "linear"},
          {TimeFunction::Interpolation::Spline, "spline"}};
      f.interpolation = in.enumeration("interpolation", interpolations,
                                       std::optional(TimeFunction::Interpolation::Linear));
      if (in.has("end_slopes")) {
        if (f.interpolation != TimeFunction::Interpolation::Spline)
          ObjectReader::fail(in.at("end_slopes"),
                             "end slopes clamp a spline: set \"interpolation\": \"spline\"");
        if (f.table.size() < 2)
          ObjectReader::fail(in.at("end_slopes"), "a clamped spline needs at least 2 points");
        f.end_slopes = in.numbers<2>("end_slopes", {0.0, 0.0});
      }
      if (f.interpolation == TimeFunction::Interpolation::Spline) f.prepareSpline();
      break;
    }
  }
  in.rejectUnknownKeys();
  return f;
}

std::vector<double> readPolynomial(ObjectReader& in, const std::string& key) {
  const Json* value = in.optional(key);
  if (!value) return {0.0};
  if (value->is_number()) return {ObjectReader::asNumber(*value, in.at(key))};
  if (!value->is_array() || value->empty() || value->size() > 16) {
    ObjectReader::fail(in.at(key), "expected a number or 1 to 16 polynomial coefficients");
  }
  std::vector<double> coefficients;
  for (std::size_t i = 0; i < value->size(); ++i) {
    coefficients.push_back(
        ObjectReader::asNumber((*value)[i], in.at(key + "/" + std::to_string(i))));
  }
  return coefficients;
}

LvpTendonDesc readLvpTendon(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  LvpTendonDesc tendon;
  tendon.name = in.string("name");
  const Json& anchors = in.required("anchors");
  if (!anchors.is_array()) ObjectReader::fail(in.at("anchors"), "expected an array of anchors");
  static const std::map<LvpAnchorDesc::End, std::string> ends = {{LvpAnchorDesc::End::Base, "base"},
                                                                 {LvpAnchorDesc::End::Tip, "tip"}};
  for (std::size_t i = 0; i < anchors.size(); ++i) {
    ObjectReader anchor_in(anchors[i], in.at("anchors/" + std::to_string(i)));
    LvpAnchorDesc anchor;
    anchor.link = anchor_in.string("link");
    anchor.end = anchor_in.enumeration("end", ends);
    anchor.angle = anchor_in.number("angle", 0.0);
    anchor_in.rejectUnknownKeys();
    tendon.anchors.push_back(anchor);
  }
  tendon.tension = readTimeFunction(in.required("tension"), in.at("tension"));
  in.rejectUnknownKeys();
  return tendon;
}

CavityPressureDesc readCavityPressure(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  CavityPressureDesc pressure;
  pressure.name = in.string("name");
  pressure.link = in.string("link");
  pressure.pressure = readTimeFunction(in.required("pressure"), in.at("pressure"));
  in.rejectUnknownKeys();
  return pressure;
}

CableDesc readCable(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  CableDesc cable;
  cable.name = in.string("name");
  cable.link = in.string("link");
  const Json& path = in.required("path");
  if (!path.is_array() || path.empty())
    ObjectReader::fail(in.at("path"), "expected a non-empty array of segments");
  for (std::size_t i = 0; i < path.size(); ++i) {
    ObjectReader segment_in(path[i], in.at("path/" + std::to_string(i)));
    CableSegmentDesc segment;
    segment.division = segment_in.integer("division");
    segment.y = readPolynomial(segment_in, "y");
    segment.z = readPolynomial(segment_in, "z");
    segment_in.rejectUnknownKeys();
    cable.path.push_back(segment);
  }
  if (const Json* tension = in.optional("tension"))
    cable.tension = readTimeFunction(*tension, in.at("tension"));
  in.rejectUnknownKeys();
  return cable;
}

PointLoadDesc readPointLoad(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  PointLoadDesc load;
  load.name = in.string("name");
  load.link = in.string("link");
  load.abscissa = in.number("abscissa", 0.0);
  load.offset = in.numbers<3>("offset", load.offset);
  static const std::map<LoadFrame, std::string> frames = {{LoadFrame::Local, "local"},
                                                          {LoadFrame::Global, "global"}};
  load.frame = in.enumeration("frame", frames, std::optional(LoadFrame::Local));
  load.wrench = in.numbers<6>("wrench", load.wrench);
  if (const Json* scale = in.optional("scale"))
    load.scale = readTimeFunction(*scale, in.at("scale"));
  in.rejectUnknownKeys();
  return load;
}

JointInputDesc readJointInput(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  JointInputDesc input;
  input.name = in.string("name", "");
  input.link = in.string("link");
  input.dof = in.integer("dof", 0);
  static const std::map<JointInputDesc::Mode, std::string> modes = {
      {JointInputDesc::Mode::Force, "force"}, {JointInputDesc::Mode::Position, "position"}};
  input.mode = in.enumeration("mode", modes, std::optional(JointInputDesc::Mode::Force));
  input.value = readTimeFunction(in.required("value"), in.at("value"));
  in.rejectUnknownKeys();
  return input;
}

// a tip position's world axis (ControlledVariableDesc::axis 0, 1, 2)
enum class TipAxis { X, Y, Z };
const std::map<TipAxis, std::string> kTipAxisNames = {
    {TipAxis::X, "x"}, {TipAxis::Y, "y"}, {TipAxis::Z, "z"}};

const std::map<ControllerWindowDesc::After, std::string> kControllerAfterNames = {
    {ControllerWindowDesc::After::Off, "off"}, {ControllerWindowDesc::After::Hold, "hold"}};

const std::map<ControllerDesc::Type, std::string> kControllerTypeNames = {
    {ControllerDesc::Type::PdGravityCompensation, "pd_gravity_compensation"},
    {ControllerDesc::Type::ComputedTorque, "computed_torque"},
    {ControllerDesc::Type::CollocatedPfbl, "collocated_pfbl"}};

// {"coordinate": name} | {"link": name, "dof": k} (the joint's coordinate, "link/joint/k") |
// {"cable_length": name} | {"tendon_length": name} (an LVP tendon) |
// {"tip_position": link, "axis": "x" | "y" | "z"}, each with its "setpoint"
ControlledVariableDesc readControlledVariable(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ControlledVariableDesc variable;
  const bool coordinate = in.has("coordinate"), joint = in.has("link"),
             cable = in.has("cable_length"), tendon = in.has("tendon_length"),
             tip = in.has("tip_position");
  if (coordinate + joint + cable + tendon + tip != 1) {
    ObjectReader::fail(pointer,
                       "a controlled variable needs exactly one of \"coordinate\", \"link\" (with "
                       "\"dof\"), \"cable_length\", \"tendon_length\" or \"tip_position\" (with "
                       "\"axis\")");
  }
  if (coordinate) {
    variable.name = in.string("coordinate");
  } else if (joint) {
    variable.name = in.string("link") + "/joint/" + std::to_string(in.integer("dof", 0));
  } else if (cable) {
    variable.kind = ControlledVariableDesc::Kind::CableLength;
    variable.name = in.string("cable_length");
  } else if (tendon) {
    variable.kind = ControlledVariableDesc::Kind::TendonLength;
    variable.name = in.string("tendon_length");
  } else {
    variable.kind = ControlledVariableDesc::Kind::TipPosition;
    variable.name = in.string("tip_position");
    variable.axis = static_cast<int>(in.enumeration("axis", kTipAxisNames));
  }
  variable.setpoint = readTimeFunction(in.required("setpoint"), in.at("setpoint"));
  in.rejectUnknownKeys();
  return variable;
}

ControllerInputDesc readControllerInput(const Json& json, const std::string& pointer) {
  ControllerInputDesc input;
  if (json.is_string()) {
    input.name = json.get<std::string>();
    return input;
  }
  ObjectReader in(json, pointer);
  input.name = in.string("name");
  if (in.has("min")) input.min = in.number("min");
  if (in.has("max")) input.max = in.number("max");
  in.rejectUnknownKeys();
  return input;
}

// a gain: one number for every variable, or an array of one per variable
std::vector<double> readGains(ObjectReader& in, const std::string& key) {
  const Json& value = in.required(key);
  if (value.is_number()) return {ObjectReader::asNumber(value, in.at(key))};
  if (!value.is_array() || value.empty())
    ObjectReader::fail(in.at(key), "expected a number or a non-empty array of numbers");
  std::vector<double> gains;
  for (std::size_t i = 0; i < value.size(); ++i)
    gains.push_back(ObjectReader::asNumber(value[i], in.at(key + "/" + std::to_string(i))));
  return gains;
}

// the window [from, until) and what follows it (findControllerProblem() checks until > from)
ControllerWindowDesc readControllerWindow(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ControllerWindowDesc window;
  window.from = in.nonNegative("from", 0.0);
  if (in.has("until")) window.until = in.number("until");
  window.after = in.enumeration("after", kControllerAfterNames,
                                std::optional(ControllerWindowDesc::After::Off));
  in.rejectUnknownKeys();
  return window;
}

ControllerDesc readController(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ControllerDesc controller;
  controller.name = in.string("name");
  controller.type = in.enumeration("type", kControllerTypeNames);
  const auto list = [&](const std::string& key) -> const Json& {
    const Json& items = in.required(key);
    if (!items.is_array() || items.empty())
      ObjectReader::fail(in.at(key), "expected a non-empty array");
    return items;
  };
  const Json& controlled = list("controlled");
  for (std::size_t i = 0; i < controlled.size(); ++i) {
    controller.controlled.push_back(
        readControlledVariable(controlled[i], in.at("controlled/" + std::to_string(i))));
  }
  const Json& inputs = list("inputs");
  for (std::size_t i = 0; i < inputs.size(); ++i)
    controller.inputs.push_back(
        readControllerInput(inputs[i], in.at("inputs/" + std::to_string(i))));
  controller.kp = readGains(in, "kp");
  controller.kd = readGains(in, "kd");
  controller.sample_period = in.nonNegative("sample_period", 0.0);
  if (const Json* active = in.optional("active"))
    controller.active = readControllerWindow(*active, in.at("active"));
  in.rejectUnknownKeys();
  return controller;
}

ClosedChainFrameDesc readClosedChainFrame(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ClosedChainFrameDesc frame;
  frame.link = in.string("link");
  frame.abscissa = in.number("abscissa", 0.0);
  if (const Json* placement = in.optional("placement"))
    frame.placement = readPlacement(*placement, in.at("placement"));
  in.rejectUnknownKeys();
  return frame;
}

ClosedChainDesc readClosedChain(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ClosedChainDesc chain;
  chain.name = in.string("name");
  chain.joint = readJoint(in.required("joint"), in.at("joint"));
  if (const Json* planar = in.optional("planar")) {
    if (!planar->is_boolean()) ObjectReader::fail(in.at("planar"), "expected true or false");
    chain.planar = planar->get<bool>();
  }
  chain.a = readClosedChainFrame(in.required("a"), in.at("a"));
  chain.b = readClosedChainFrame(in.required("b"), in.at("b"));
  in.rejectUnknownKeys();
  return chain;
}

ContactPlaneDesc readContactPlane(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ContactPlaneDesc plane;
  plane.point = in.numbers<3>("point", plane.point);
  plane.normal = in.numbers<3>("normal", plane.normal);
  in.rejectUnknownKeys();
  return plane;
}

ContactSphereDesc readContactSphere(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ContactSphereDesc sphere;
  sphere.centre = in.numbers<3>("centre", sphere.centre);
  sphere.radius = in.number("radius");
  in.rejectUnknownKeys();
  return sphere;
}

ContactCylinderDesc readContactCylinder(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ContactCylinderDesc cylinder;
  cylinder.point = in.numbers<3>("point", cylinder.point);
  cylinder.axis = in.numbers<3>("axis", cylinder.axis);
  cylinder.radius = in.number("radius");
  in.rejectUnknownKeys();
  return cylinder;
}

template <class T>
std::vector<T> readArray(ObjectReader& in, const std::string& key,
                         T (*read)(const Json&, const std::string&));

ContactDesc readContact(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  ContactDesc contact;
  contact.stiffness = in.number("stiffness");
  contact.exponent = in.number("exponent", contact.exponent);
  contact.smoothing = in.number("smoothing", contact.smoothing);
  contact.damping = in.number("damping", contact.damping);
  contact.friction = in.number("friction", contact.friction);
  contact.slip_velocity = in.number("slip_velocity", contact.slip_velocity);
  if (const Json* rigid = in.optional("rigid_bodies")) {
    if (!rigid->is_boolean()) ObjectReader::fail(in.at("rigid_bodies"), "expected true or false");
    contact.rigid_bodies = rigid->get<bool>();
  }
  contact.planes = readArray(in, "planes", readContactPlane);
  contact.spheres = readArray(in, "spheres", readContactSphere);
  contact.cylinders = readArray(in, "cylinders", readContactCylinder);
  in.rejectUnknownKeys();
  return contact;
}

FluidBodyDesc readFluidBody(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  FluidBodyDesc body;
  body.link = in.string("link");
  if (in.has("volume")) body.volume = in.number("volume");
  body.drag = in.numbers<6>("drag", body.drag);
  body.added_mass = in.numbers<6>("added_mass", body.added_mass);
  in.rejectUnknownKeys();
  return body;
}

FluidDesc readFluid(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  FluidDesc fluid;
  fluid.density = in.number("density");
  fluid.drag_normal = in.number("drag_normal", fluid.drag_normal);
  fluid.drag_tangential = in.number("drag_tangential", fluid.drag_tangential);
  fluid.added_mass_coefficient = in.number("added_mass_coefficient", fluid.added_mass_coefficient);
  fluid.bodies = readArray(in, "bodies", readFluidBody);
  in.rejectUnknownKeys();
  return fluid;
}

EnvironmentDesc readEnvironment(const Json& json, const std::string& pointer) {
  ObjectReader in(json, pointer);
  EnvironmentDesc environment;
  if (const Json* contact = in.optional("contact"))
    environment.contact = readContact(*contact, in.at("contact"));
  if (const Json* fluid = in.optional("fluid"))
    environment.fluid = readFluid(*fluid, in.at("fluid"));
  in.rejectUnknownKeys();
  return environment;
}

template <class T>
std::vector<T> readArray(ObjectReader& in, const std::string& key,
                         T (*read)(const Json&, const std::string&)) {
  std::vector<T> out;
  const Json* items = in.optional(key);
  if (!items) return out;
  if (!items->is_array()) ObjectReader::fail(in.at(key), "expected an array");
  for (std::size_t i = 0; i < items->size(); ++i)
    out.push_back(read((*items)[i], in.at(key + "/" + std::to_string(i))));
  return out;
}

RobotDescription readRobot(const Json& json) {
  ObjectReader in(json, "");
  const int version = in.integer("schema_version");
  // version 2 added the constant-curvature body kind: a version-1 file reads unchanged
  if (version < 1 || version > kSchemaVersion) {
    ObjectReader::fail("/schema_version", "unsupported version " + std::to_string(version) +
                                              " (this Tendril reads versions 1 to " +
                                              std::to_string(kSchemaVersion) + ")");
  }
  RobotDescription robot;
  robot.name = in.string("name", robot.name);
  robot.description = in.string("description", robot.description);
  robot.gravity = in.numbers<3>("gravity", robot.gravity);
  const Json& links = in.required("links");
  if (!links.is_array()) ObjectReader::fail("/links", "expected an array");
  for (std::size_t i = 0; i < links.size(); ++i) {
    robot.links.push_back(readLink(links[i], "/links/" + std::to_string(i)));
    if (version < 2 && robot.links.back().kind() == BodyKind::ConstantCurvature) {
      ObjectReader::fail("/links/" + std::to_string(i) + "/constant_curvature",
                         "constant-curvature segments need schema_version 2");
    }
  }
  robot.joint_inputs = readArray(in, "joint_inputs", readJointInput);
  robot.cables = readArray(in, "cables", readCable);
  robot.lvp_tendons = readArray(in, "lvp_tendons", readLvpTendon);
  robot.cavity_pressures = readArray(in, "cavity_pressures", readCavityPressure);
  robot.point_loads = readArray(in, "point_loads", readPointLoad);
  robot.controllers = readArray(in, "controllers", readController);
  if (const Json* environment = in.optional("environment"))
    robot.environment = readEnvironment(*environment, "/environment");
  robot.closed_chains = readArray(in, "closed_chains", readClosedChain);
  robot.constraint_time_constant =
      in.positive("constraint_time_constant", robot.constraint_time_constant);
  in.rejectUnknownKeys();
  if (const auto problem = findTopologyProblem(robot))
    throw ParseError(problem->pointer, problem->reason);
  if (const auto problem = findReferenceProblem(robot))
    throw ParseError(problem->pointer, problem->reason);
  if (const auto problem = findDiscretisationProblem(robot))
    throw ParseError(problem->pointer, problem->reason);
  return robot;
}

// ---- writing

Json writePlacement(const Placement& p) {
  return Json{{"position", p.position}, {"rpy", p.rpy}};
}

Json writeMaterial(const MaterialDesc& m) {
  Json material{{"youngs_modulus", m.youngs_modulus}};
  if (m.shear_modulus) {
    material["shear_modulus"] = *m.shear_modulus;
  } else {
    material["poisson_ratio"] = m.poisson_ratio.value_or(0.5);
  }
  material["density"] = m.density;
  material["damping"] = m.damping;
  return material;
}

// only the limits that are given
void writeJointLimits(Json& joint, const std::optional<JointLimitsDesc>& limits) {
  if (!limits) return;
  Json out = Json::object();
  const auto put = [&out](const char* key, const std::optional<double>& value) {
    if (value) out[key] = *value;
  };
  put("lower", limits->lower);
  put("upper", limits->upper);
  put("velocity", limits->velocity);
  put("effort", limits->effort);
  put("damping", limits->damping);
  put("friction", limits->friction);
  joint["limits"] = out;
}

Json writeShape(const ShapeDesc& shape) {
  Json out{{"type", kShapeNames.at(shape.type)}, {"size", shape.size}, {"color", shape.color}};
  if (shape.origin != Placement{}) out["origin"] = writePlacement(shape.origin);
  if (shape.type == ShapeType::Mesh) {
    out["file"] = shape.mesh;
    out["scale"] = shape.scale;
    out["box_centre"] = shape.box_centre;
  }
  return out;
}

Json writeLink(const LinkDesc& link) {
  Json out{{"name", link.name}, {"parent", link.parent}, {"origin", writePlacement(link.origin)}};
  Json joint{{"type", kJointNames.at(link.joint.type)}, {"axis", link.joint.axis}};
  if (link.joint.type == JointType::Helical) joint["pitch"] = link.joint.pitch;
  writeJointLimits(joint, link.joint.limits);
  out["joint"] = joint;
  if (link.kind() == BodyKind::ConstantCurvature) {
    const ConstantCurvatureBodyDesc& b = link.constantCurvature();
    out["constant_curvature"] = Json{{"model", kCurvatureModelNames.at(b.model)},
                                     {"length", b.length},
                                     {"radius", b.radius},
                                     {"material", writeMaterial(b.material)},
                                     {"stress_model", kStressModelNames.at(b.stress)},
                                     {"gauss_points", b.gauss_points}};
    return out;
  }
  if (link.kind() == BodyKind::Lvp) {
    const LvpBodyDesc& b = link.lvp();
    Json primitives = Json::array();
    for (const LvpPrimitiveDesc& p : b.primitives) {
      Json primitive{{"type", lvpPrimitiveName(p.type)}, {"modes", p.modes}};
      if (!p.rest.empty()) primitive["rest"] = p.rest;
      primitives.push_back(primitive);
    }
    out["lvp"] = Json{{"length", b.length},
                      {"radius", b.radius},
                      {"cavity_radius", b.cavity_radius},
                      {"density", b.density},
                      {"C", b.neo_hookean_c},
                      {"eta", b.damping},
                      {"primitives", primitives},
                      {"quadrature", Json{{"axial", b.quadrature.axial},
                                          {"radial", b.quadrature.radial},
                                          {"angular", b.quadrature.angular}}}};
    return out;
  }
  if (link.kind() == BodyKind::Rigid) {
    const RigidBodyDesc& b = link.rigid();
    out["rigid"] = Json{{"mass", b.mass},
                        {"com", b.com},
                        {"inertia", b.inertia},
                        {"tip", writePlacement(b.tip)},
                        {"shape", writeShape(b.shape)}};
    return out;
  }
  Json divisions = Json::array();
  for (const DivisionDesc& d : link.soft().divisions) {
    Json section{{"shape", kSectionNames.at(d.section.shape)}};
    if (d.section.shape == SectionShape::Circular) {
      section["radius"] = {d.section.radius_start, d.section.radius_end};
    } else {
      section["width"] = {d.section.width_start, d.section.width_end};
      section["height"] = {d.section.height_start, d.section.height_end};
    }
    const Json material = writeMaterial(d.material);
    Json order;
    for (int i = 0; i < 6; ++i) order[kStrainNames[i]] = d.basis.order[i];
    Json division;
    if (d.origin != Placement{}) division["origin"] = writePlacement(d.origin);
    division["length"] = d.length;
    division["section"] = section;
    division["material"] = material;
    division["basis"] = Json{{"family", kBasisNames.at(d.basis.family)}, {"order", order}};
    division["reference_strain"] = d.reference_strain;
    division["gauss_points"] = d.gauss_points;
    divisions.push_back(division);
  }
  out["soft"] = Json{{"magnus_order", link.soft().magnus_order}, {"divisions", divisions}};
  return out;
}

Json writeTimeFunction(const TimeFunction& f) {
  switch (f.kind) {
    case TimeFunction::Kind::Constant:
      return Json{{"type", "constant"}, {"value", f.value}};
    case TimeFunction::Kind::Ramp:
      return Json{
          {"type", "ramp"}, {"value", f.value}, {"start", f.start}, {"duration", f.duration}};
    case TimeFunction::Kind::Sine:
      return Json{{"type", "sine"},
                  {"amplitude", f.amplitude},
                  {"frequency", f.frequency},
                  {"phase", f.phase},
                  {"offset", f.offset}};
    case TimeFunction::Kind::Table: {
      Json json{{"type", "table"}, {"points", f.table}};
      if (f.interpolation == TimeFunction::Interpolation::Spline) {
        json["interpolation"] = "spline";
        if (f.end_slopes) json["end_slopes"] = *f.end_slopes;
      }
      return json;
    }
    case TimeFunction::Kind::Cubic:
      return Json{{"type", "cubic"},
                  {"from", f.initial},
                  {"to", f.value},
                  {"start", f.start},
                  {"duration", f.duration}};
  }
  return Json();
}

Json writeCable(const CableDesc& cable) {
  Json path = Json::array();
  for (const CableSegmentDesc& segment : cable.path) {
    path.push_back(Json{{"division", segment.division}, {"y", segment.y}, {"z", segment.z}});
  }
  return Json{{"name", cable.name},
              {"link", cable.link},
              {"path", path},
              {"tension", writeTimeFunction(cable.tension)}};
}

Json writeLvpTendon(const LvpTendonDesc& tendon) {
  Json anchors = Json::array();
  for (const LvpAnchorDesc& a : tendon.anchors) {
    anchors.push_back(Json{{"link", a.link},
                           {"end", a.end == LvpAnchorDesc::End::Tip ? "tip" : "base"},
                           {"angle", a.angle}});
  }
  return Json{
      {"name", tendon.name}, {"anchors", anchors}, {"tension", writeTimeFunction(tendon.tension)}};
}

Json writeCavityPressure(const CavityPressureDesc& pressure) {
  return Json{{"name", pressure.name},
              {"link", pressure.link},
              {"pressure", writeTimeFunction(pressure.pressure)}};
}

Json writePointLoad(const PointLoadDesc& load) {
  return Json{{"name", load.name},
              {"link", load.link},
              {"abscissa", load.abscissa},
              {"offset", load.offset},
              {"frame", load.frame == LoadFrame::Local ? "local" : "global"},
              {"wrench", load.wrench},
              {"scale", writeTimeFunction(load.scale)}};
}

Json writeJointInput(const JointInputDesc& input) {
  Json out = Json::object();
  if (!input.name.empty()) out["name"] = input.name;
  out["link"] = input.link;
  out["dof"] = input.dof;
  if (input.mode == JointInputDesc::Mode::Position) out["mode"] = "position";
  out["value"] = writeTimeFunction(input.value);
  return out;
}

Json writeController(const ControllerDesc& controller) {
  Json controlled = Json::array();
  using Kind = ControlledVariableDesc::Kind;
  for (const ControlledVariableDesc& variable : controller.controlled) {
    const char* key = variable.kind == Kind::CableLength    ? "cable_length"
                      : variable.kind == Kind::TendonLength ? "tendon_length"
                      : variable.kind == Kind::TipPosition  ? "tip_position"
                                                            : "coordinate";
    Json entry{{key, variable.name}};
    if (variable.kind == Kind::TipPosition)
      entry["axis"] = kTipAxisNames.at(static_cast<TipAxis>(variable.axis));
    entry["setpoint"] = writeTimeFunction(variable.setpoint);
    controlled.push_back(entry);
  }
  Json inputs = Json::array();
  for (const ControllerInputDesc& input : controller.inputs) {
    Json entry{{"name", input.name}};
    if (input.min) entry["min"] = *input.min;
    if (input.max) entry["max"] = *input.max;
    inputs.push_back(entry);
  }
  Json out{{"name", controller.name},
           {"type", kControllerTypeNames.at(controller.type)},
           {"controlled", controlled},
           {"inputs", inputs},
           {"kp", controller.kp},
           {"kd", controller.kd},
           {"sample_period", controller.sample_period}};
  if (controller.active) {
    Json window{{"from", controller.active->from},
                {"after", kControllerAfterNames.at(controller.active->after)}};
    if (controller.active->until) window["until"] = *controller.active->until;
    out["active"] = window;
  }
  return out;
}

Json writeClosedChainFrame(const ClosedChainFrameDesc& frame) {
  return Json{{"link", frame.link},
              {"abscissa", frame.abscissa},
              {"placement", writePlacement(frame.placement)}};
}

Json writeClosedChain(const ClosedChainDesc& chain) {
  Json joint{{"type", kJointNames.at(chain.joint.type)}, {"axis", chain.joint.axis}};
  writeJointLimits(joint, chain.joint.limits);
  return Json{{"name", chain.name},
              {"joint", joint},
              {"planar", chain.planar},
              {"a", writeClosedChainFrame(chain.a)},
              {"b", writeClosedChainFrame(chain.b)}};
}

Json writeEnvironment(const EnvironmentDesc& environment) {
  Json out = Json::object();
  if (const auto& c = environment.contact) {
    Json planes = Json::array(), spheres = Json::array(), cylinders = Json::array();
    for (const ContactPlaneDesc& p : c->planes)
      planes.push_back(Json{{"point", p.point}, {"normal", p.normal}});
    for (const ContactSphereDesc& p : c->spheres)
      spheres.push_back(Json{{"centre", p.centre}, {"radius", p.radius}});
    for (const ContactCylinderDesc& p : c->cylinders)
      cylinders.push_back(Json{{"point", p.point}, {"axis", p.axis}, {"radius", p.radius}});
    out["contact"] = Json{{"stiffness", c->stiffness},
                          {"exponent", c->exponent},
                          {"smoothing", c->smoothing},
                          {"damping", c->damping},
                          {"friction", c->friction},
                          {"slip_velocity", c->slip_velocity},
                          {"rigid_bodies", c->rigid_bodies},
                          {"planes", planes},
                          {"spheres", spheres},
                          {"cylinders", cylinders}};
  }
  if (const auto& f = environment.fluid) {
    Json bodies = Json::array();
    for (const FluidBodyDesc& b : f->bodies) {
      Json body{{"link", b.link}};
      if (b.volume) body["volume"] = *b.volume;
      body["drag"] = b.drag;
      body["added_mass"] = b.added_mass;
      bodies.push_back(body);
    }
    out["fluid"] = Json{{"density", f->density},
                        {"drag_normal", f->drag_normal},
                        {"drag_tangential", f->drag_tangential},
                        {"added_mass_coefficient", f->added_mass_coefficient},
                        {"bodies", bodies}};
  }
  return out;
}

template <class T>
void writeArray(Json& out, const char* key, const std::vector<T>& items, Json (*write)(const T&)) {
  if (items.empty()) return;
  Json array = Json::array();
  for (const T& item : items) array.push_back(write(item));
  out[key] = array;
}

}  // namespace

RobotDescription parseRobot(const std::string& json_text) {
  Json json;
  try {
    json = Json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseError("", std::string("not valid JSON (") + e.what() + ")");
  }
  try {
    return readRobot(json);
  } catch (const nlohmann::json::exception& e) {
    throw ParseError("", std::string("unexpected JSON content (") + e.what() + ")");
  }
}

TimeFunction parseTimeFunction(const std::string& json_text) {
  Json json;
  try {
    json = Json::parse(json_text);
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseError("", std::string("not valid JSON (") + e.what() + ")");
  }
  return readTimeFunction(json, "");
}

std::string serializeTimeFunction(const TimeFunction& f) {
  return writeTimeFunction(f).dump();
}

std::string serializeRobot(const RobotDescription& robot) {
  Json out{{"schema_version", kSchemaVersion}, {"name", robot.name}};
  if (!robot.description.empty()) out["description"] = robot.description;
  out["gravity"] = robot.gravity;
  Json links = Json::array();
  for (const LinkDesc& link : robot.links) links.push_back(writeLink(link));
  out["links"] = links;
  writeArray(out, "joint_inputs", robot.joint_inputs, writeJointInput);
  writeArray(out, "cables", robot.cables, writeCable);
  writeArray(out, "lvp_tendons", robot.lvp_tendons, writeLvpTendon);
  writeArray(out, "cavity_pressures", robot.cavity_pressures, writeCavityPressure);
  writeArray(out, "point_loads", robot.point_loads, writePointLoad);
  writeArray(out, "controllers", robot.controllers, writeController);
  if (robot.environment != EnvironmentDesc{})
    out["environment"] = writeEnvironment(robot.environment);
  writeArray(out, "closed_chains", robot.closed_chains, writeClosedChain);
  if (!robot.closed_chains.empty() ||
      robot.constraint_time_constant != RobotDescription{}.constraint_time_constant) {
    out["constraint_time_constant"] = robot.constraint_time_constant;
  }
  return out.dump(2) + "\n";
}

RobotDescription loadRobot(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw ParseError("", "cannot open " + path.string());
  std::ostringstream text;
  text << file.rdbuf();
  RobotDescription robot = parseRobot(text.str());
  resolveMeshFiles(robot, std::filesystem::absolute(path).parent_path());
  return robot;
}

void resolveMeshFiles(RobotDescription& robot, const std::filesystem::path& folder) {
  for (LinkDesc& link : robot.links) {
    if (link.kind() != BodyKind::Rigid || link.rigid().shape.type != ShapeType::Mesh) continue;
    std::string& file = link.rigid().shape.mesh;
    const std::filesystem::path given(file);
    if (given.is_relative()) file = (folder / given).lexically_normal().string();
  }
}

// relative only below a common top folder: "../../usr/share/..." from /home would move nowhere
RobotDescription withRelativeMeshFiles(RobotDescription robot,
                                       const std::filesystem::path& folder) {
  const auto top = [](const std::filesystem::path& path) {
    auto part = path.begin();
    return part == path.end() || ++part == path.end() ? std::filesystem::path() : *part;
  };
  for (LinkDesc& link : robot.links) {
    if (link.kind() != BodyKind::Rigid || link.rigid().shape.type != ShapeType::Mesh) continue;
    std::string& file = link.rigid().shape.mesh;
    const std::filesystem::path mesh(file);
    if (!mesh.is_absolute() || top(mesh) != top(folder)) continue;
    const std::filesystem::path relative = mesh.lexically_relative(folder);
    if (!relative.empty()) file = relative.string();
  }
  return robot;
}

void writeFileAtomically(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::path temp = path;
  temp += ".tmp-save";
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    if (!file) throw std::runtime_error("cannot write " + temp.string());
    file << text;
    file.flush();
    if (!file) {
      file.close();
      std::filesystem::remove(temp);
      throw std::runtime_error("failed writing " + temp.string());
    }
  }
  std::error_code error;
  std::filesystem::rename(temp, path, error);
  if (error) {
    std::filesystem::remove(temp);
    throw std::runtime_error("cannot replace " + path.string() + ": " + error.message());
  }
}

void saveRobot(const RobotDescription& robot, const std::filesystem::path& path) {
  const std::filesystem::path folder = std::filesystem::absolute(path).parent_path();
  writeFileAtomically(path, serializeRobot(withRelativeMeshFiles(robot, folder)));
}

}  // namespace tendril
