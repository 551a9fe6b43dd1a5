# Tests for app/cli_sweep.cpp: a sweep's CSV, failed cases as rows, bad specs refused before
# anything is written, an interrupted sweep leaving only a marked partial file, an unreachable
# Dask scheduler. Run by ctest as `cmake -P`.
# Inputs: CLI (tendril-cli), EXAMPLES (resources/examples), SWEEPS (examples/sweeps), WORK,
# PYTHON_PACKAGE (1 when the tendril Python package is built: --dask needs it).

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_support.cmake)  # run_cli, expect_one_line_reason

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# counts the data rows (lines after the header) of a CSV
function(count_rows file result)
  file(STRINGS ${file} lines)
  list(LENGTH lines n)
  math(EXPR n "${n} - 1")
  set(${result} ${n} PARENT_SCOPE)
endfunction()

# the example grid: 4 x 4 cases, in case order, every one converged
run_cli(0 sweep ${SWEEPS}/cantilever_grid.json --out ${WORK}/grid.csv --jobs 2 --quiet)
if(NOT cli_out MATCHES "sweep: 16 of 16 cases, 0 failed")
  message(FATAL_ERROR "sweep of the cantilever grid:\n${cli_out}")
endif()
file(STRINGS ${WORK}/grid.csv lines)
list(GET lines 0 header)
if(NOT header MATCHES "^case,E,L,success,tip:rod:x,tip:rod:y,tip:rod:z,tip:rod:qw,.*,q:rod/div0/bend_y/0,q:rod/div0/bend_z/0,iterations,wall_time,message$")
  message(FATAL_ERROR "grid.csv header: ${header}")
endif()
count_rows(${WORK}/grid.csv rows)
list(GET lines 16 last)
if(NOT rows EQUAL 16 OR NOT last MATCHES "^15,2000000(\\.0)?,0\\.6,1,")
  message(FATAL_ERROR "grid.csv: ${rows} rows, last '${last}'")
endif()

# a value the model rejects: that case is a row with its reason, the others run
file(WRITE ${WORK}/poisson.json "{\"model\": \"${EXAMPLES}/soft_cantilever.json\",
  \"parameters\": [{\"pointer\": \"/links/0/soft/divisions/0/material/poisson_ratio\", \"values\": [0.3, 0.51]}],
  \"job\": {\"type\": \"statics\"}}")
run_cli(0 sweep ${WORK}/poisson.json --out ${WORK}/poisson.csv --quiet)
if(NOT cli_out MATCHES "2 of 2 cases, 1 failed")
  message(FATAL_ERROR "poisson sweep:\n${cli_out}")
endif()
file(STRINGS ${WORK}/poisson.csv lines)
list(GET lines 2 rejected)
if(NOT rejected MATCHES "^1,0.51,0,nan,.*/links/0/soft/divisions/0/material/poisson_ratio: must lie in")
  message(FATAL_ERROR "the rejected case's row: ${rejected}")
endif()

# bad specs: exit 3, one line naming the spec's pointer, no file of any kind
file(WRITE ${WORK}/ghost.json "{\"model\": \"${EXAMPLES}/soft_cantilever.json\",
  \"parameters\": [{\"pointer\": \"/links/4/soft\", \"values\": [1]}], \"job\": {\"type\": \"statics\"}}")
run_cli(3 sweep ${WORK}/ghost.json --out ${WORK}/ghost.csv)
expect_one_line_reason("${cli_err}" "ghost.json: /parameters/0/pointer: '/links/4/soft' does not exist in the base model")
file(WRITE ${WORK}/typo.json "{\"model\": \"${EXAMPLES}/soft_cantilever.json\", \"parameters\": [
  {\"pointer\": \"/gravity/2\", \"random\": {\"low\": 0, \"high\": 1}}], \"samples\": 5, \"seeds\": 1,
  \"job\": {\"type\": \"statics\"}}")
run_cli(3 sweep ${WORK}/typo.json --out ${WORK}/typo.csv)
expect_one_line_reason("${cli_err}" "typo.json: /seeds: unknown key")
run_cli(3 sweep ${WORK}/missing.json --out ${WORK}/missing.csv)
expect_one_line_reason("${cli_err}" "cannot open")
run_cli(2 sweep ${SWEEPS}/cantilever_grid.json --batch 3)
expect_one_line_reason("${cli_err}" "--batch needs --dask")
file(GLOB written ${WORK}/ghost* ${WORK}/typo*.csv ${WORK}/missing*)
list(FILTER written EXCLUDE REGEX "\\.json$")
if(written)
  message(FATAL_ERROR "a refused spec left files: ${written}")
endif()

# interrupted (SIGINT after 1 s of 120 simulations of 30 s each on one thread, ~10 s in all on this machine: 12, at
# ~1.1 s, no longer outlasted the signal): the cases done go to <out>.partial.csv, marked in its first line; <out>
# itself is not written
file(WRITE ${WORK}/slow.json "{\"model\": \"${EXAMPLES}/cable_manipulator.json\",
  \"parameters\": [{\"pointer\": \"/cables/0/tension/value\", \"range\": {\"start\": 0, \"stop\": 30, \"count\": 120}}],
  \"job\": {\"type\": \"simulate\", \"t_end\": 30.0, \"dt\": 0.05}}")
execute_process(COMMAND timeout --preserve-status -s INT 1 ${CLI} sweep ${WORK}/slow.json --out ${WORK}/slow.csv --jobs 1
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 1 OR EXISTS ${WORK}/slow.csv OR NOT EXISTS ${WORK}/slow.partial.csv)
  message(FATAL_ERROR "interrupted sweep: exit ${code}\n${out}\n${err}")
endif()
file(STRINGS ${WORK}/slow.partial.csv lines)
list(GET lines 0 note)
if(NOT note MATCHES "^# PARTIAL RESULT \\(interrupted\\): [0-9]+ of 120 cases")
  message(FATAL_ERROR "the partial file's first line: ${note}")
endif()

# an unreachable scheduler: a clear reason within the connect timeout, no file
execute_process(COMMAND ${CLI} sweep ${SWEEPS}/cantilever_grid.json --dask tcp://127.0.0.1:9
                        --out ${WORK}/dask.csv --quiet
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(PYTHON_PACKAGE)
  set(reason "cannot reach the Dask scheduler at tcp://127.0.0.1:9|needs python3-distributed")
else()
  set(reason "No module named")  # Python's own words: this build has no tendril package
endif()
if(NOT code EQUAL 1 OR NOT err MATCHES "${reason}")
  message(FATAL_ERROR "unreachable scheduler: exit ${code}\n${out}\n${err}")
endif()
file(GLOB written ${WORK}/dask*)
if(written)
  message(FATAL_ERROR "an unreachable scheduler left files: ${written}")
endif()
