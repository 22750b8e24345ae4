// NumPy's linear_search_type_resolver, with NEP 50 weak scalars and a per-op cache; and the loop
// for a call's input arrays (pick_loop).
#include "loom/type_resolution.hpp"

#include <algorithm>
#include <mutex>

#include "loom/error.hpp"
#include "loom/small_vector.hpp"
#include "ops/pick_loop.hpp"

namespace loom {

namespace {

// A weak Python-like scalar fits any loop dtype of its kind or a higher kind.
bool weak_fits(DType scalar, DType loop) {
  const Kind s = kind(scalar), l = kind(loop);
  switch (s) {
    case Kind::boolean:
      return true;
    case Kind::signed_int:
    case Kind::unsigned_int:
      return l != Kind::boolean;
    case Kind::floating:
      return l == Kind::floating || l == Kind::complex;
    case Kind::complex:
      return l == Kind::complex;
  }
  return false;
}

// Key without overrides: family, casting, then 5 bits (dtype, weak) per input, never 0 so that
// the key holds the number of inputs too; 0 if too many. The raw weak flags: all-weak inputs
// resolve differently (int -> int64) from the same dtypes given as arrays, so they must not share
// a cache entry (both found by tests/fuzz/fuzz_resolve).
std::uint64_t plain_key(const ResolveRequest& r) {
  if (r.dtype || !r.signature.empty() || r.inputs.size() > 11) return 0;
  std::uint64_t k =
      1 + static_cast<std::uint64_t>(r.family) * 2 + static_cast<std::uint64_t>(r.casting) * 4;
  for (std::size_t i = 0; i < r.inputs.size(); ++i) {
    const std::uint64_t v = 1 + static_cast<std::uint64_t>(r.inputs[i]) * 2 + (r.weak[i] ? 1 : 0);
    k |= v << (5 + 5 * i);
  }
  return k;
}

std::string key_of(const ResolveRequest& r) {
  std::string k(1, static_cast<char>('0' + static_cast<int>(r.family)));
  for (std::size_t i = 0; i < r.inputs.size(); ++i) {
    k += static_cast<char>('a' + static_cast<int>(r.inputs[i]));
    k += r.weak[i] ? 'w' : 's';
  }
  k += '|';
  if (r.dtype) k += static_cast<char>('a' + static_cast<int>(*r.dtype));
  k += '|' + r.signature + '|' + static_cast<char>('0' + static_cast<int>(r.casting));
  return k;
}

int kind_rank(DType t) {  // bool < integers < floating < complex
  switch (kind(t)) {
    case Kind::boolean:
      return 0;
    case Kind::signed_int:
    case Kind::unsigned_int:
      return 1;
    case Kind::floating:
      return 2;
    case Kind::complex:
      return 3;
  }
  return 0;
}

std::string inputs_str(std::span<const DType> in) {
  std::string s = "(";
  for (std::size_t i = 0; i < in.size(); ++i) s += (i ? ", " : "") + std::string(name(in[i]));
  return s + ")";
}

}  // namespace

// logical_and/or/xor called with inputs of different dtypes.
static bool mixed_logical(const OpDesc& op, std::span<const DType> in) {
  return op.kind == OpKind::ufunc && in.size() == 2 && in[0] != in[1] &&
         (op.name == "logical_and" || op.name == "logical_or" || op.name == "logical_xor");
}

// NumPy's true-divide resolver: divide of bool and integer inputs runs in float64 (not the first
// loop they cast to safely, float16 or float32); a float input, dtype= or signature= resolve as
// for any ufunc. `in` holds the inputs after the weak-scalar rules.
static bool integer_true_divide(const OpDesc& op, std::span<const DType> in) {
  if (op.kind != OpKind::ufunc || (op.name != "divide" && op.name != "true_divide")) return false;
  for (DType t : in) {
    if (kind(t) != Kind::boolean && kind(t) != Kind::signed_int && kind(t) != Kind::unsigned_int) {
      return false;
    }
  }
  return true;
}

// Calls NumPy refuses although one of its loops would take the inputs: its resolvers say no.
// subtract and negative of bools (its subtraction and negative resolvers: a bool difference is
// not arithmetic), and gcd, lcm, positive and sign of bools (its uniform resolver runs the loop
// of the inputs' common dtype only, and they have no bool loop, though bool casts to int8
// safely). Only where nothing forces the loop: np.subtract(b, b, dtype=np.int8) answers. `in`
// holds the inputs after the weak-scalar rules (a Python int with bools is an int64).
static void refuse_bool_inputs(const OpDesc& op, std::span<const DType> in, const Loop& l) {
  if (op.kind != OpKind::ufunc || in.empty()) return;
  for (DType t : in) {
    if (t != DType::bool_) return;
  }
  if (l.sig.inputs[0] == DType::bool_) return;  // a plugin's own bool loop of the name runs
  const std::string who = "ufunc '" + op.name + "' of bool inputs is refused, as NumPy refuses it";
  const std::string as_ints =
      "pass dtype= of an integer dtype (e.g. int8) or cast the inputs to compute on integers";
  if (op.name == "subtract") {
    throw TypeError(who +
                    " (\"numpy boolean subtract, the - operator, is not supported\"): use "
                    "bitwise_xor or logical_xor for bools, or " +
                    as_ints);
  }
  if (op.name == "negative") {
    throw TypeError(who +
                    " (\"The numpy boolean negative, the - operator, is not supported\"): use "
                    "logical_not or bitwise_not for bools, or " +
                    as_ints);
  }
  if (op.name == "gcd" || op.name == "lcm" || op.name == "positive" || op.name == "sign") {
    throw TypeError(who + " (it runs the loop of the inputs' common dtype, bool, and '" + op.name +
                    "' has none; its signatures are: " + op.signatures() + "): " + as_ints);
  }
}

// NumPy 2 takes a Python scalar under casting='equiv' only into its own dtype (int64, float64,
// complex128; a bool into bool): np.add(int32 x, 3, casting='equiv') is a TypeError, although
// 'no' answers (npy_update_operand_for_scalar). loom's weak scalars stand for Python's. Not
// refused there: the logical ops (which take any input for its truth) and a Python int compared
// with an integer array (NumPy 2 compares it as a Python int, with no cast).
static void refuse_weak_under_equiv(const OpDesc& op, const ResolveRequest& r, const Loop& l) {
  if (r.casting != Casting::equiv || detail::logical(op)) return;
  const bool compares = detail::comparison(op);
  for (std::size_t i = 0; i < r.inputs.size() && i < l.sig.inputs.size(); ++i) {
    if (!r.weak[i]) continue;
    const int rank = kind_rank(r.inputs[i]);
    if (compares && rank == 1 && kind_rank(l.sig.inputs[i]) == 1) continue;
    const DType own = rank == 0   ? DType::bool_
                      : rank == 1 ? DType::int64
                      : rank == 2 ? DType::float64
                                  : DType::complex128;
    if (l.sig.inputs[i] == own) continue;
    const char* py = rank == 0 ? "bool" : rank == 1 ? "int" : rank == 2 ? "float" : "complex";
    throw TypeError(std::string(name(op.kind)) + " '" + op.name + "': cannot cast the weak " + py +
                    " scalar (input " + std::to_string(i) + ", a Python " + py + " to NumPy) to " +
                    std::string(name(l.sig.inputs[i])) +
                    " under the casting rule 'equiv', as NumPy 2 refuses it ('equiv' takes it " +
                    "into " + std::string(name(own)) + " only); pass it as a 0-d array of " +
                    std::string(name(l.sig.inputs[i])) +
                    " (Array(v).astype(...), which is not weak) or use casting='no' or 'safe'");
  }
}

int resolve_loop(const OpDesc& op, const ResolveRequest& r) {
  const std::uint64_t pkey = plain_key(r);
  // Keys of up to 7 inputs fit beside a 24-bit loop index. Only resolved requests are stored, so
  // a hit also means that the op has loops for the family.
  constexpr int kIndexBits = 24;
  const bool memo = pkey != 0 && pkey < (std::uint64_t{1} << (64 - kIndexBits)) &&
                    op.loops.size() < (std::size_t{1} << kIndexBits);
  if (memo) {
    const std::uint64_t last = op.cache->last.load(std::memory_order_relaxed);
    if (last >> kIndexBits == pkey) return static_cast<int>(last & ((1u << kIndexBits) - 1));
  }
  auto remember = [&](int loop) {
    if (memo) {
      op.cache->last.store(pkey << kIndexBits | static_cast<std::uint64_t>(loop),
                           std::memory_order_relaxed);
    }
    return loop;
  };
  const int fam = static_cast<int>(r.family);
  if (!op.has_family(r.family)) {
    throw LookupError(std::string(name(op.kind)) + " '" + op.name + "' has no " + name(r.family) +
                      " loops (it comes from " + op.plugins + "; load the plugin built for " +
                      name(r.family) + " to run it there)");
  }
  // All-weak inputs (add(2.0, 3)) behave as their own dtypes, as NumPy does for Python scalars.
  bool all_weak = true;
  for (bool w : r.weak) all_weak = all_weak && w;
  const std::string key = pkey ? std::string() : key_of(r);
  {
    std::shared_lock lock(op.cache->mutex);
    if (pkey) {
      auto it = op.cache->plain.find(pkey);
      if (it != op.cache->plain.end()) return remember(it->second);
    } else {
      auto it = op.cache->map.find(key);
      if (it != op.cache->map.end()) return it->second;
    }
  }
  // NEP 50: a weak scalar of a higher kind than every array (int8_array + 2.0, bool_array + 1)
  // takes its kind's default dtype (float64, int64, complex128) and resolves as that dtype.
  int strong_rank = -1;
  for (std::size_t i = 0; i < r.inputs.size(); ++i) {
    if (all_weak || !r.weak[i]) strong_rank = std::max(strong_rank, kind_rank(r.inputs[i]));
  }
  constexpr std::size_t kMaxIn = 32;
  DType in[kMaxIn];
  bool weak[kMaxIn];
  for (std::size_t i = 0; i < r.inputs.size() && i < kMaxIn; ++i) {
    in[i] = r.inputs[i];
    weak[i] = !all_weak && r.weak[i];
    const int rank = kind_rank(in[i]);
    if (all_weak && rank == 1) in[i] = DType::int64;  // add(2, 3): NumPy's default int
    if (weak[i] && rank > strong_rank && rank > 0) {
      in[i] = rank == 1 ? DType::int64 : rank == 2 ? DType::float64 : DType::complex128;
      weak[i] = false;
    }
  }
  std::optional<Signature> exact;
  if (!r.signature.empty()) exact = Signature::parse(r.signature);
  // Inputs are matched with at most safe casting, as NumPy's resolver does; a forced loop
  // (dtype= or signature=) takes them under the call's casting rule, so that casting='unsafe'
  // casts them to the loop's types (np.power(1.5, 2.8, dtype=np.int64, casting='unsafe') == 1).
  const bool forced = r.dtype.has_value() || exact.has_value();
  const Casting in_cast = forced || r.casting < Casting::safe ? r.casting : Casting::safe;
  int found = -1;
  // NumPy 2's logical_and/or/xor take inputs of two different dtypes for their truth, through the
  // bool loop, under any casting rule (its logical promoter): np.logical_and(int8, float64,
  // casting='no') is answered, with dtype=bool too (the loop's own output). Another dtype= or a
  // signature= resolves as for any ufunc.
  const bool bool_out = !r.dtype.has_value() || *r.dtype == DType::bool_;
  if (!exact && bool_out && mixed_logical(op, std::span<const DType>(in, r.inputs.size()))) {
    for (int li = 0; li < static_cast<int>(op.loops.size()) && found < 0; ++li) {
      const Loop& l = op.loops[li];
      bool all_bool = l.impl[fam].present() && l.sig.inputs.size() == r.inputs.size();
      for (DType t : l.sig.inputs) all_bool = all_bool && t == DType::bool_;
      if (all_bool) found = li;
    }
  }
  const bool to_float64 =
      !forced &&
      integer_true_divide(op, std::span<const DType>(in, std::min(r.inputs.size(), kMaxIn)));
  auto search = [&] {
    for (int li = 0; li < static_cast<int>(op.loops.size()) && found < 0; ++li) {
      const Loop& l = op.loops[li];
      if (!l.impl[fam].present()) continue;
      if (exact && !(l.sig == *exact)) continue;
      if (r.dtype && l.sig.outputs[0] != *r.dtype) continue;
      if (to_float64 && l.sig.outputs[0] != DType::float64) continue;
      bool ok = l.sig.inputs.size() == r.inputs.size() && r.inputs.size() <= kMaxIn;
      for (std::size_t i = 0; ok && i < r.inputs.size(); ++i) {
        if (exact) break;  // an explicit signature casts the inputs as asked (checked below)
        ok = weak[i] ? weak_fits(in[i], l.sig.inputs[i]) ||
                           (forced && can_cast(in[i], l.sig.inputs[i], in_cast))
                     : can_cast(in[i], l.sig.inputs[i], in_cast);
      }
      for (std::size_t i = 0; ok && exact && i < r.inputs.size(); ++i) {
        ok = weak[i] || can_cast(in[i], l.sig.inputs[i], r.casting);
      }
      if (ok) found = li;
    }
  };
  search();
  // Only Python scalars, refused as their default dtypes together (divide(1.0, 5, casting='no')):
  // as NumPy, the highest kind's scalars take its default dtype and the lower kinds stay weak, so
  // the float64 loop answers (not the first float loop, float16).
  if (found < 0 && all_weak && !forced && r.inputs.size() <= kMaxIn) {
    int top = 0;
    for (DType t : r.inputs) top = std::max(top, kind_rank(t));
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
      weak[i] = kind_rank(r.inputs[i]) < top;
      in[i] = r.inputs[i];
      if (!weak[i] && top == 1) in[i] = DType::int64;
    }
    search();
  }
  // All-weak inputs that no loop takes as NumPy's defaults (an int32-only op called with the
  // literal 10): they stay weak, so the first loop of their kinds or higher takes them
  // (docs/decisions.md, "Scalars are weak").
  if (found < 0 && all_weak && !forced && r.inputs.size() <= kMaxIn) {
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
      in[i] = r.inputs[i];
      weak[i] = true;
    }
    search();
  }
  if (found >= 0) {
    // Checked before the cache stores the loop: a refused request is never stored, so every call
    // of it gets here.
    if (!forced)
      refuse_bool_inputs(op, std::span<const DType>(in, std::min(r.inputs.size(), kMaxIn)),
                         op.loops[found]);
    refuse_weak_under_equiv(op, r, op.loops[found]);
  }
  if (found < 0) {
    std::string msg = std::string(name(op.kind)) + " '" + op.name +
                      "' has no loop for input dtypes " + inputs_str(r.inputs) + " with casting '" +
                      std::string(name(in_cast)) + "'";
    if (r.dtype) msg += " and output dtype " + std::string(name(*r.dtype));
    if (exact) msg += " matching signature " + exact->str();
    msg += "; its signatures are: " + op.signatures();
    throw TypeError(msg);
  }
  std::unique_lock lock(op.cache->mutex);
  if (pkey) {
    op.cache->plain.emplace(pkey, found);
  } else {
    op.cache->map.emplace(key, found);
  }
  return remember(found);
}

}  // namespace loom

namespace loom::detail {

const Loop& pick_loop(const OpDesc& op, Family family, std::span<const Array> inputs,
                      std::optional<DType> dtype, const std::string& signature, Casting casting) {
  SmallVec<DType, 8> dts;
  SmallVec<char, 8> weak_c;
  for (const auto& a : inputs) {
    dts.push_back(a.dtype());
    weak_c.push_back(a.weak());
  }
  const std::size_t n = dts.size();
  bool* weak = reinterpret_cast<bool*>(weak_c.data());
  ResolveRequest r{family,
                   std::span<const DType>(dts.data(), n),
                   std::span<const bool>(weak, n),
                   dtype,
                   signature,
                   casting};
  const Loop* l = &op.loops[resolve_loop(op, r)];
  if (!weak_ints_fit(*l, inputs) &&
      take_weak_ints_by_value(op, *l, signature, inputs, std::span<DType>(dts.data(), n),
                              std::span<bool>(weak, n))) {
    // Resolved again with the int as a strong int64: safe casting at least, as NumPy's
    // comparison of a Python int answers under 'no' and 'equiv' too; a logical op's loop with
    // safe casting exactly, as NumPy's search takes the loop (else dtype=bool would pick the int8
    // loop again, int64 to int8 being same_kind).
    r.casting = logical(op) ? Casting::safe : std::max(casting, Casting::safe);
    l = &op.loops[resolve_loop(op, r)];
  }
  refuse_weak_int_range(op, *l, inputs);
  return *l;
}

}  // namespace loom::detail
