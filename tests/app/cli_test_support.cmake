# Shared by the CLI tests (cmake -P scripts): run tendril-cli and check its one-line reasons.

# runs ${CLI} with the arguments, fails unless it exits with expected_code; sets cli_out, cli_err
function(run_cli expected_code)
  execute_process(COMMAND ${CLI} ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL expected_code)
    message(FATAL_ERROR "tendril-cli ${ARGN}: exit ${code}, expected ${expected_code}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(cli_out "${out}" PARENT_SCOPE)
  set(cli_err "${err}" PARENT_SCOPE)
endfunction()

# fails unless text is one line matching pattern
function(expect_one_line_reason text pattern)
  string(STRIP "${text}" stripped)
  string(FIND "${stripped}" "\n" newline)
  if(NOT newline EQUAL -1 OR stripped STREQUAL "")
    message(FATAL_ERROR "expected exactly one line of reason, got:\n${text}")
  endif()
  if(NOT stripped MATCHES "${pattern}")
    message(FATAL_ERROR "reason '${stripped}' does not match '${pattern}'")
  endif()
endfunction()
