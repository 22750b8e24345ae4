// loom::stats's rows and row kernels (stats_rows.hpp).
#include "calls/stats_rows.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "loom/error.hpp"

namespace loom::stats::detail {

bool is_float(DType t) { return kind(t) == Kind::floating; }
bool is_int(DType t) { return kind(t) == Kind::signed_int || kind(t) == Kind::unsigned_int; }
bool is_complex(DType t) { return kind(t) == Kind::complex; }

std::string target_of(const Runtime& rt, const Array& a, const std::string& target) {
  if (!target.empty()) return target;
  if (!a.device().is_host()) return a.device().str();  // a device array runs where it is
  return rt.default_target();
}

bool device_target(const std::string& target) { return target.rfind("cuda", 0) == 0; }

// `a` where the kernels of `target` read it (copied once, not once per launch).
Array on_target(const Runtime& rt, const Array& a, const std::string& target) {
  if (device_target(target) && a.device().is_host()) return rt.to_device(a, target);
  return a;
}

// A C-contiguous copy of `a` in the same memory (a itself when it is one), of dtype `dt`.
Array contiguous(const Runtime& rt, const Array& a, DType dt, const std::string& target) {
  if (a.is_c_contiguous() && a.dtype() == dt) return a;
  const Array dst = a.device().is_host() ? empty(a.shape(), dt) : rt.empty(a.shape(), dt, target);
  rt.copy_to(a, dst);
  return dst;
}

// The result back where the input was.
Array home(const Runtime& rt, const Array& input, const Array& r) {
  if (input.device().is_host() && !r.device().is_host()) return rt.to_host(r);
  return r;
}

std::vector<bool> reduced_axes(const std::string& who, int nd, const Axes& axis) {
  std::vector<bool> red(nd, !axis.given() || axis.all());
  if (!axis.given() || axis.all()) return red;
  for (const int a : axis.list()) {
    const int ax = a < 0 ? a + nd : a;
    if (ax < 0 || ax >= nd) {
      throw ValueError(who + ": axis " + std::to_string(a) +
                       " is out of bounds for an array of dimension " + std::to_string(nd));
    }
    if (red[ax]) throw ValueError(who + ": axis " + std::to_string(a) + " given twice");
    red[ax] = true;
  }
  return red;
}

Layout layout_of(const Array& a, const std::vector<bool>& red, bool keepdims) {
  Layout l;
  for (int k = 0; k < a.ndim(); ++k) {
    if (!red[k]) {
      l.perm.push_back(k);
      l.R *= a.shape()[k];
      l.shape.push_back(a.shape()[k]);
    } else if (keepdims) {
      l.shape.push_back(1);
    }
  }
  for (int k = 0; k < a.ndim(); ++k) {
    if (red[k]) {
      l.perm.push_back(k);
      l.N *= a.shape()[k];
    }
  }
  return l;
}

Array rows_of(const Runtime& rt, const Array& a, const Layout& l, DType dt,
              const std::string& target) {
  const Array t = a.ndim() == 0 ? a : a.transpose(l.perm);
  return contiguous(rt, on_target(rt, t, target), dt, target).reshape({l.R, l.N});
}

void check_out(const std::string& who, const std::optional<Array>& out, DType dt,
               const Shape& shape) {
  if (!out) return;
  if (out->dtype() != dt) {
    throw TypeError(who + ": out= has dtype " + std::string(name(out->dtype())) +
                    ", the result's is " + std::string(name(dt)));
  }
  if (out->shape() != shape) {
    throw ShapeError(who + ": out= has shape " + shape_str(out->shape()) +
                     ", the result's shape is " + shape_str(shape));
  }
}

// A new array for the (R,) results on the target.
Array fresh(const Runtime& rt, std::int64_t n, DType dt, const std::string& target) {
  return rt.empty({n}, dt, target);
}

// The (R,) result written where it goes: into out= (any strides, any memory), else reshaped.
Array deliver(const Runtime& rt, const Array& input, const Array& flat, const Shape& shape,
              const std::optional<Array>& out) {
  if (out) {
    rt.copy_to(flat.reshape(shape), *out);
    return *out;
  }
  return home(rt, input, flat.reshape(shape));
}

// Threads a block and chunks a row for rows of length n (at least one chunk: an empty row's sum
// is a block's zero). A GPU thread takes more elements than a host one: with 16, a block's fixed
// tree and the fold launches cost more than its loads (mean of 2^26 float32 at 171 us on an
// H200, 2.5x CuPy); 256 (1024 blocks for 2^26, one wave on an H200) beat 64 and 128 for mean,
// var and argmax in one job (docs/stats.md). A fold's partials are few: there a GPU thread takes
// 16, so that one block of 256 threads folds 4096 of them.
Chunking chunking(std::int64_t n, const std::string& target, bool fold) {
  const std::int64_t k = device_target(target) && !fold ? kPerThreadDevice : kPerThread;
  std::int64_t nt = 1;
  while (nt < kThreads && nt * k < n) nt *= 2;
  const std::int64_t per = nt * k;
  return {nt, std::max<std::int64_t>(1, (n + per - 1) / per), k};
}

LaunchConfig block_launch(std::int64_t blocks, const Chunking& c, std::size_t item,
                          const std::string& target) {
  return {.blocks = std::min(blocks, kMaxBlocks),
          .threads = c.threads,
          .shared_bytes = static_cast<std::size_t>(c.threads) * (8 + item),
          .target = target};
}

// Per row of `rows` (R, N): the sum (in acc) and count of the kept elements.
Sums row_sums(const Runtime& rt, const Array& rows, DType acc, std::int32_t flags,
              const Array& mask, const Array& center, const std::string& target, Finishing f) {
  const std::int64_t R = rows.shape()[0], N = rows.shape()[1];
  const std::size_t item = itemsize(acc);
  Chunking c = chunking(N, target);
  Array ps = rt.empty({R, c.chunks}, acc, target),
        pc = rt.empty({R, c.chunks}, DType::int64, target);
  if (R == 0) return {ps.reshape({0}), pc.reshape({0}), f, std::nullopt};
  rt.kernel(acc == DType::float32 ? "stats_sum_part_f32" : "stats_sum_part_f64")
      .launch(block_launch(R * c.chunks, c, item, target), rows, mask, center, flags, c.k, ps, pc);
  std::optional<Array> done;
  while (ps.shape()[1] > 1) {
    c = chunking(ps.shape()[1], target, true);
    Array s2 = rt.empty({R, c.chunks}, acc, target),
          c2 = rt.empty({R, c.chunks}, DType::int64, target);
    const bool last = c.chunks == 1 && f.what >= 0;
    Array fin = rt.empty({last ? R : 1}, acc, target);
    rt.kernel("stats_sum_fold")
        .launch(block_launch(R * c.chunks, c, item, target), ps, pc, c.k, f.ddof,
                last ? f.what : -1, s2, c2, fin);
    if (last) done = fin;
    ps = s2;
    pc = c2;
  }
  return {ps.reshape({R}), pc.reshape({R}), f, done};
}

Array finish(const Runtime& rt, const Sums& s, DType dt, const std::string& target) {
  if (s.done && s.done->dtype() == dt) return *s.done;
  const std::int64_t R = s.sum.shape()[0];
  Array out = fresh(rt, R, dt, target);
  if (R > 0) {
    rt.kernel("stats_finish")
        .launch({.size = R, .target = target}, s.sum, s.count, s.f.ddof, s.f.what, out);
  }
  return out;
}

}  // namespace loom::stats::detail
