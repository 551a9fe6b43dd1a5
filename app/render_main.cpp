// tendril-render MODEL.json --out shot.png [--width W] [--height H] [--motion T [--frames N]]
// Renders a model at rest (q = 0) to a PNG without showing a window, or, with --motion, simulates
// it from rest for T seconds and renders N instants side by side. Links VTK but no Qt, so
// tendril-cli can run it for `tendril-cli render`. Every failure is one line on stderr and a
// non-zero exit code: 2 for a bad command line, 1 for anything else.

#include <charconv>
#include <exception>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/io/json_io.hpp"
#include "core/sim/make_frame.hpp"
#include "core/sim/rest_frame.hpp"
#include "core/sim/simulation.hpp"
#include "ui/viewport/scene/offscreen_render.hpp"

namespace {

constexpr int kUsageError = 2;
constexpr int kRuntimeError = 1;
constexpr std::string_view kUsage =
    "usage: tendril-render MODEL.json --out IMAGE.png [--width W] [--height H] [--motion T_END "
    "[--frames N]]";
constexpr int kMaxFrames = 12;

struct Options {
  std::string model;
  std::string out;
  int width = 1280;
  int height = 960;
  double motion = 0.0;  ///< > 0: simulate this long and draw a film strip
  int frames = 5;
};

/// A command-line error: the reason to print before exiting with kUsageError.
struct UsageError {
  std::string reason;
};

int parseSize(std::string_view flag, std::string_view text) {
  int value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size() || value <= 0) {
    throw UsageError{std::string(flag) + " needs a positive integer, got '" + std::string(text) +
                     "'"};
  }
  return value;
}

double parseDuration(std::string_view flag, std::string_view text) {
  double value = 0.0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size() || !(value > 0.0)) {
    throw UsageError{std::string(flag) + " needs a positive duration [s], got '" +
                     std::string(text) + "'"};
  }
  return value;
}

Options parseArguments(const std::vector<std::string_view>& args) {
  Options options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    const bool is_flag = arg == "--out" || arg == "--width" || arg == "--height" ||
                         arg == "--motion" || arg == "--frames";
    if (is_flag && i + 1 >= args.size()) {
      throw UsageError{std::string(arg) + " needs a value"};
    }
    if (arg == "--out") {
      options.out = args[++i];
    } else if (arg == "--width") {
      options.width = parseSize(arg, args[++i]);
    } else if (arg == "--height") {
      options.height = parseSize(arg, args[++i]);
    } else if (arg == "--motion") {
      options.motion = parseDuration(arg, args[++i]);
    } else if (arg == "--frames") {
      options.frames = parseSize(arg, args[++i]);
      if (options.frames < 2 || options.frames > kMaxFrames)
        throw UsageError{"--frames must lie in 2.." + std::to_string(kMaxFrames)};
    } else if (arg.starts_with("-")) {
      throw UsageError{"unknown option " + std::string(arg)};
    } else if (options.model.empty()) {
      options.model = arg;
    } else {
      throw UsageError{"more than one model given: " + std::string(arg)};
    }
  }
  if (options.model.empty()) {
    throw UsageError{"no model file given"};
  }
  if (options.out.empty()) {
    throw UsageError{"--out IMAGE.png is required"};
  }
  return options;
}

int fail(int code, const std::string& reason) {
  std::cerr << "tendril-render: error: " << reason << '\n';
  return code;
}

std::string timeLabel(double t) {
  std::ostringstream label;
  label << "t = " << std::setprecision(3) << t << " s";
  return label.str();
}

// simulates from rest (BDF, analytical Jacobian) and renders options.frames instants
int renderMotion(const tendril::RobotDescription& robot, const Options& options) {
  const tendril::Model model = tendril::buildModel(robot);
  tendril::SimulationOptions sim;
  sim.t_end = options.motion;
  sim.output_interval = options.motion / (options.frames - 1);
  const tendril::SimulationResult result = tendril::simulate(model, Eigen::VectorXd::Zero(model.nq),
                                                             Eigen::VectorXd::Zero(model.nv), sim);
  tendril::Data data(model);
  std::vector<tendril::FramePtr> frames;
  std::vector<std::string> labels;
  for (const tendril::Sample& sample : result.samples) {
    frames.push_back(tendril::makeFrame(model, data, sample.q, sample.v, sample.t));
    labels.push_back(timeLabel(sample.t));
  }
  std::string reason;
  if (!tendril::renderFilmstripToPng(frames, labels, options.out, options.width, options.height,
                                     &reason)) {
    return fail(kRuntimeError, reason);
  }
  // a diverged run still shows what it computed, and says so
  return result.completed ? 0 : fail(kRuntimeError, result.message);
}

}  // namespace

int main(int argc, char* argv[]) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << kUsage << '\n';
    return 0;
  }
  Options options;
  try {
    options = parseArguments(args);
  } catch (const UsageError& error) {
    return fail(kUsageError, error.reason + " (" + std::string(kUsage) + ")");
  }

  tendril::FramePtr frame;
  try {
    const tendril::RobotDescription robot = tendril::loadRobot(options.model);
    if (options.motion > 0.0) return renderMotion(robot, options);
    frame = tendril::restFrame(robot);
  } catch (const std::exception& error) {
    return fail(kRuntimeError, options.model + ": " + error.what());
  }

  std::string reason;
  if (!tendril::renderFrameToPng(*frame, options.out, options.width, options.height, &reason)) {
    return fail(kRuntimeError, reason);
  }
  return 0;
}
