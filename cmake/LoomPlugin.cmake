# loom_add_plugin(<name> SOURCES ... [LIBRARIES ...] [NO_INSTALL]): a plugin or backend library,
# loaded at run time by the core from <dir of libloom>/loom/. Used in this tree and, installed, by
# out-of-tree plugins. NO_INSTALL: a test-only plugin, never installed.
function(loom_add_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE loom::loom Boost::headers ${ARG_LIBRARIES})
  # MODULE libraries accept undefined symbols silently; make a missing one a link error.
  target_link_options(${name} PRIVATE -Wl,--no-undefined)
  # Kernel threads that use syncthreads run on fiber stacks with a guard below: probing every
  # page of a large frame makes an overflow fault on the guard instead of writing past it into
  # other memory (docs/kernels.md, "Fiber stacks"). Host code only: nvcc's device code has none.
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag(-fstack-clash-protection LOOM_HAVE_STACK_CLASH_PROTECTION)
  if(LOOM_HAVE_STACK_CLASH_PROTECTION)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fstack-clash-protection>)
  endif()
  set_target_properties(${name} PROPERTIES PREFIX "lib" CXX_VISIBILITY_PRESET hidden
                                           CUDA_VISIBILITY_PRESET hidden)
  if(DEFINED LOOM_PLUGIN_DIR)  # in loom's own tree: build beside libloom, install with it
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${LOOM_PLUGIN_DIR}
                                             INSTALL_RPATH "$ORIGIN/..")
    if(NOT ARG_NO_INSTALL)
      install(TARGETS ${name} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/loom)
    endif()
  endif()
endfunction()
