// Generalized ufuncs, driven by the op's layout: loop dims that broadcast, every named core dim
// at 0, 1 and a long length, transposed and reversed core operands, NaN/inf; compared with `cpu`
// (bitwise on host targets), with contiguous copies, and with the long double reference.
#include <algorithm>
#include <cmath>

#include "cases.hpp"
#include "data.hpp"
#include "references.hpp"
#include "tolerances.hpp"

namespace parity {

namespace {

enum class View { plain, swap_core, reversed, step2 };

struct Scenario {
  std::string name;
  std::vector<std::int64_t> dims;  // size of each layout dimension
  std::vector<Shape> loop;         // loop shape of each input
  View view = View::plain;
  bool specials = false;
};

Shape core_shape(const loom::Layout& l, int arg, const std::vector<std::int64_t>& dims) {
  Shape s;
  for (int k = 0; k < l.core_num_dims[arg]; ++k)
    s.push_back(dims[l.core_dim_ixs[l.core_offsets[arg] + k]]);
  return s;
}

Shape concat(Shape a, const Shape& b) {
  for (auto x : b) a.push_back(x);
  return a;
}

std::vector<Scenario> scenarios(const loom::Layout& l) {
  std::vector<std::int64_t> base;
  for (std::size_t i = 0; i < l.dim_sizes.size(); ++i) {
    base.push_back(l.dim_sizes[i] >= 0 ? l.dim_sizes[i] : 3 + static_cast<std::int64_t>(i));
  }
  auto loops = [&](Shape s) { return std::vector<Shape>(l.nin, s); };
  std::vector<Shape> bcast;
  for (int a = 0; a < l.nin; ++a)
    bcast.push_back(a == 0 ? Shape{2, 1} : a == 1 ? Shape{3} : Shape{2, 3});
  std::vector<Scenario> s = {
      {"basic", base, loops({})},
      {"loop_broadcast", base, bcast},
      {"loop_many", base, loops({300})},
      {"loop_empty", base, loops({0})},
      {"swap_core", base, loops({2}), View::swap_core},
      {"reversed", base, loops({2}), View::reversed},
      {"step2_loop", base, loops({4}), View::step2},
  };
  for (std::size_t i = 0; i < l.dim_sizes.size(); ++i) {
    if (l.dim_sizes[i] >= 0 || !l.dim_min_of[i].empty()) continue;  // a rule's dim follows its own
    for (std::int64_t n : {0, 1, 600}) {
      auto d = base;
      d[i] = n;
      s.push_back({"dim_" + l.dim_names[i] + "=" + std::to_string(n), d, loops({2})});
    }
  }
  s.push_back({"specials", base, loops({3}), View::plain, true});
  // A dim with a rule ("k=min(m,n)") has the size the rule gives: an out= of another is refused.
  for (auto& sc : s) {
    for (std::size_t i = 0; i < l.dim_min_of.size(); ++i) {
      if (l.dim_min_of[i].empty()) continue;
      sc.dims[i] = sc.dims[l.dim_min_of[i][0]];
      for (int of : l.dim_min_of[i]) sc.dims[i] = std::min(sc.dims[i], sc.dims[of]);
    }
  }
  return s;
}

Array make_input(Rng& rng, const Shape& shape, DType t, const Domain& d, const Scenario& sc,
                 int core_dims) {
  Array a;
  switch (sc.view) {
    case View::plain:
      a = random(rng, shape, t, d);
      break;
    case View::swap_core:
      a = random(rng, shape, t, d);
      a = core_dims >= 2 ? swap_last_two(a) : reversed(rng, shape, t, d);
      break;
    case View::reversed:
      a = reversed(rng, shape, t, d);
      break;
    case View::step2:
      a = step2(rng, shape, t, d);
      break;
  }
  if (sc.specials && is_float(t) && a.size() > 0) {  // a few NaN and infinities
    std::vector<double> v = a.to_vector<double>();
    const double put[] = {std::nan(""), INFINITY, -INFINITY};
    for (int k = 0; k < 3; ++k) v[rng.integer(0, static_cast<std::int64_t>(v.size()) - 1)] = put[k];
    a = from_values(v, shape, t);
  }
  return a;
}

// Compares every output element of every instance with the reference (and, on a device, with
// cpu): core operands are cut from the inputs broadcast to the loop shape.
void check_instances(Case& c, const GufuncRef* ref, const loom::Layout& l, const Scenario& sc,
                     const std::vector<Array>& in, const std::vector<Array>& got,
                     const std::vector<Array>& cpu) {
  const Shape loop = loom::broadcast_shapes(sc.loop);
  std::vector<std::vector<long double>> iv, ov, cv;
  for (int a = 0; a < l.nin; ++a) {
    iv.push_back(values(in[a].broadcast_to(concat(loop, core_shape(l, a, sc.dims)))));
  }
  for (const auto& g : got) ov.push_back(values(g));
  for (const auto& g : cpu) cv.push_back(values(g));
  for (std::int64_t i = 0; i < loom::shape_size(loop); ++i) {
    std::vector<Core> ci(l.nin), co(l.nout);
    for (int a = 0; a < l.nin; ++a) {
      ci[a].shape = core_shape(l, a, sc.dims);
      const auto n = loom::shape_size(ci[a].shape);
      ci[a].v.assign(iv[a].begin() + i * n, iv[a].begin() + (i + 1) * n);
    }
    for (int j = 0; j < l.nout; ++j) co[j].shape = core_shape(l, l.nin + j, sc.dims);
    if (ref) ref->f(ci, co);
    for (int j = 0; j < l.nout; ++j) {
      const DType t = c.out(j);
      const auto n = loom::shape_size(co[j].shape);
      for (std::int64_t e = 0; e < n; ++e) {
        const long double g = ov[j][i * n + e];
        const Where w{sc.name, i * n + e, {}, "output " + std::to_string(j)};
        const double bound =
            ref ? static_cast<double>(kSumSlack * gamma(t, co[j].terms) * co[j].mag[e]) : 0;
        if (ref) {
          Where wr = w;
          wr.what += " vs reference";
          c.check->value(t, g, co[j].v[e], {Bound::absolute, bound}, wr);
        }
        if (!cv.empty()) {  // a device: each side within its bound of the truth
          Where wc = w;
          wc.what += " vs cpu";
          const long double r = cv[j][i * n + e];
          const double tol = ref ? 2 * bound : 64 * static_cast<double>(ulp(t, r));
          c.check->value(t, g, r, {Bound::absolute, tol}, wc);
        }
      }
    }
  }
}

void run_scenario(Case& c, const loom::Ufunc& uf, const GufuncRef* ref, const loom::Layout& l,
                  const Scenario& sc, const std::vector<Array>& in, bool needs_out) {
  const Shape loop = loom::broadcast_shapes(sc.loop);
  auto call = [&](const std::string& target, const std::vector<Array>& args) {
    std::vector<Array> outs;  // an output dim no input has comes from out= (NumPy's rule)
    for (int j = 0; j < l.nout && needs_out; ++j) {
      outs.push_back(loom::empty(concat(loop, core_shape(l, l.nin + j, sc.dims)), c.out(j)));
    }
    return uf.call(args, {.target = target, .out = outs, .signature = c.loop->sig.str()});
  };
  const auto got = call(c.target, in);
  const auto cpu = c.vs_cpu() ? call("cpu", in) : std::vector<Array>{};
  bool shapes_ok = static_cast<int>(got.size()) == l.nout;
  for (int j = 0; shapes_ok && j < l.nout; ++j) {
    const Shape want = concat(loop, core_shape(l, l.nin + j, sc.dims));
    shapes_ok = got[j].shape() == want && got[j].dtype() == c.out(j);
    c.check->expect(shapes_ok, sc.name + ": output " + std::to_string(j) + " is " + got[j].str() +
                                   ", expected shape " + loom::shape_str(want));
  }
  if (!shapes_ok) return;
  if (c.host) {  // same functor, same per-instance order: the same bits
    std::vector<Array> copies;
    for (const auto& a : in) copies.push_back(a.copy());
    const auto again = call(c.target, copies);
    for (int j = 0; j < l.nout; ++j) {
      c.check->same_bits(got[j], again[j], sc.name, "vs contiguous copies");
      if (!cpu.empty()) c.check->same_bits(got[j], cpu[j], sc.name, "vs cpu");
    }
  }
  if (ref || !c.host) check_instances(c, ref, l, sc, in, got, c.host ? std::vector<Array>{} : cpu);
}

}  // namespace

std::string gufunc_device_skip(const loom::OpDesc& op, const loom::Loop& loop) {
  if (op.plugins.find("loom_linalg") == std::string::npos) return {};
  bool real = true;
  for (auto t : loop.sig.inputs) real = real && (is_float(t) || is_integer(t));
  for (auto t : loop.sig.outputs) real = real && (is_float(t) || is_integer(t));
  if (real && gufunc_ref(op.name)) return {};
  // Without a reference the device is compared with cpu within 64 ulp, which the factorizations
  // (pivoted and summed in cuBLAS/cuSOLVER's orders) and complex products do not meet on these
  // unconditioned inputs: tests/linalg (LinalgCuda, Matmul) compares them with cpu within bounds
  // that follow n and the conditioning.
  return "op '" + op.name + "' (plugins/linalg) on a device: checked against cpu by " +
         "loom_linalg_tests (LinalgCuda, Matmul), not here";
}

void run_gufunc(Case& c) {
  const GufuncRef* ref = gufunc_ref(c.name());
  bool real = true;
  for (auto t : c.loop->sig.inputs) real = real && (is_float(t) || is_integer(t));
  for (auto t : c.loop->sig.outputs) real = real && (is_float(t) || is_integer(t));
  if (!real) ref = nullptr;
  c.has_reference = ref != nullptr;
  const loom::Layout& l = *c.op->layout;
  std::vector<bool> bound_by_input(l.dim_names.size(), false);
  for (int a = 0; a < l.nin; ++a) {
    for (int k = 0; k < l.core_num_dims[a]; ++k) {
      bound_by_input[l.core_dim_ixs[l.core_offsets[a] + k]] = true;
    }
  }
  bool needs_out = false;
  for (bool b : bound_by_input) needs_out = needs_out || !b;
  const loom::Ufunc uf = runtime().gufunc(c.name());
  Rng rng(c.name() + loop_name(c.loop->sig));
  for (const auto& sc : scenarios(l)) {
    std::vector<Array> in;
    for (int a = 0; a < l.nin; ++a) {
      const Domain d = ref ? (is_integer(c.in(a)) ? ref->intg : ref->flt)
                           : (is_integer(c.in(a)) ? Domain{1, 3} : Domain{0.5, 2});
      in.push_back(make_input(rng, concat(sc.loop[a], core_shape(l, a, sc.dims)), c.in(a), d, sc,
                              l.core_num_dims[a]));
    }
    try {
      run_scenario(c, uf, ref, l, sc, in, needs_out);
    } catch (const loom::Error& e) {
      c.check->expect(false, sc.name + ": threw " + e.what());
    }
  }
}

}  // namespace parity
