# Test plugins of tests/redteam/test_plugins.cpp (issue 12, plugin loading): each in its own
# folder under ${LOOM_REDTEAM_PLUGINS}/plugins, so a case puts exactly one of them on the path.
set(LOOM_RT_PLUGINS_DIR ${LOOM_REDTEAM_PLUGINS}/plugins)
function(loom_rt_plugin name src folder)
  loom_add_plugin(${name} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/plugins/plugins/${src} NO_INSTALL)
  set_target_properties(${name} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${LOOM_RT_PLUGINS_DIR}/${folder})
  add_dependencies(loom_redteam_tests ${name})
endfunction()
loom_rt_plugin(loom_rt_conflict_add conflict_add.cpp conflict_add)
loom_rt_plugin(loom_rt_int8_add int8_add.cpp int8_add)
# rt_fam: its host half, its own CUDA half (same plugin name) and an unrelated CUDA-family library.
loom_rt_plugin(loom_rt_family family.cpp family)
target_compile_definitions(loom_rt_family PRIVATE RT_FAMILY_NAME="rt_family")
loom_rt_plugin(loom_rt_family_cuda family.cpp family)
target_compile_definitions(loom_rt_family_cuda PRIVATE RT_FAMILY_NAME="rt_family" RT_FAMILY_CUDA)
loom_rt_plugin(loom_rt_stranger_cuda family.cpp stranger)
target_compile_definitions(loom_rt_stranger_cuda PRIVATE RT_FAMILY_NAME="rt_stranger"
                                                          RT_FAMILY_CUDA)
