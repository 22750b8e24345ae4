# How ctest runs a GoogleTest binary: loom_gtest(<target> [TEST_PREFIX p] [SHARDS n]
# [DISCOVERY_MODE m] [DISCOVERY_TIMEOUT s] [PROPERTIES ...] [ARGS ...]).
#
# With LOOM_TESTS_PER_BINARY (the default) a binary runs as SHARDS ctest tests (GoogleTest's own
# sharding, default 1): a process loads the backends and plugins once, where a process per test
# spent 0.1 s (a sanitized one about a second) starting for each of ~4000 tests, which was most of
# ctest's time (the kernel suite: 54 s as 557 processes, 0.7 s as one). A failure names the
# binary; its output names the test. OFF: every test is its own ctest test
# (gtest_discover_tests), for ctest -R on one test.
# ARGS (per-binary mode only) are added to the binary's command line, e.g. a --gtest_filter.
option(LOOM_TESTS_PER_BINARY "Run each GoogleTest binary as a few ctest tests, not one per test" ON)

function(loom_gtest target)
  cmake_parse_arguments(arg "" "TEST_PREFIX;SHARDS;DISCOVERY_MODE;DISCOVERY_TIMEOUT" "PROPERTIES;ARGS"
                        ${ARGN})
  if(NOT LOOM_TESTS_PER_BINARY)
    set(pass TEST_PREFIX "${arg_TEST_PREFIX}")
    if(arg_DISCOVERY_MODE)
      list(APPEND pass DISCOVERY_MODE ${arg_DISCOVERY_MODE})
    endif()
    if(arg_DISCOVERY_TIMEOUT)
      list(APPEND pass DISCOVERY_TIMEOUT ${arg_DISCOVERY_TIMEOUT})
    endif()
    if(arg_PROPERTIES)
      list(APPEND pass PROPERTIES ${arg_PROPERTIES})
    endif()
    gtest_discover_tests(${target} ${pass})
    return()
  endif()
  if(NOT arg_SHARDS)
    set(arg_SHARDS 1)
  endif()
  math(EXPR last "${arg_SHARDS} - 1")
  foreach(i RANGE ${last})
    set(name "${arg_TEST_PREFIX}${target}")
    if(arg_SHARDS GREATER 1)
      string(APPEND name ".shard${i}")
    endif()
    add_test(NAME ${name} COMMAND ${target} --gtest_brief=1 ${arg_ARGS})
    if(arg_PROPERTIES)
      set_tests_properties(${name} PROPERTIES ${arg_PROPERTIES})
    endif()
    # A whole binary under a sanitizer: far longer than one test's limit.
    set_tests_properties(${name} PROPERTIES TIMEOUT 1800 ENVIRONMENT
                         "GTEST_TOTAL_SHARDS=${arg_SHARDS};GTEST_SHARD_INDEX=${i}")
  endforeach()
endfunction()
