# Tests for installer/CMakeLists.txt: the Debian package holds what it should and runs unpacked.
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target package
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "building the package failed:\n${out}\n${err}")
endif()
set(deb ${BUILD_DIR}/packages/${DEB_FILE})
if(NOT EXISTS ${deb})
  message(FATAL_ERROR "expected ${deb}")
endif()

set(root ${BUILD_DIR}/packages/unpacked)
file(REMOVE_RECURSE ${root})
file(MAKE_DIRECTORY ${root})
execute_process(COMMAND dpkg-deb -x ${deb} ${root} RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "dpkg-deb -x failed")
endif()

foreach(path usr/bin/tendril usr/bin/tendril-cli usr/bin/tendril-render
             usr/share/applications/tendril.desktop usr/share/icons/hicolor/scalable/apps/tendril.svg
             usr/share/tendril/examples/hybrid_serial_robot.json)
  if(NOT EXISTS ${root}/${path})
    message(FATAL_ERROR "the package lacks ${path}")
  endif()
endforeach()

execute_process(COMMAND ${root}/usr/bin/tendril-cli --version RESULT_VARIABLE code OUTPUT_VARIABLE out)
if(NOT code EQUAL 0 OR NOT out MATCHES "tendril-cli ${VERSION}")
  message(FATAL_ERROR "unpacked tendril-cli --version: exit ${code}, printed '${out}'")
endif()
execute_process(COMMAND ${root}/usr/bin/tendril-cli validate ${root}/usr/share/tendril/examples/hybrid_serial_robot.json
                RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the unpacked tendril-cli cannot validate the packaged example")
endif()
