// Traits of the math functors that the CUDA def headers read, declared before any loop is
// instantiated: every math_<group>.cu includes this first, so that every translation unit sees
// the same specializations.
#pragma once
#include <type_traits>

#include "arith.hpp"
#include "loom/def/methods.cuh"

// Add is the type's own + (wrapping for integers): add.at may use the native atomicAdd.
template <>
struct loom::def::cu::device_add<loom::math::Add> : std::true_type {};
