// Fuzz target: type resolution. An op with a few fuzzed loops (written as signature strings and
// parsed), then fuzzed requests: input dtypes, NEP 50 weak flags, casting, dtype=/signature=.
// Checked against NumPy's linear search written out here: the loop found is the first whose
// inputs all cast under the rule; TypeError exactly when none does or when 'equiv' would take a
// weak scalar out of its own dtype; the cache answers the same.
#include <algorithm>
#include <vector>

#include "fuzz_common.hpp"
#include "loom/error.hpp"
#include "loom/type_resolution.hpp"

namespace {

using loom::Casting;
using loom::DType;
using loom::Kind;
using loom::fuzz::fail;

void noop_loop(char**, const std::int64_t*, const std::int64_t*, const void*) {}

int rank(DType t) {  // bool < integers < floating < complex
  const Kind k = loom::kind(t);
  return k == Kind::boolean ? 0 : k == Kind::floating ? 2 : k == Kind::complex ? 3 : 1;
}

// The rule for plain requests (no dtype=/signature=), from NEP 50 and NumPy's resolver.
bool loop_fits(const loom::Loop& l, const std::vector<DType>& in, const std::vector<bool>& weak,
               Casting casting) {
  if (!l.impl[0].present() || l.sig.inputs.size() != in.size()) return false;
  const bool all_weak = std::all_of(weak.begin(), weak.end(), [](bool w) { return w; });
  int strong = -1;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (all_weak || !weak[i]) strong = std::max(strong, rank(in[i]));
  }
  const DType defaults[] = {DType::bool_, DType::int64, DType::float64, DType::complex128};
  for (std::size_t i = 0; i < in.size(); ++i) {
    DType t = in[i];
    const DType to = l.sig.inputs[i];
    if (all_weak && rank(t) == 1) t = DType::int64;
    if (!all_weak && weak[i] && rank(t) <= strong) {  // a weak scalar takes the arrays' dtype
      if (rank(t) == 0 ? false : rank(to) < rank(t)) return false;
      continue;
    }
    if (!all_weak && weak[i] && rank(t) > 0) t = defaults[rank(t)];
    if (!loom::can_cast(t, to, std::min(casting, Casting::safe))) return false;
  }
  return true;
}

// All-weak inputs that no loop takes as NumPy's defaults stay weak: a loop fits when each input's
// kind is the scalar's or higher (docs/decisions.md, "Scalars are weak").
bool weak_loop_fits(const loom::Loop& l, const std::vector<DType>& in) {
  if (!l.impl[0].present() || l.sig.inputs.size() != in.size()) return false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (rank(l.sig.inputs[i]) < rank(in[i])) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  loom::fuzz::Bytes b(data, size);
  loom::OpDesc op;
  op.name = "f";
  op.plugins = "fuzz";
  op.nin = 1 + b.pick(3);
  op.nout = 1 + b.pick(2);
  const int nloops = 1 + b.pick(6);
  for (int li = 0; li < nloops; ++li) {
    std::string s = op.nout > 1 ? "(" : "";
    for (int o = 0; o < op.nout; ++o) {
      s += (o ? "," : "") + std::string(loom::name(DType(b.pick(loom::kNumDTypes))));
    }
    s += op.nout > 1 ? ")(" : "(";
    for (int i = 0; i < op.nin; ++i) {
      s += (i ? "," : "") + std::string(loom::name(DType(b.pick(loom::kNumDTypes))));
    }
    loom::Loop l{loom::Signature::parse(s + ")"), {}};
    if (b.pick(8) != 0) l.impl[0].host = &noop_loop;  // some loops exist only on CUDA
    op.loops.push_back(l);
  }
  const bool has_host = op.has_family(loom::Family::host);
  while (b.left() > 0) {
    const int n = b.pick(8) == 0 ? 1 + b.pick(3) : op.nin;  // sometimes the wrong arity
    std::vector<DType> in(n);
    std::vector<bool> weak(n);
    for (int i = 0; i < n; ++i) {
      in[i] = DType(b.pick(loom::kNumDTypes));
      weak[i] = b.pick(4) == 0;
    }
    const bool weak_arr[4] = {weak[0], n > 1 && weak[1], n > 2 && weak[2], false};
    loom::ResolveRequest r;
    r.inputs = in;
    r.weak = std::span<const bool>(weak_arr, n);
    r.casting = Casting(b.pick(5));
    const int override_kind = b.pick(6);
    if (override_kind == 0) r.dtype = DType(b.pick(loom::kNumDTypes));
    if (override_kind == 1) r.signature = op.loops[b.pick(nloops)].sig.str();
    int got = -1;
    try {
      got = loom::resolve_loop(op, r);
    } catch (const loom::LookupError&) {
      if (has_host) fail("LookupError with host loops");
      continue;
    } catch (const loom::TypeError&) {
      got = -1;
    }
    if (!has_host) fail("no LookupError without host loops");
    int again = -2;
    try {
      again = loom::resolve_loop(op, r);
    } catch (const loom::TypeError&) {
      again = -1;
    }
    if (again != got)
      fail("cache answered " + std::to_string(again) + ", first " + std::to_string(got));
    if (got >= 0) {
      const loom::Loop& l = op.loops[got];
      if (!l.impl[0].present()) fail("picked a loop without a host implementation");
      if (r.dtype && l.sig.outputs[0] != *r.dtype) fail("dtype= not honoured");
      if (!r.signature.empty() && l.sig.str() != r.signature) fail("signature= not honoured");
      if (l.sig.inputs.size() != in.size()) fail("arity mismatch accepted");
    }
    if (override_kind > 1) {  // plain request: compare with the linear search
      int want = -1;
      for (int li = 0; li < nloops && want < 0; ++li) {
        if (loop_fits(op.loops[li], in, weak, r.casting)) want = li;
      }
      const bool all_weak = std::all_of(weak.begin(), weak.end(), [](bool w) { return w; });
      if (want < 0 && all_weak) {  // the highest kind's scalars take its default, the rest weak
        int top = 0;
        for (DType t : in) top = std::max(top, rank(t));
        std::vector<DType> in2(in);
        std::vector<bool> weak2(n);
        for (int i = 0; i < n; ++i) {
          weak2[i] = rank(in[i]) < top;
          if (!weak2[i] && top == 1) in2[i] = DType::int64;
        }
        for (int li = 0; li < nloops && want < 0; ++li) {
          if (loop_fits(op.loops[li], in2, weak2, r.casting)) want = li;
        }
      }
      if (want < 0 && all_weak) {
        for (int li = 0; li < nloops && want < 0; ++li) {
          if (weak_loop_fits(op.loops[li], in)) want = li;
        }
      }
      // NumPy 2 takes a weak (Python) scalar under 'equiv' only into its own dtype (int64,
      // float64, complex128, bool): the loop found is refused otherwise (E-TYPE-WEAK-EQUIV).
      if (want >= 0 && r.casting == Casting::equiv) {
        const DType own[] = {DType::bool_, DType::int64, DType::float64, DType::complex128};
        const loom::Loop& l = op.loops[want];
        for (int i = 0; i < n; ++i) {
          if (weak[i] && l.sig.inputs[i] != own[rank(in[i])]) want = -1;
        }
      }
      if (want != got) {
        std::string ins;
        for (int i = 0; i < n; ++i) ins += std::string(loom::name(in[i])) + (weak[i] ? "w " : " ");
        fail("inputs " + ins + "casting " + std::string(loom::name(r.casting)) + ": got loop " +
             std::to_string(got) + ", want " + std::to_string(want) + " of " + op.signatures());
      }
    }
  }
  return 0;
}
