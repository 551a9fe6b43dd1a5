# Tests for the --family option of tendril-cli (app/cli_args.cpp familyFor, and the commands that
# run a model): each command says which family ran, the model-agnostic family's Jacobians are
# labelled central differences, and a model it cannot run is a usage error naming the load.
# Run by ctest as `cmake -P`. Inputs: CLI (tendril-cli), EXAMPLES (resources/examples), WORK.

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_support.cmake)  # run_cli, expect_one_line_reason

file(MAKE_DIRECTORY ${WORK})
set(label "central differences \\(no analytical derivatives for this body kind\\)")

run_cli(0 info ${EXAMPLES}/soft_cantilever.json)
if(NOT cli_out MATCHES "dynamics family \\(auto\\): engine" OR
   NOT cli_out MATCHES "model-agnostic family: runs it")
  message(FATAL_ERROR "info should name the families:\n${cli_out}")
endif()
run_cli(0 validate ${EXAMPLES}/soft_cantilever.json)
if(NOT cli_out MATCHES "dynamics family \\(auto\\): engine")
  message(FATAL_ERROR "validate should name the family:\n${cli_out}")
endif()

# statics on the model-agnostic family: the SoRoSim reference tip, as on the engine
run_cli(0 statics ${EXAMPLES}/soft_cantilever.json --family model-agnostic)
if(NOT cli_out MATCHES "converged" OR NOT cli_out MATCHES "tip rod: \\[0\\.29617" OR
   NOT cli_out MATCHES "family: model-agnostic \\(Jacobians: ${label}\\)")
  message(FATAL_ERROR "statics on the model-agnostic family:\n${cli_out}")
endif()
run_cli(0 statics ${EXAMPLES}/soft_cantilever.json)
if(NOT cli_out MATCHES "family: engine \\(Jacobians: analytical\\)")
  message(FATAL_ERROR "statics on the engine should say so:\n${cli_out}")
endif()

run_cli(0 simulate ${EXAMPLES}/pcc_planar_arm.json --family model-agnostic --t-end 0.05 --quiet)
if(NOT cli_out MATCHES "family: model-agnostic \\(Jacobians: ${label}\\)")
  message(FATAL_ERROR "simulate on the model-agnostic family:\n${cli_out}")
endif()

# a controlled PCC arm on the model-agnostic family: PFBL on its six tendon lengths reaches the
# end of its cubic moves (0.3 m to 0.297 m for seg2_t1)
run_cli(0 simulate ${EXAMPLES}/pcc_controlled_arm.json --family model-agnostic --t-end 3 --dt 0.1
        --quiet)
if(NOT cli_out MATCHES "family: model-agnostic" OR
   NOT cli_out MATCHES "controllers: 1 in the loop" OR
   NOT cli_out MATCHES "length_tracker: seg2_t1 length: set-point 0.297, value 0.297[ 0]")
  message(FATAL_ERROR "simulate a controlled PCC arm on the model-agnostic family:\n${cli_out}")
endif()

run_cli(0 check-derivatives ${EXAMPLES}/pcc_planar_arm.json --family model-agnostic)
if(NOT cli_out MATCHES "${label}" OR cli_out MATCHES "worst relative mismatch")
  message(FATAL_ERROR "check-derivatives must not report a mismatch it never measured:\n${cli_out}")
endif()

run_cli(0 bench ${EXAMPLES}/pcc_planar_arm.json --min-time 0.001 --rounds 1)
if(NOT cli_out MATCHES "model-agnostic forward dynamics")
  message(FATAL_ERROR "bench should time the model-agnostic family:\n${cli_out}")
endif()

run_cli(2 simulate ${EXAMPLES}/soft_cantilever.json --family lagrangian)
expect_one_line_reason("${cli_err}" "unknown --family 'lagrangian'")
# contact: a load the model-agnostic family would drop
run_cli(2 simulate ${EXAMPLES}/contact_cylinder.json --family model-agnostic --t-end 0.01)
expect_one_line_reason("${cli_err}" "does not support")

# on the engine, differences are the user's choice, not a missing derivative
run_cli(0 statics ${EXAMPLES}/soft_cantilever.json --jacobian fd)
if(NOT cli_out MATCHES "family: engine \\(Jacobians: central differences \\(--jacobian fd\\)\\)")
  message(FATAL_ERROR "statics --jacobian fd on the engine:\n${cli_out}")
endif()
