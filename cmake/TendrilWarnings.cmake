# Warnings are errors for our own code only (third-party headers are included as SYSTEM by their targets).
function(tendril_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
endfunction()

function(tendril_set_sanitizers target)
  if(TENDRIL_SANITIZE)
    # PUBLIC: whatever links an instrumented static library is built the same way. It needs the
    # runtimes, and Eigen must agree across the link: under AddressSanitizer it does not trust
    # malloc's alignment and offsets its blocks, which a plain build would free() as they are
    # UBSan without its alignment and null checks: they instrument every reference Eigen binds and
    # double the compile time, while AddressSanitizer reports a null dereference itself and this
    # Debug build keeps Eigen's own alignment assertions
    target_compile_options(${target} PUBLIC -fsanitize=address,undefined -fno-sanitize=alignment,null
                                            -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
endfunction()

# The dependency rule is the architecture: tendril_core (and what only it uses) must not link Qt or VTK.
function(tendril_forbid_gui_dependencies target)
  get_target_property(libs ${target} LINK_LIBRARIES)
  foreach(lib IN LISTS libs)
    if(lib MATCHES "^(Qt[0-9]*::|VTK::)")
      message(FATAL_ERROR "${target} must not link ${lib}: core/ is Qt- and VTK-free (docs/ARCHITECTURE.md)")
    endif()
  endforeach()
endfunction()
