# Tests for `tendril-cli simulate --compare-jacobians` (app/cli_run.cpp). Run by ctest as
# `cmake -P`. Inputs: CLI (tendril-cli), EXAMPLES (resources/examples).

execute_process(COMMAND ${CLI} simulate ${EXAMPLES}/soft_cantilever.json --t-end 0.3 --quiet
                        --compare-jacobians
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "--compare-jacobians: exit ${code}\n${out}\n${err}")
endif()
# one run of each kind, then the comparison
foreach(kind "Jacobians \\(analytic\\)" "Jacobians \\(finite differences\\)"
        "speed-up of the analytical Jacobian: [0-9.]+x")
  if(NOT out MATCHES "${kind}")
    message(FATAL_ERROR "expected '${kind}' in:\n${out}")
  endif()
endforeach()
# the two Jacobians drive the integrator to the same motion: 31 samples, tips within 1e-6 m
if(NOT out MATCHES "tip error between the runs \\(largest over 31 samples\\): ([0-9.e+-]+) m")
  message(FATAL_ERROR "no tip error line in:\n${out}")
endif()
set(tip_error ${CMAKE_MATCH_1})
if(NOT tip_error LESS 1e-6)
  message(FATAL_ERROR "analytic and finite-difference runs differ by ${tip_error} m")
endif()
if(NOT tip_error GREATER 0)
  message(FATAL_ERROR "tip error ${tip_error}: the two runs should not be bit-identical")
endif()
