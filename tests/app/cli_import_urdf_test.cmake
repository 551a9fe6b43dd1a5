# Tests for app/cli_import.cpp: tendril-cli import-urdf. Run by ctest as `cmake -P`.
# Inputs: CLI (tendril-cli), URDF_DIR (tests/data/urdf), WORK (scratch directory).

include(${CMAKE_CURRENT_LIST_DIR}/cli_test_support.cmake)  # run_cli, expect_one_line_reason

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# the arm: a model that validates, with the URDF's 6 moving joints
run_cli(0 import-urdf ${URDF_DIR}/arm6/arm6.urdf --out ${WORK}/arm6.json)
run_cli(0 info ${WORK}/arm6.json)
if(NOT cli_out MATCHES "degrees of freedom: 6\n")
  message(FATAL_ERROR "info on the imported arm:\n${cli_out}")
endif()
# --floating-base: a free joint at the root
run_cli(0 import-urdf ${URDF_DIR}/arm6/arm6.urdf --out ${WORK}/arm6_free.json --floating-base)
run_cli(0 info ${WORK}/arm6_free.json)
if(NOT cli_out MATCHES "degrees of freedom: 12\n")
  message(FATAL_ERROR "info on the floating arm:\n${cli_out}")
endif()
# the humanoid floats by its own floating joint
run_cli(0 import-urdf ${URDF_DIR}/humanoid/humanoid.urdf --out ${WORK}/humanoid.json)
run_cli(0 info ${WORK}/humanoid.json)
if(NOT cli_out MATCHES "degrees of freedom: 38\n")
  message(FATAL_ERROR "info on the humanoid:\n${cli_out}")
endif()

# usage errors
run_cli(2 import-urdf ${URDF_DIR}/arm6/arm6.urdf)
expect_one_line_reason("${cli_err}" "needs --out")
run_cli(2 import-urdf --out ${WORK}/x.json)
expect_one_line_reason("${cli_err}" "expected exactly one ROBOT.urdf")
run_cli(0 import-urdf --help)

# bad input: exit 3, one line naming the element, nothing written
file(WRITE ${WORK}/cycle.urdf [=[<robot name="cycle">
  <link name="base"/>
  <link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="a_to_b" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="b_to_a" type="fixed"><parent link="b"/><child link="a"/></joint>
</robot>
]=])
run_cli(3 import-urdf ${WORK}/cycle.urdf --out ${WORK}/cycle.json)
expect_one_line_reason("${cli_err}" "/robot/joint\\[@name='(a_to_b|b_to_a)'\\]: closes a cycle")
file(WRITE ${WORK}/mesh.urdf [=[<robot name="mesh">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="package://nowhere/base.stl"/></geometry></visual></link>
</robot>
]=])
run_cli(3 import-urdf ${WORK}/mesh.urdf --out ${WORK}/mesh.json)
expect_one_line_reason("${cli_err}" "/robot/link\\[@name='base'\\]/visual/geometry/mesh: mesh file 'package://nowhere/base.stl' not found")
file(WRITE ${WORK}/malformed.urdf "<robot name=\"x\"><link name=\"a\"></robot>")
run_cli(3 import-urdf ${WORK}/malformed.urdf --out ${WORK}/malformed.json)
expect_one_line_reason("${cli_err}" "not well-formed XML")
foreach(name cycle mesh malformed)
  if(EXISTS ${WORK}/${name}.json OR EXISTS ${WORK}/${name}.json.tmp-save)
    message(FATAL_ERROR "a failed import wrote ${name}.json")
  endif()
endforeach()
