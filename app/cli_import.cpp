// tendril-cli import-urdf: a URDF robot as a Tendril model file.

#include <iostream>

#include "app/cli_args.hpp"
#include "app/cli_commands.hpp"
#include "core/io/json_io.hpp"
#include "core/io/urdf_import.hpp"

namespace tendril::cli {

int runImportUrdf(const Args& args) {
  const std::vector<Option> options = {
      {"--out", true, "model file to write (required)"},
      {"--floating-base", false, "attach the root link by a free joint instead of a fixed one"}};
  const Parsed parsed = parse(args, options);
  if (parsed.help) {
    printHelp("import-urdf ROBOT.urdf --out MODEL.json [--floating-base]", options,
              "Reads a URDF robot (links, joints, inertials, limits as metadata, box, cylinder,\n"
              "sphere and STL/OBJ mesh visuals) and writes it as a Tendril model. Nothing is\n"
              "written when the URDF is invalid.");
    return kExitOk;
  }
  if (parsed.positional.size() != 1) throw UsageError{"expected exactly one ROBOT.urdf argument"};
  if (!parsed.has("--out")) throw UsageError{"import-urdf needs --out MODEL.json"};
  const std::string urdf = parsed.positional.front(), out = parsed.value("--out");
  UrdfImportOptions import_options;
  import_options.floating_base = parsed.has("--floating-base");
  try {
    convertUrdf(urdf, out, import_options);
  } catch (const ParseError& error) {
    std::cerr << "tendril-cli: " << urdf << ": " << error.what() << "\n";
    return kExitBadModel;
  }
  std::cout << "wrote " << out << "\n";
  return kExitOk;
}

}  // namespace tendril::cli
