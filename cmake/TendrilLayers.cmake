# The layers of core/, lowest first: a source may include headers of its own layer and those below.
set(TENDRIL_CORE_LAYERS math model algorithm sim io edit study)

# FATAL_ERROR when one of `sources` (files of `layer`) includes "core/<higher layer>/..."
function(tendril_check_layer_includes layer sources)
  list(FIND TENDRIL_CORE_LAYERS ${layer} rank)
  foreach(source IN LISTS sources)
    file(STRINGS ${source} includes REGEX "^#include \"core/[a-z]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^#include \"core/([a-z]+)/.*" "\\1" included "${line}")
      list(FIND TENDRIL_CORE_LAYERS ${included} included_rank)
      if(included_rank GREATER rank)
        message(FATAL_ERROR "${source} (layer ${layer}) includes the higher layer ${included}: "
                            "core's layers are ${TENDRIL_CORE_LAYERS} (core/CMakeLists.txt)")
      endif()
    endforeach()
  endforeach()
endfunction()
