// Serial execution of the call structs over a flat range: the serial backend runs the whole
// range, the parallel one splits it.
#include "loom/exec.hpp"

#include <cstring>

namespace loom {

void run_elementwise_range(const ElementwiseCall& c, std::int64_t begin, std::int64_t end) {
  const HostLoop loop = c.loop->host;
  const void* data = c.loop->data;
  c.iter.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* steps) {
    loop(p, &n, steps, data);
  });
}

void run_gufunc_range(const GufuncCall& c, std::int64_t begin, std::int64_t end) {
  const int na = c.outer.nargs();
  std::vector<std::int64_t> dims(1 + c.core_dims.size());
  std::copy(c.core_dims.begin(), c.core_dims.end(), dims.begin() + 1);
  std::vector<std::int64_t> steps(na + c.core_steps.size());
  std::copy(c.core_steps.begin(), c.core_steps.end(), steps.begin() + na);
  c.outer.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
    dims[0] = n;
    std::copy(st, st + na, steps.begin());
    c.loop->host(p, dims.data(), steps.data(), c.loop->data);
  });
}

namespace {

// Runs that all fold into one output (a reduction of several dims to one value, reorderable op):
// each run is folded on its own and the run values are combined in a binary cascade (a counter
// whose level k holds the fold of 2^k runs), so the error grows with log(runs) rather than with
// their number, and the order depends on the shape alone.
void reduce_runs_cascade(const ReduceCall& c, std::int64_t begin, std::int64_t end) {
  const LoopImpl& l = *c.loop;
  const std::size_t isz = itemsize(c.dtype);
  constexpr int kLevels = 64;
  alignas(16) unsigned char level[kLevels][16];
  bool used[kLevels] = {};
  char* out = nullptr;
  auto combine = [&](void* left, void* right) {  // left = f(left, right)
    char* args[3] = {static_cast<char*>(left), static_cast<char*>(right),
                     static_cast<char*>(left)};
    const std::int64_t one = 1, steps[3] = {0, 0, 0};
    l.host(args, &one, steps, l.data);
  };
  c.iter.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
    out = p[0];
    alignas(16) unsigned char v[16];
    std::memcpy(v, p[1], isz);
    l.fold(reinterpret_cast<char*>(v), p[1] + st[1], n - 1, st[1], l.data);
    int k = 0;
    for (; used[k]; ++k) {  // carry: level k holds earlier runs, so it goes on the left
      combine(level[k], v);
      std::memcpy(v, level[k], isz);
      used[k] = false;
    }
    std::memcpy(level[k], v, isz);
    used[k] = true;
  });
  if (!out) return;
  alignas(16) unsigned char acc[16];
  bool has = false;
  for (int k = kLevels - 1; k >= 0; --k) {  // older (higher) levels first
    if (!used[k]) continue;
    if (has) {
      combine(acc, level[k]);
    } else {
      std::memcpy(acc, level[k], isz);
      has = true;
    }
  }
  combine(out, acc);
}

}  // namespace

void run_reduce_range(const ReduceCall& c, std::int64_t begin, std::int64_t end) {
  const LoopImpl& l = *c.loop;
  bool one_output = !c.ordered && c.iter.shape.size() > 1 && end - begin > c.iter.inner();
  for (std::int64_t s : c.iter.strides[0]) one_output = one_output && s == 0;
  if (one_output) return reduce_runs_cascade(c, begin, end);
  c.iter.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
    if (st[0] == 0) {
      l.fold(p[0], p[1], n, st[1], l.data);
    } else {
      char* args[3] = {p[0], p[1], p[0]};
      const std::int64_t steps[3] = {st[0], st[1], st[0]};
      l.host(args, &n, steps, l.data);
    }
  });
}

void run_scan_range(const ScanCall& c, std::int64_t begin, std::int64_t end) {
  const LoopImpl& l = *c.loop;
  const int nd = static_cast<int>(c.outer_shape.size());
  for (std::int64_t line = begin; line < end; ++line) {
    char* out = c.out;
    const char* x = c.x;
    std::int64_t rem = line;
    for (int k = nd - 1; k >= 0; --k) {
      const std::int64_t i = rem % c.outer_shape[k];
      rem /= c.outer_shape[k];
      out += i * c.outer_out_strides[k];
      x += i * c.outer_x_strides[k];
    }
    l.scan(out, x, c.n, c.out_step, c.x_step, nullptr, l.data);
  }
}

void run_at_serial(const AtCall& c) {
  const LoopImpl& l = *c.loop;
  if (c.rest.empty()) return l.at(c.a, c.a_step, c.idx, c.m, c.b, c.b_step, l.data);
  // Sub-arrays: each update is the elementwise binary loop over a[idx[j]] and b[j].
  const std::int64_t inner = shape_size(c.rest);
  if (inner == 0) return;
  for (std::int64_t j = 0; j < c.m; ++j) {
    char* base[3] = {c.a + c.idx[j] * c.a_step, const_cast<char*>(c.b) + j * c.b_step,
                     c.a + c.idx[j] * c.a_step};
    const Shape strides[3] = {c.a_rest_strides, c.b_rest_strides, c.a_rest_strides};
    const StridedIter it = StridedIter::make(base, strides, c.rest);
    it.for_each_run(0, it.size(), [&](char** p, std::int64_t n, const std::int64_t* st) {
      l.host(p, &n, st, l.data);
    });
  }
}

}  // namespace loom
