// NumPy 2's range check of a Python int against the loop that takes it, for loom's weak int (a
// C++ int): np.add(int8 x, 300) raises OverflowError, where converting 300 to int8 would compute
// with 44. The loop is resolved from dtypes and cached; the value is checked here, per call.
#include <algorithm>
#include <initializer_list>
#include <limits>
#include <optional>
#include <type_traits>

#include "loom/error.hpp"
#include "loom/small_vector.hpp"
#include "ops/pick_loop.hpp"

namespace loom::detail {

namespace {

bool is_integer(DType t) { return kind(t) == Kind::signed_int || kind(t) == Kind::unsigned_int; }

// The value of a weak int input, or nothing for any other input.
std::optional<std::int64_t> weak_int(const Array& a) {
  if (!a.valid() || !a.weak() || !is_integer(a.dtype()) || a.size() == 0 || !a.device().is_host()) {
    return std::nullopt;
  }
  std::int64_t v = 0;
  cast_strided(a.data(), 0, a.dtype(), reinterpret_cast<char*>(&v), 0, DType::int64, 1);
  return v;
}

// Whether the loop input dtype t takes v without changing it. Bool and inexact loops convert a
// Python int without a check in NumPy too (np.add(float16 x, 70000) is inf).
bool holds(DType t, std::int64_t v) {
  if (!is_integer(t)) return true;
  return visit_dtype(t, [v](auto z) {
    using T = decltype(z);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (v < 0) return std::is_signed_v<T> && v >= std::int64_t{std::numeric_limits<T>::min()};
      return static_cast<std::uint64_t>(v) <= std::uint64_t{std::numeric_limits<T>::max()};
    } else {
      return true;
    }
  });
}

bool named(const OpDesc& op, std::initializer_list<const char*> names) {
  return op.kind == OpKind::ufunc && std::find(names.begin(), names.end(), op.name) != names.end();
}

}  // namespace

// NumPy 2 compares a Python int with an integer array by value (np.equal(int8 x, 300) is all
// False, np.less(uint8 x, -1) too) unless a signature names the loop.
bool comparison(const OpDesc& op) {
  return named(op, {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"});
}

// NumPy's logical ops answer for any Python int (by its truth: np.logical_not(256, dtype=bool)
// is False, where 256 through an int8 loop would be 0).
bool logical(const OpDesc& op) {
  return named(op, {"logical_and", "logical_or", "logical_xor", "logical_not"});
}

bool weak_ints_fit(const Loop& l, std::span<const Array* const> in) {
  for (std::size_t i = 0; i < in.size() && i < l.sig.inputs.size(); ++i) {
    const auto v = weak_int(*in[i]);
    if (v && !holds(l.sig.inputs[i], *v)) return false;
  }
  return true;
}

bool weak_ints_fit(const Loop& l, std::span<const Array> in) {
  SmallVec<const Array*, 8> p;
  for (const auto& a : in) p.push_back(&a);
  return weak_ints_fit(l, std::span<const Array* const>(p.data(), p.size()));
}

bool take_weak_ints_by_value(const OpDesc& op, const Loop& l, const std::string& signature,
                             std::span<const Array> in, std::span<DType> dts,
                             std::span<bool> weak) {
  if (!signature.empty()) return false;
  bool changed = false;
  if (logical(op)) {
    for (std::size_t i = 0; i < in.size() && i < l.sig.inputs.size(); ++i) {
      const auto v = weak_int(in[i]);
      if (!v || holds(l.sig.inputs[i], *v)) continue;
      dts[i] = DType::int64;
      weak[i] = false;
      changed = true;
    }
    return changed;
  }
  if (!comparison(op)) return false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto v = weak_int(in[i]);
    if (!v) continue;
    for (std::size_t j = 0; j < in.size(); ++j) {
      if (j == i || !is_integer(dts[j]) || holds(dts[j], *v)) continue;
      // An int64 compares exactly with every signed array; beside uint64 the loop is float64,
      // exact in sign (a negative int is below every uint64; the one case that does not fit).
      dts[i] = DType::int64;
      weak[i] = false;
      changed = true;
    }
  }
  return changed;
}

void refuse_weak_int_range(const OpDesc& op, const Loop& l, std::span<const Array> in) {
  for (std::size_t i = 0; i < in.size() && i < l.sig.inputs.size(); ++i) {
    const auto v = weak_int(in[i]);
    if (!v || holds(l.sig.inputs[i], *v)) continue;
    const std::string t(name(l.sig.inputs[i]));
    throw ValueError(std::string(name(op.kind)) + " '" + op.name + "': the weak int " +
                     std::to_string(*v) + " (input " + std::to_string(i) +
                     ", a Python int to NumPy) is out of bounds for the loop's dtype " + t +
                     ", as NumPy 2 raises OverflowError (\"Python integer " + std::to_string(*v) +
                     " out of bounds for " + t +
                     "\"); pass it typed (std::int64_t{v} takes a wider loop) or a dtype= that "
                     "holds it");
  }
}

}  // namespace loom::detail
