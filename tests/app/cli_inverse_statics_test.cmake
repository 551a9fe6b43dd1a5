# Tests for app/cli_inverse_statics.cpp: round trip through `statics`, unreachable targets, bad
# input. Run by ctest as `cmake -P`. Inputs: CLI (tendril-cli), EXAMPLES, WORK (scratch directory).

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_support.cmake)  # run_cli, expect_one_line_reason

file(MAKE_DIRECTORY ${WORK})
set(model ${EXAMPLES}/cable_manipulator.json)

# the tip under the example's tensions at t = 1 s is a reachable target
run_cli(0 statics ${model} --time 1)
if(NOT cli_out MATCHES "tip arm: \\[([^,]+), ([^,]+), ([^]]+)\\] m")
  message(FATAL_ERROR "statics printed no tip:\n${cli_out}")
endif()
set(target ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3})

# solved from the tensions at t = 0 (all zero): the tensions with units, the tip, the error
run_cli(0 inverse-statics ${model} --link arm --target ${target} --out ${WORK}/solved.json)
foreach(pattern "inverse-statics: converged" "long1: [0-9.e+-]+ N\n" "short3: [0-9.e+-]+ N\n"
                "tip arm: \\[" "error: [0-9.e+-]+ m")
  if(NOT cli_out MATCHES "${pattern}")
    message(FATAL_ERROR "inverse-statics output lacks '${pattern}':\n${cli_out}")
  endif()
endforeach()

# the saved model, with these tensions as constants, puts the tip on the target (to the 8
# digits `statics` prints; the 1e-9 m check is in inverse_statics_test.cpp and the pytest)
run_cli(0 statics ${WORK}/solved.json)
list(JOIN target ", " target_text)
string(FIND "${cli_out}" "tip arm: [${target_text}] m" found)
if(found EQUAL -1)
  message(FATAL_ERROR "statics of the saved model misses [${target_text}]:\n${cli_out}")
endif()

# chosen actuators with bounds
run_cli(0 inverse-statics ${model} --link arm --target ${target} --actuators long1,long2,short1,short3
        --bounds 0:60,0:60,0:60,0:60)
if(NOT cli_out MATCHES "short3: " OR cli_out MATCHES "long3: ")
  message(FATAL_ERROR "--actuators was not followed:\n${cli_out}")
endif()

# a target far outside the workspace: exit 1 and the closest point
run_cli(1 inverse-statics ${model} --link arm --target 3 0 0)
if(NOT cli_out MATCHES "unreachable: closest point \\(")
  message(FATAL_ERROR "no closest point for an unreachable target:\n${cli_out}")
endif()

# bad input: one-line reasons, exit 2
run_cli(2 inverse-statics ${model} --link hand --target 0.5 0 0)
expect_one_line_reason("${cli_err}" "unknown link 'hand' \\(links: arm\\)")
run_cli(2 inverse-statics ${model} --link arm --target 0.5 0 0 --actuators long1,nope)
expect_one_line_reason("${cli_err}" "unknown actuator 'nope' \\(actuators: long1, ")
run_cli(2 inverse-statics ${model} --link arm --target 0.5 0 0 --actuators long1 --bounds 5:1)
expect_one_line_reason("${cli_err}" "bounds of actuator 'long1': lower 5 > upper 1 N")
run_cli(2 inverse-statics ${model} --link arm --target nan 0 0)
expect_one_line_reason("${cli_err}" "target position is not finite")
run_cli(2 inverse-statics ${model} --link arm --target 0.5 0)
expect_one_line_reason("${cli_err}" "needs --target X Y Z")
run_cli(2 inverse-statics ${model} --link arm --target 0.5 0 0 --orientation 1 0)
expect_one_line_reason("${cli_err}" "--orientation expects qw qx qy qz or rx ry rz")
run_cli(2 inverse-statics ${EXAMPLES}/parallel_robot.json --link platform --target 0 0 0)
expect_one_line_reason("${cli_err}" "no cable or force joint input")
run_cli(0 inverse-statics --help)
