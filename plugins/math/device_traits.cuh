// Traits of the math functors that the CUDA def headers read, declared before any loop is
// instantiated: every math_<group>.cu includes this first, so that every translation unit sees
// the same specializations.
#pragma once
#include <type_traits>

#include "arith.hpp"
#include "complex_ops.hpp"
#include "half.hpp"
#include "loom/def/methods.cuh"

// Add is the type's own + (wrapping for integers): add.at may use the native atomicAdd.
template <>
struct loom::def::cu::device_add<loom::math::Add> : std::true_type {};
// The float16 adaptor (half.hpp) adds as its float functor; atomic_apply takes the native
// atomicAdd for float64 and integers only, where Half<Add> is Add itself.
template <class F>
struct loom::def::cu::device_add<loom::math::Half<F>> : loom::def::cu::device_add<F> {};
// Cx<F, C> (complex_ops.hpp) runs F for every real dtype: the same atomics. Complex types never
// take the native atomicAdd (atomic_apply's compare-and-swap covers complex64; complex128, 16
// bytes, is ordered).
template <class F, class C>
struct loom::def::cu::device_add<loom::math::Cx<F, C>> : loom::def::cu::device_add<F> {};
template <class F>
struct loom::def::cu::device_add<loom::math::HalfFold<F>> : loom::def::cu::device_add<F> {};
