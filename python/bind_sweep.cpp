// Sweeps: a spec's cases, run here on a pool of threads (GIL released) or case by case on a Dask
// worker (run_cases), and their CSV. The orchestration lives in python/tendril/sweeps.py.

#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "core/io/json_io.hpp"
#include "core/study/sweep_run.hpp"
#include "python/bindings.hpp"

namespace tendril::python {
namespace {

py::object jsonToPython(const nlohmann::json& value) {
  return py::module_::import("json").attr("loads")(value.dump());
}

std::vector<SweepRow> runHere(const SweepSpec& spec, const std::vector<int>& indices, int threads,
                              const py::object& progress) {
  std::function<void(const SweepProgress&)> report;
  if (!progress.is_none()) {
    report = [&progress](const SweepProgress& p) {
      const py::gil_scoped_acquire gil;
      progress(p.done, p.total, p.failed, p.elapsed);
    };
  }
  const py::gil_scoped_release released;
  return runSweep(spec, threads, report, nullptr, 0.5, indices);
}

void bindRow(py::module_& m) {
  py::class_<SweepRow>(m, "SweepRow", "One case's result (see SweepSpec.output_columns).")
      .def_readonly("index", &SweepRow::index)
      .def_readonly("success", &SweepRow::success)
      .def_readonly("message", &SweepRow::message)
      .def_readonly("wall_time", &SweepRow::wall_time, "[s]")
      .def_readonly("outputs", &SweepRow::outputs, "NaN when the case failed")
      .def(py::pickle(
          [](const SweepRow& r) {
            return py::make_tuple(r.index, r.success, r.message, r.wall_time, r.outputs);
          },
          [](const py::tuple& t) {
            if (t.size() != 5) throw std::runtime_error("not a pickled SweepRow");
            SweepRow r;
            r.index = t[0].cast<int>();
            r.success = t[1].cast<bool>();
            r.message = t[2].cast<std::string>();
            r.wall_time = t[3].cast<double>();
            r.outputs = t[4].cast<Eigen::VectorXd>();
            return r;
          }))
      .def("__repr__", [](const SweepRow& r) {
        return "<tendril.SweepRow " + std::to_string(r.index) + (r.success ? " ok" : " failed") +
               ": " + r.message + ">";
      });
}

void bindSpec(py::module_& m) {
  py::class_<SweepSpec, std::shared_ptr<SweepSpec>>(
      m, "SweepSpec", "A parsed sweep spec (docs/SWEEPS.md). Errors are ModelError with .pointer.")
      .def_static("load", &loadSweepSpec, py::arg("path"), "Reads a spec file.")
      .def_static(
          "from_json",
          [](const std::string& text, const std::filesystem::path& folder) {
            return parseSweepSpec(text, folder);
          },
          py::arg("text"), py::arg("folder") = ".",
          "Parses spec JSON; a relative model path is relative to folder.")
      .def_property_readonly("case_count", &SweepSpec::caseCount)
      .def_property_readonly("parameter_names",
                             [](const SweepSpec& s) {
                               std::vector<std::string> names;
                               for (const SweepParameter& p : s.parameters) names.push_back(p.name);
                               return names;
                             })
      .def_property_readonly("output_columns", &sweepOutputColumns)
      .def_property_readonly(
          "is_statics", [](const SweepSpec& s) { return s.job.kind == SweepJob::Kind::Statics; })
      .def(
          "case_values",
          [](const SweepSpec& s, int i) {
            if (i < 0 || i >= s.caseCount()) throw py::index_error("no case " + std::to_string(i));
            return jsonToPython(s.case_values[static_cast<std::size_t>(i)]);
          },
          py::arg("index"), "The parameters' values of one case, in parameter order.")
      .def(
          "case_description",
          [](const SweepSpec& s, int i) -> py::object {
            const CaseModel c = caseDescription(s, i);
            if (!c.description) throw ParseError("", c.error);
            return py::module_::import("json").attr("loads")(serializeRobot(*c.description));
          },
          py::arg("index"),
          "The model of one case as a description dict (tendril.build(d) compiles it).\n"
          "Raises ModelError when the case's values make an invalid model.")
      .def("self_contained_json", &selfContainedSpecJson,
           "The spec with its model inline: what a worker on another machine needs.");

  m.def(
      "run_cases", &runHere, py::arg("spec"), py::arg("indices") = std::vector<int>{},
      py::arg("threads") = 1, py::arg("progress") = py::none(),
      "Runs the given cases (all when empty) on `threads` threads (0: one per core) with the\n"
      "GIL released; returns SweepRows in the order of `indices`. progress(done, total,\n"
      "failed, elapsed_s) is called about twice a second. A failing case is a row, not an error.");
  m.def("sweep_csv", &sweepCsv, py::arg("spec"), py::arg("rows"),
        "The CSV text of rows given in case order (the columns of tendril-cli sweep).");
  m.def(
      "save_sweep_csv",
      [](const SweepSpec& spec, const std::vector<SweepRow>& rows,
         const std::filesystem::path& path,
         const std::string& why_partial) { return saveSweepCsv(spec, rows, path, why_partial); },
      py::arg("spec"), py::arg("rows"), py::arg("path"), py::arg("why_partial") = "interrupted",
      "Writes path atomically when rows hold every case; otherwise <stem>.partial.csv, whose\n"
      "first line says it is partial. Returns the path written.");
}

}  // namespace

void bindSweep(py::module_& m) {
  bindRow(m);
  bindSpec(m);
}

}  // namespace tendril::python
