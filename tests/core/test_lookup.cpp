// Lookups of unknown names (issue 13): the message names the closest registered name, as Python's
// "Did you mean", when one is close (an edit distance of at most 2 and under half the name, or
// one name a prefix of the other), and says nothing more otherwise.
#include <gtest/gtest.h>

#include <string>

#include "loom/error.hpp"
#include "loom/runtime.hpp"

namespace {

using loom::LookupError;
using loom::Runtime;

// The default search path: serial, math, kernels (and tbb where built).
Runtime& rt() {
  static Runtime r;
  return r;
}

template <class F>
std::string lookup_message(F f) {
  try {
    f();
  } catch (const LookupError& e) {
    return e.what();
  }
  return "no LookupError";
}

TEST(Lookup, ACloseOpNameIsSuggested) {
  EXPECT_EQ(lookup_message([] { rt().ufunc("sqrtt"); }),
            "no ufunc or gufunc named 'sqrtt' is registered; loom-info lists the registered ops; "
            "did you mean 'sqrt'?");
  EXPECT_EQ(lookup_message([] { rt().ufunc("ad"); }),
            "no ufunc or gufunc named 'ad' is registered; loom-info lists the registered ops; did "
            "you mean 'add'?");
  // Reductions are suggested for reduce(), ufuncs for ufunc().
  EXPECT_EQ(lookup_message([] { rt().reduce("summ"); }),
            "no reduction named 'summ' is registered; loom-info lists the registered ops; did you "
            "mean 'sum'?");
}

TEST(Lookup, APrefixOfAKernelNameSuggestsIt) {
  EXPECT_EQ(lookup_message([] { rt().kernel("block_su"); }),
            "no kernel named 'block_su' is registered; loom-info lists the registered kernels; did "
            "you mean 'block_sum'?");
}

TEST(Lookup, NothingCloseSuggestsNothing) {
  EXPECT_EQ(lookup_message([] { rt().ufunc("frobnicate"); }),
            "no ufunc or gufunc named 'frobnicate' is registered; loom-info lists the registered "
            "ops");
  EXPECT_EQ(lookup_message([] { rt().kernel("xy"); }),
            "no kernel named 'xy' is registered; loom-info lists the registered kernels");
}

}  // namespace
