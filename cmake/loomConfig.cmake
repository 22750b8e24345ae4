# Package config for find_package(loom): imports loom::loom and loom_add_plugin().
include(CMakeFindDependencyMacro)
find_dependency(Threads)
find_dependency(Boost 1.74)
include(${CMAKE_CURRENT_LIST_DIR}/loomTargets.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/LoomPlugin.cmake)
# A project that builds CUDA plugins includes LoomCuda after enable_language(CUDA).
list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR})
# Out-of-tree plugins go in a folder of their own; point LOOM_PLUGIN_PATH at it to load them.
