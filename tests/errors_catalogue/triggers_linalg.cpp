// Catalogue triggers of loom/linalg.hpp's checked calls (issue 14, docs/linalg.md): an instance of
// a batch with no answer, on the runtime a user gets (the build's linalg and math plugins).
#include <cmath>

#include "catalogue.hpp"
#include "loom/linalg.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

// (2, 3, 2, 2): 2 I everywhere except instance (1, 0), which is `bad`.
Array batch_with(double b00, double b01, double b10, double b11) {
  Array a = zeros({2, 3, 2, 2});
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) a.at<double>(i, j, 0, 0) = a.at<double>(i, j, 1, 1) = 2;
  }
  a.at<double>(1, 0, 0, 0) = b00;
  a.at<double>(1, 0, 0, 1) = b01;
  a.at<double>(1, 0, 1, 0) = b10;
  a.at<double>(1, 0, 1, 1) = b11;
  return a;
}

const TriggerSet linalg_set = {
    {"E-LINALG-SINGULAR", [] { linalg::inv(rt(), batch_with(1, 2, 2, 4)); }},
    {"E-LINALG-NOT-POSITIVE-DEFINITE", [] { linalg::cholesky(rt(), batch_with(1, 2, 2, 1)); }},
    {"E-LINALG-SVD", [] { linalg::svdvals(rt(), batch_with(1, std::nan(""), 2, 1)); }},
};

}  // namespace
}  // namespace loom
