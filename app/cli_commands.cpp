// tendril-cli info, validate and render.

#include "app/cli_commands.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/cli_args.hpp"
#include "core/io/json_io.hpp"
#include "core/model/model.hpp"

namespace tendril::cli {
namespace {

// "rigid", "soft, 2 division(s)", "constant curvature (planar)"
std::string bodySummary(const LinkDesc& link) {
  switch (link.kind()) {
    case BodyKind::Rigid:
      return "rigid";
    case BodyKind::Soft:
      return "soft, " + std::to_string(link.soft().divisions.size()) + " division(s)";
    case BodyKind::ConstantCurvature:
      return std::string("constant curvature (") +
             (link.constantCurvature().model == CurvatureModel::Planar ? "planar" : "spatial") +
             ")";
    case BodyKind::Lvp:
      return "LVP body, " + std::to_string(lvpDof(link.lvp())) + " mode(s)";
  }
  return "";
}

}  // namespace

namespace {
// which dynamics family runs the model by default, and whether the model-agnostic one can
void printFamilies(const Model& model) {
  const DynamicsFamily automatic =
      model.agnostic_only ? DynamicsFamily::ModelAgnostic : DynamicsFamily::Engine;
  std::cout << "dynamics family (auto): " << familyName(automatic) << "\n";
  const auto reason = agnosticFamilyUnsupported(model);
  std::cout << "model-agnostic family: "
            << (reason ? "cannot run it: " + *reason
                       : std::string("runs it (--family model-agnostic; Jacobians by central "
                                     "differences)"))
            << "\n";
}
}  // namespace

int runInfo(const Args& args) {
  const std::vector<Option> options = {
      {"--coordinates", false, "also list every generalised coordinate"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp("info MODEL.json [--coordinates]", options,
              "Prints the links, their degrees of freedom, inputs and loads.");
    return kExitOk;
  }
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  const Model model = buildModel(*robot);
  std::cout << "model: " << robot->name << "\n";
  std::cout << "gravity: [" << robot->gravity[0] << ", " << robot->gravity[1] << ", "
            << robot->gravity[2] << "] m/s^2\n";
  std::cout << "links: " << robot->links.size() << "\n";
  for (std::size_t i = 0; i < robot->links.size(); ++i) {
    const LinkDesc& link = robot->links[i];
    std::cout << "  " << std::left << std::setw(16) << link.name << " parent " << std::setw(12)
              << link.parent << " " << bodySummary(link) << ", " << model.links[i].nq << " dof\n";
  }
  std::cout << "cables: " << robot->cables.size() << ", point loads: " << robot->point_loads.size()
            << ", joint inputs: " << robot->joint_inputs.size() << "\n";
  if (!robot->lvp_tendons.empty() || !robot->cavity_pressures.empty()) {
    std::cout << "LVP tendons: " << robot->lvp_tendons.size()
              << ", cavity pressures: " << robot->cavity_pressures.size() << "\n";
  }
  if (model.agnostic_only) {
    std::cout << "dynamics: model-agnostic only (a body has no virtual joints: the GVS engine's "
                 "algorithms do not apply)\n";
  }
  std::cout << "virtual joints (computational points): " << model.n_vjoints() << "\n";
  std::cout << "degrees of freedom: " << model.nq << "\n";
  printFamilies(model);
  // joint-coordinate control and closed chains (docs/theory/gvs.md §11, §12)
  if (!model.prescribed.empty()) {
    std::cout << "prescribed coordinates: " << model.prescribed.size() << "\n";
    for (const CompiledPrescribedCoordinate& p : model.prescribed)
      std::cout << "  " << model.coordinate_names[p.coordinate] << "\n";
  }
  if (!model.closed_chains.empty()) {
    const auto frame = [](const ClosedChainFrameDesc& f) {
      std::ostringstream text;
      text << f.link;
      if (f.abscissa < 0.0) {
        text << " (tip)";
      } else if (f.abscissa > 0.0) {
        text << " (X = " << f.abscissa << " m)";
      }
      return text.str();
    };
    std::cout << "closed chains: " << model.closed_chains.size() << ", " << model.n_constraints
              << " constraint rows, T_B = " << model.constraint_time_constant << " s\n";
    for (const CompiledClosedChain& chain : model.closed_chains) {
      const auto desc =
          std::find_if(robot->closed_chains.begin(), robot->closed_chains.end(),
                       [&](const ClosedChainDesc& d) { return d.name == chain.name; });
      if (desc == robot->closed_chains.end()) continue;
      std::cout << "  " << std::left << std::setw(16) << chain.name << " A " << frame(desc->a)
                << ", B " << frame(desc->b) << ", rows " << chain.row << "-"
                << chain.row + chain.m() - 1 << " (" << chain.m() << ")\n";
    }
  }
  if (parsed.has("--coordinates")) {
    for (int i = 0; i < model.nq; ++i)
      std::cout << "  " << i << "  " << model.coordinate_names[i] << "\n";
  }
  return kExitOk;
}

int runValidate(const Args& args) {
  const Parsed parsed = parse(args, {});
  if (parsed.help) {
    printHelp("validate MODEL.json", {});
    return kExitOk;
  }
  const auto robot = loadOrReport(modelPath(parsed));
  if (!robot) return kExitBadModel;
  std::cout << "ok\n";
  printFamilies(buildModel(*robot));
  return kExitOk;
}

int runRender(const Args& args, const std::string& argv0) {
  const std::vector<Option> options = {
      {"--out", true, "PNG file to write (required)"},
      {"--width", true, "image width in pixels (default 1280)"},
      {"--height", true, "image height in pixels (default 800)"},
      {"--motion", true, "simulate T seconds from rest and draw a film strip"},
      {"--frames", true, "instants in the film strip (default 5)"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp("render MODEL.json --out shot.png [--width W] [--height H] [--motion T [--frames N]]",
              options);
    return kExitOk;
  }
  const std::string model = modelPath(parsed);
  if (!parsed.has("--out")) throw UsageError{"render needs --out FILE.png"};
  if (!loadOrReport(model)) return kExitBadModel;
  // rendering lives in a sibling executable so that tendril-cli itself links no VTK
  const std::filesystem::path renderer =
      std::filesystem::path(argv0).parent_path() / "tendril-render";
  if (!std::filesystem::exists(renderer)) {
    std::cerr << "tendril-cli: render needs " << renderer.string() << ", which is not installed\n";
    return kExitFailure;
  }
  std::vector<std::string> call = {renderer.string(), model};
  for (const auto& [name, values] : parsed.values) {
    call.push_back(name);
    call.push_back(values.back());
  }
  std::vector<char*> argv;
  for (std::string& s : call) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::cout.flush();
  const pid_t child = fork();
  if (child == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) < 0) {
    std::cerr << "tendril-cli: could not start " << renderer.string() << "\n";
    return kExitFailure;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitFailure;
}

}  // namespace tendril::cli
