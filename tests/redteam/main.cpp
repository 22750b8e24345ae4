// The red-team suite's main: death-test children re-execute the binary ("threadsafe" style),
// because TBB and the runtime start threads that a plain fork would leave behind half-copied.
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  return RUN_ALL_TESTS();
}
