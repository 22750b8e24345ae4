# Test plugin for test_fibers.cpp: syncthreads kernels with deep frames (130, 300 and 600 KiB of
# locals) and one that spin-waits on a flag another thread of its block sets.
loom_add_plugin(loom_redteam_fibers SOURCES ${CMAKE_CURRENT_LIST_DIR}/fibers_kernels.cpp NO_INSTALL)
set_target_properties(loom_redteam_fibers PROPERTIES LIBRARY_OUTPUT_DIRECTORY
                                                     ${LOOM_REDTEAM_PLUGINS}/fibers)
add_dependencies(loom_redteam_tests loom_redteam_fibers)
