# loom_add_plugin(<name> SOURCES ... [LIBRARIES ...] [NO_INSTALL] [NO_INDEX]): a plugin or backend
# library, loaded at run time by the core from <dir of libloom>/loom/. Used in this tree and,
# installed, by out-of-tree plugins. NO_INSTALL: a test-only plugin, never installed.
#
# After each link, loom-plugin-index writes the library's index beside it (libloom_<stem>.so.index,
# installed with it): what it provides, so that the runtime opens it only when first used
# (docs/plugins.md, "When libraries are opened"). The tool loads the library as the runtime
# would: one the runtime would refuse on its own fails the build. NO_INDEX: no index (test
# plugins broken on purpose); the runtime then opens the library at start-up.
#
# The file is named as the loader looks for it, libloom_<stem>.so, whatever the target is called:
# <name> without a leading "loom_" is the stem (loom_example and example both give
# libloom_example.so). Out of tree, the library is also compiled with loom::simd (below).

# loom::simd: the flags loom's own host loops are compiled with, for code that instantiates the
# def:: tables outside loom's build (plugins, ops defined in a program): -march=${LOOM_ARCH} (xsimd
# picks its batch width at compile time from it) and -ffp-contract=off (no a*b+c contracted into
# an FMA: each operation rounds on its own, as in NumPy's loops). CUDA sources get what loom's own
# CUDA halves are built with: --fmad=false (the same rounding on the device) and
# --expt-relaxed-constexpr (the .cuh tables call constexpr host functions from device code).
if(NOT TARGET loom::simd)
  add_library(loom::simd INTERFACE IMPORTED)
  target_compile_options(loom::simd INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>
                         $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr --fmad=false>)
  if(LOOM_ARCH)
    target_compile_options(loom::simd INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=${LOOM_ARCH}>)
  endif()
endif()

function(loom_add_plugin name)
  cmake_parse_arguments(ARG "NO_INSTALL;NO_INDEX" "" "SOURCES;LIBRARIES" ${ARGN})
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
  string(REGEX REPLACE "^(lib)?loom_" "" stem "${name}")
  set_target_properties(${name} PROPERTIES PREFIX "lib" OUTPUT_NAME "loom_${stem}" SUFFIX ".so"
                                           CXX_VISIBILITY_PRESET hidden
                                           CUDA_VISIBILITY_PRESET hidden)
  # A name changed after this call would make the loader pass the library over: refuse it when
  # the directory is done (the loader's notice would only come at run time).
  # (EVAL: a deferred call expands its arguments when it runs, where ${name} means nothing.)
  cmake_language(EVAL CODE "cmake_language(DEFER CALL _loom_check_plugin_name [[${name}]])")
  if(NOT ARG_NO_INDEX)
    if(TARGET loom-plugin-index)  # loom's own tree
      set(tool loom-plugin-index)
      add_dependencies(${name} loom-plugin-index)
    else()  # the installed package's (loomConfig.cmake imports it)
      set(tool loom::plugin-index)
    endif()
    add_custom_command(TARGET ${name} POST_BUILD
                       COMMAND ${tool} $<TARGET_FILE:${name}> $<TARGET_FILE:${name}>.index
                       COMMENT "Writing the plugin index of ${name}" VERBATIM)
    set_property(TARGET ${name} APPEND PROPERTY ADDITIONAL_CLEAN_FILES
                 $<TARGET_FILE:${name}>.index)
  endif()
  if(DEFINED LOOM_PLUGIN_DIR)  # in loom's own tree: build beside libloom, install with it
    # (loom's own build already compiles everything with loom::simd's flags.)
    set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${LOOM_PLUGIN_DIR}
                                             INSTALL_RPATH "$ORIGIN/..")
    if(NOT ARG_NO_INSTALL)
      install(TARGETS ${name} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/loom)
      if(NOT ARG_NO_INDEX)
        install(FILES $<TARGET_FILE:${name}>.index DESTINATION ${CMAKE_INSTALL_LIBDIR}/loom)
      endif()
    endif()
  else()
    target_link_libraries(${name} PRIVATE loom::simd)
  endif()
endfunction()

function(_loom_check_plugin_name target)
  set(file "")
  foreach(p PREFIX OUTPUT_NAME SUFFIX)
    get_target_property(v ${target} ${p})
    string(APPEND file "${v}")
  endforeach()
  get_target_property(library_name ${target} LIBRARY_OUTPUT_NAME)  # wins over OUTPUT_NAME
  if(library_name)
    get_target_property(prefix ${target} PREFIX)
    get_target_property(suffix ${target} SUFFIX)
    set(file "${prefix}${library_name}${suffix}")
  endif()
  if(NOT file MATCHES "^libloom_[^/]+\\.so$")
    message(FATAL_ERROR "loom_add_plugin(${target}): the library would be named '${file}', but "
                        "loom loads only files named libloom_*.so; leave PREFIX, OUTPUT_NAME and "
                        "SUFFIX as loom_add_plugin sets them (it names this one libloom_<stem>.so "
                        "from the target name)")
  endif()
endfunction()
