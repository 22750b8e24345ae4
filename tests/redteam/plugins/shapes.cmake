# Test plugin for test_shapes.cpp: a kernel whose shared_array size is a launch argument.
loom_add_plugin(loom_redteam_shapes SOURCES ${CMAKE_CURRENT_LIST_DIR}/shapes_kernels.cpp NO_INSTALL)
set_target_properties(loom_redteam_shapes PROPERTIES LIBRARY_OUTPUT_DIRECTORY
                                                     ${LOOM_REDTEAM_PLUGINS}/shapes)
add_dependencies(loom_redteam_tests loom_redteam_shapes)
