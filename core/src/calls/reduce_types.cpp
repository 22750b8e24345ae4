// A reduction's types with NumPy's rules: the loop (dtype=, out= with the input, add and multiply
// widening, the logical ops' bool loop), initial= and the identity in the loop's dtype, and which
// out= dtypes NumPy's fold through out= would agree with. The call itself: reduce_call.cpp.
#include "calls/reduce_types.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "loom/strided.hpp"
#include "ops/pick_loop.hpp"

namespace loom::detail {

namespace {

std::string initial_str(const Array& v) {
  const Kind k = kind(v.dtype());
  if (k == Kind::floating) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v.item<double>());
    return buf;
  }
  if (k == Kind::unsigned_int) return std::to_string(v.item<std::uint64_t>());
  if (k == Kind::boolean) return v.item<bool>() ? "true" : "false";
  return std::to_string(v.item<std::int64_t>());
}

}  // namespace

// initial= as a 0-d array of the loop's dtype, exactly (NumPy converts it as a Python scalar: a
// float into an integer loop truncates; a value outside the integer dtype's range is an error).
Array exact_initial(const Array& v, DType dt, const std::string& who) {
  Array r = empty({}, dt);
  const Kind to = kind(dt), from = kind(v.dtype());
  if (to == Kind::signed_int || to == Kind::unsigned_int) {
    const int bits = static_cast<int>(itemsize(dt)) * 8;
    const bool is_signed = to == Kind::signed_int;
    bool ok = true;
    if (from == Kind::floating) {
      const double d = std::trunc(v.item<double>());
      const double lo = is_signed ? -std::ldexp(1.0, bits - 1) : 0.0;
      const double hi = std::ldexp(1.0, is_signed ? bits - 1 : bits);
      ok = std::isfinite(d) && d >= lo && d < hi;
    } else if (from == Kind::unsigned_int) {
      const std::uint64_t u = v.item<std::uint64_t>();
      ok = bits == 64 ? (!is_signed || u <= static_cast<std::uint64_t>(INT64_MAX))
                      : u < (std::uint64_t{1} << (bits - (is_signed ? 1 : 0)));
    } else if (from == Kind::signed_int) {
      const std::int64_t s = v.item<std::int64_t>();
      if (is_signed) {
        ok = bits == 64 ||
             (s >= -(std::int64_t{1} << (bits - 1)) && s < (std::int64_t{1} << (bits - 1)));
      } else {
        ok = s >= 0 && (bits == 64 || s < (std::int64_t{1} << bits));
      }
    }
    if (!ok) {
      throw ValueError(who + ": initial=" + initial_str(v) + " is out of bounds for the loop's " +
                       "dtype " + std::string(name(dt)) + " (NumPy raises OverflowError)");
    }
    if (from == Kind::floating) {
      const double d = std::trunc(v.item<double>());
      if (is_signed) {
        const std::int64_t s = static_cast<std::int64_t>(d);
        cast_strided(reinterpret_cast<const char*>(&s), 0, DType::int64, r.data(), 0, dt, 1);
      } else {
        const std::uint64_t u = static_cast<std::uint64_t>(d);
        cast_strided(reinterpret_cast<const char*>(&u), 0, DType::uint64, r.data(), 0, dt, 1);
      }
      return r;
    }
  }
  cast_strided(v.data(), 0, v.dtype(), r.data(), 0, dt, 1);
  return r;
}

// Identities are small integers or values such as -1 (all ones for unsigned, as NumPy's
// bitwise_and): integer loops take them through int64, with wrapping.
Array identity_value(const OpDesc& op, DType dt, const std::string& who) {
  const Kind k = kind(dt);
  return k == Kind::floating || k == Kind::complex
             ? exact_initial(Array(*op.identity), dt, who)
             : Array(static_cast<std::int64_t>(*op.identity)).astype(dt);
}

// np.any, np.all and the logical ops' reduce give bool whatever the input: they reduce its truth
// (x != 0), through their bool loop, as NumPy's logical_or.reduce does (with out= too).
static bool logical_reduction(const OpDesc& op) {
  return op.kind == OpKind::ufunc
             ? (op.name == "logical_and" || op.name == "logical_or" || op.name == "logical_xor")
             : (op.name == "any" || op.name == "all");
}

std::optional<DType> reduction_dtype(const OpDesc& op, DType x, std::optional<DType> forced) {
  // NumPy: dtype= (or out='s dtype) when given; else add and multiply (np.sum, np.prod) reduce
  // bools and integers narrower than 64 bits in 64 bits, by name, as PyUFunc_GenericReduction
  // does; else the loop that the input's dtype resolves to decides.
  if (forced) return forced;
  const bool widens = op.kind == OpKind::ufunc ? (op.name == "add" || op.name == "multiply")
                                               : (op.name == "sum" || op.name == "prod");
  const Kind k = kind(x);
  if (widens && k == Kind::boolean) return DType::int64;
  if (widens && k == Kind::signed_int && itemsize(x) < 8) return DType::int64;
  if (widens && k == Kind::unsigned_int && itemsize(x) < 8) return DType::uint64;
  if (logical_reduction(op)) return DType::bool_;
  return std::nullopt;
}

const Loop& pick_reduce_loop(const OpDesc& op, Family family, DType x, std::optional<DType> want,
                             const std::string& who) {
  // The op's T(T,T) loop for `want` exactly, else the first one `want` (or the input's dtype)
  // casts to safely; the caller casts the result back to `want`.
  const int fam = static_cast<int>(family);
  auto binary = [&](const Loop& l) {
    if (op.kind == OpKind::reduce) return true;
    return l.sig.inputs.size() == 2 && l.sig.outputs.size() == 1 &&
           l.sig.inputs[0] == l.sig.outputs[0] && l.sig.inputs[1] == l.sig.outputs[0];
  };
  if (want) {
    for (const Loop& l : op.loops) {
      if (l.impl[fam].present() && binary(l) && l.sig.outputs[0] == *want) return l;
    }
  }
  const Array probe = empty({}, want ? *want : x);
  const Array two[2] = {probe, probe};
  const Loop& l =
      pick_loop(op, family, std::span<const Array>(two, op.kind == OpKind::reduce ? 1 : 2),
                std::nullopt, "", Casting::same_kind);
  if (!binary(l)) {
    throw TypeError(who + ": the loop " + l.sig.str() + " chosen for " +
                    std::string(name(want ? *want : x)) +
                    " is not of the form T(T,T), so it cannot reduce; pass dtype= to pick one of " +
                    op.signatures());
  }
  return l;
}

void require_out_holds_loop(const OpDesc& op, const Array& out, DType loop, DType input,
                            Start start, const Initial& initial, std::int64_t count,
                            const std::string& who) {
  static const char* const wrapping[] = {"add",        "subtract",    "multiply", "bitwise_and",
                                         "bitwise_or", "bitwise_xor", "sum",      "prod"};
  const bool wraps =
      std::find(std::begin(wrapping), std::end(wrapping), op.name) != std::end(wrapping);
  auto integer = [](DType t) {
    return kind(t) == Kind::signed_int || kind(t) == Kind::unsigned_int;
  };
  auto holds = [&](DType t) {
    return t == out.dtype() || can_cast(t, out.dtype(), Casting::safe) ||
           (wraps && integer(t) && integer(out.dtype()));
  };
  std::string why;
  const std::string o = std::string(name(out.dtype()));
  constexpr std::int64_t kNumPyBuffer = 8192;  // np.getbufsize()
  if (!holds(loop) && count > kNumPyBuffer) {
    why = std::to_string(count) + " elements exceed NumPy's buffer of " +
          std::to_string(kNumPyBuffer) + ", whose partial results would pass through out=";
  } else if (start == Start::first_element) {
    if (!holds(input)) {
      why = "the first element would start in out= from the input's dtype " +
            std::string(name(input));
    }
  } else {
    // initial= or the identity starts in out=: it must come through unchanged (bitwise_and's -1
    // becomes True in a bool out=, and True & -8 is 0), integers under the wrapping ops into an
    // integer out= aside.
    const Array v = start == Start::initial ? initial.value() : Array(*op.identity);
    const double want = v.astype(DType::float64).item<double>();
    const bool wraps_alike =
        wraps && integer(loop) && integer(out.dtype()) && std::trunc(want) == want;
    if (!wraps_alike && v.astype(out.dtype()).astype(DType::float64).item<double>() != want) {
      why = std::string(start == Start::initial ? "initial=" : "the identity") +
            " would start in out=, and is not exact in " + o;
    }
  }
  if (why.empty()) return;
  const std::string l = std::string(name(loop));
  throw TypeError(who + ": out= of dtype " + o + " cannot hold every value of the loop's dtype " +
                  l + " or of what starts the fold, and NumPy's result would depend on it (" + why +
                  "); give out= of " + l + " or a dtype " + l + " casts to safely, or dtype=" + o +
                  " to compute in " + o + ", or cast the result");
}

ReduceTypes resolve_reduction(const OpDesc& op, Family family, const Array& x,
                              std::optional<DType> dtype, const std::optional<Array>& out,
                              const std::string& who) {
  if (dtype) {
    // dtype= is the loop's dtype (NumPy casts the input to it unsafely).
    const Loop& l = pick_reduce_loop(op, family, x.dtype(), dtype, who);
    const DType dt = l.sig.outputs[0];
    // A ufunc's methods run dtype='s own loop or are refused, as NumPy's are: a wider loop would
    // answer where NumPy refuses (np.fmod.reduce(x, dtype=bool)), and it would check initial=
    // against the wider dtype. (Bools for subtract, gcd ... are refused inside pick_reduce_loop,
    // with NumPy's reason.)
    if (op.kind == OpKind::ufunc && dt != *dtype) {
      throw TypeError(who + ": no loop for dtype=" + std::string(name(*dtype)) +
                      " (NumPy refuses it too: a ufunc's reduce, accumulate and reduceat run "
                      "dtype='s own loop, and the nearest here is " +
                      l.sig.str() + "); its signatures are: " + op.signatures() +
                      "; pass dtype= of one of them, or cast the input");
    }
    // rt.reduce's sum, prod, max and min stand for NumPy's add, multiply, maximum and minimum,
    // which have a loop of every dtype: without one of dtype=, the input is cast to it first and
    // the first loop it casts to safely runs, its result cast back (what dtype='s own loop gives
    // for +, *, max, min). An integer or bool dtype= with only float loops left is refused.
    const Kind want = kind(*dtype), got = kind(dt);
    if (want != Kind::floating && want != Kind::complex &&
        (got == Kind::floating || got == Kind::complex)) {
      throw TypeError(
          who + ": no loop for dtype=" + std::string(name(*dtype)) +
          " (the first loop it casts to is " + l.sig.str() +
          ", which computes in floating point); its signatures are: " + op.signatures());
    }
    return {&l, dt, *dtype, dt != *dtype, *dtype};
  }
  if (out) {
    // NumPy resolves the loop from (out.dtype, x.dtype) and casts the result into out= unsafely.
    const DType od = out->dtype();
    if (logical_reduction(op)) {  // the bool loop, its result cast into out=
      const Loop& r = pick_reduce_loop(op, family, x.dtype(), DType::bool_, who);
      return {&r, DType::bool_, od, false, DType::bool_};
    }
    const Array probes[2] = {empty({}, op.kind == OpKind::reduce ? promote(od, x.dtype()) : od),
                             empty({}, x.dtype())};
    const Loop& l =
        pick_loop(op, family, std::span<const Array>(probes, op.kind == OpKind::reduce ? 1 : 2),
                  std::nullopt, "", Casting::same_kind);
    const Loop& r = pick_reduce_loop(op, family, x.dtype(), l.sig.outputs[0], who);
    // NumPy's own loop: for sum, prod, max and min (whose loops here may be wider than
    // NumPy's add, multiply, maximum and minimum loops) the promoted dtype itself.
    const DType numpy_loop = op.kind == OpKind::reduce ? probes[0].dtype() : l.sig.outputs[0];
    return {&r, r.sig.outputs[0], od, false, numpy_loop};
  }
  const std::optional<DType> widened = reduction_dtype(op, x.dtype(), std::nullopt);
  const Loop& l = pick_reduce_loop(op, family, x.dtype(), widened, who);
  const DType dt = l.sig.outputs[0];
  return {&l, dt, widened ? *widened : dt, false, widened ? *widened : dt};
}

Array cast_for_loop(const Target& t, const Array& x, const ReduceTypes& rt) {
  return rt.cast_first ? t.cast(t.cast(x, rt.want), rt.dt) : t.cast(x, rt.dt);
}

}  // namespace loom::detail
