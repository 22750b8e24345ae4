# How ctest runs a GoogleTest binary: loom_gtest(<target> [TEST_PREFIX p] [SHARDS n]
# [DISCOVERY_MODE m] [DISCOVERY_TIMEOUT s] [PROPERTIES ...]).
#
# By default every test is its own ctest test (gtest_discover_tests): a failure names its test and
# ctest -j spreads them over the cores. With LOOM_TESTS_PER_BINARY (the asan preset) a binary runs
# as SHARDS ctest tests instead (GoogleTest's own sharding, default 1), because a sanitized process
# takes about a second to start and load the plugins, which over ~4000 tests was 20 minutes of CI.
option(LOOM_TESTS_PER_BINARY "Run each GoogleTest binary as a few ctest tests, not one per test" OFF)

function(loom_gtest target)
  cmake_parse_arguments(arg "" "TEST_PREFIX;SHARDS;DISCOVERY_MODE;DISCOVERY_TIMEOUT" "PROPERTIES"
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
    add_test(NAME ${name} COMMAND ${target} --gtest_brief=1)
    if(arg_PROPERTIES)
      set_tests_properties(${name} PROPERTIES ${arg_PROPERTIES})
    endif()
    # A whole binary under a sanitizer: far longer than one test's limit.
    set_tests_properties(${name} PROPERTIES TIMEOUT 1800 ENVIRONMENT
                         "GTEST_TOTAL_SHARDS=${arg_SHARDS};GTEST_SHARD_INDEX=${i}")
  endforeach()
endfunction()
