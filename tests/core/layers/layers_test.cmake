# core.layers: the configure-time check of core's layers rejects an upward include and accepts the
# tree as it is. Run as: cmake -DTENDRIL_SOURCE_DIR=... -DWORK_DIR=... -P layers_test.cmake
set(check ${TENDRIL_SOURCE_DIR}/cmake/TendrilLayers.cmake)
file(MAKE_DIRECTORY ${WORK_DIR})

# a model-layer file that includes the io layer: must fail and name the file and the layer
file(WRITE ${WORK_DIR}/upward.cpp "#include \"core/model/model.hpp\"\n#include \"core/io/json_io.hpp\"\n")
file(WRITE ${WORK_DIR}/upward.cmake
     "include(${check})\ntendril_check_layer_includes(model ${WORK_DIR}/upward.cpp)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -P ${WORK_DIR}/upward.cmake
                RESULT_VARIABLE result ERROR_VARIABLE output)
string(REGEX REPLACE "[ \n]+" " " output "${output}")  # CMake wraps its messages
if(result EQUAL 0 OR NOT output MATCHES "upward.cpp \\(layer model\\) includes the higher layer io")
  message(FATAL_ERROR "an upward include was not rejected: ${output}")
endif()

# every layer of the repository as it stands passes
file(WRITE ${WORK_DIR}/tree.cmake "include(${check})\n")
include(${check})  # TENDRIL_CORE_LAYERS
foreach(layer IN LISTS TENDRIL_CORE_LAYERS)
  file(GLOB_RECURSE files ${TENDRIL_SOURCE_DIR}/core/${layer}/*.cpp ${TENDRIL_SOURCE_DIR}/core/${layer}/*.hpp)
  file(APPEND ${WORK_DIR}/tree.cmake "tendril_check_layer_includes(${layer} \"${files}\")\n")
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} -P ${WORK_DIR}/tree.cmake
                RESULT_VARIABLE result ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the repository breaks its own layers: ${output}")
endif()
