// Catalogue triggers of loom/eigen.hpp (issue 14, docs/interop.md): host arrays that cannot be
// viewed as the Eigen::Map asked for.
#include "catalogue.hpp"
#include "loom/eigen.hpp"
#include "trigger_helpers.hpp"

namespace loom {

using namespace catalogue;  // NOLINT: the helpers of this file

namespace {

const TriggerSet eigen = {
    {"E-DEVICE-EIGEN-HOST", [] { as_eigen<Eigen::VectorXd>(fake_device({4})); }},
    {"E-TYPE-EIGEN-DTYPE",
     [] {
       as_eigen<Eigen::MatrixXf>(zeros({2, 2}));
     }},
    {"E-SHAPE-EIGEN-NDIM",
     [] {
       as_eigen<Eigen::VectorXd>(zeros({2, 2}));
     }},
    {"E-SHAPE-EIGEN-FIXED-SIZE",
     [] {
       as_eigen<Eigen::Matrix3d>(zeros({2, 2}));
     }},
    {"E-VALUE-EIGEN-READONLY",
     [] {
       as_eigen<Eigen::MatrixXd>(zeros({3}).broadcast_to({2, 3}));
     }},
    {"E-VALUE-EIGEN-ALIGNMENT",
     [] {
       alignas(8) static char mem[64];
       as_eigen<Eigen::VectorXd>(wrap(mem + 4, {3}, DType::float64));
     }},
};

}  // namespace
}  // namespace loom
