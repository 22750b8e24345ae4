// Serial execution of the call structs over a flat range: the serial backend runs the whole
// range, the parallel one splits it.
#include "loom/exec.hpp"

#include <cstring>

namespace loom {

void run_elementwise_range(const ElementwiseCall& c, std::int64_t begin, std::int64_t end) {
  const void* data = c.loop->data;
  if (c.loop->takes_index) {  // runs follow the flat (C) order: each starts where the last ended
    const HostIndexLoop loop = c.loop->host_index;
    std::int64_t first = c.index_base + begin;
    return c.iter.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
      loop(p, &n, st, first, data);
      first += n;
    });
  }
  const HostLoop loop = c.loop->host;
  const int na = c.iter.nargs();
  constexpr int kArgs = 8;
  if (c.iter.shape.size() == 1 && na <= kArgs && begin < end) {  // one run: no index state
    char* p[kArgs];
    std::int64_t steps[kArgs];
    for (int a = 0; a < na; ++a) {
      steps[a] = c.iter.strides[a][0];
      p[a] = c.iter.base[a] + begin * steps[a];
    }
    const std::int64_t n = end - begin;
    return loop(p, &n, steps, data);
  }
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
  if (c.check) {  // runs follow the flat (C) order: each starts where the last ended
    std::int64_t first = begin;
    return c.outer.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
      dims[0] = n;
      std::copy(st, st + na, steps.begin());
      c.loop->host_checked(p, dims.data(), steps.data(), first, c.check, c.loop->data);
      first += n;
    });
  }
  c.outer.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
    dims[0] = n;
    std::copy(st, st + na, steps.begin());
    c.loop->host(p, dims.data(), steps.data(), c.loop->data);
  });
}

namespace {

// The runs of one output that follow each other in the iteration (a reorderable op reduced over
// several dims, which the core orders with the reduced dims inside): each run is folded on its
// own and the run values are combined in a binary cascade (a counter whose level k holds the fold
// of 2^k runs), so the error grows with log(runs) rather than with their number, in an order fixed
// by the shape. An output with a single run folds it straight in, as before.
class RunCascade {
 public:
  explicit RunCascade(const LoopImpl& l, DType dt) : l_(l), isz_(itemsize(dt)) {}
  void add(char* out, const char* x, std::int64_t n, std::int64_t stride) {
    if (out != out_) flush();
    out_ = out;
    if (!first_x_) {
      first_x_ = x, first_n_ = n, first_stride_ = stride;
      return;
    }
    if (first_n_ > 0) {  // the second run: the first one joins the cascade now
      push(first_x_, first_n_, first_stride_);
      first_n_ = 0;
    }
    push(x, n, stride);
  }
  void flush() {
    if (!out_) return;
    if (first_n_ > 0) {
      l_.fold(out_, first_x_, first_n_, first_stride_, l_.data);
    } else {
      alignas(16) unsigned char acc[16];
      bool has = false;
      for (int k = kLevels - 1; k >= 0; --k) {  // older (higher) levels on the left
        if (!used_[k]) continue;
        if (has) {
          combine(acc, level_[k]);
        } else {
          std::memcpy(acc, level_[k], isz_);
          has = true;
        }
        used_[k] = false;
      }
      if (has) combine(out_, acc);
    }
    out_ = nullptr;
    first_x_ = nullptr;
    first_n_ = 0;
  }

 private:
  static constexpr int kLevels = 64;
  void combine(void* left, const void* right) const {  // left = f(left, right)
    char* args[3] = {static_cast<char*>(left), static_cast<char*>(const_cast<void*>(right)),
                     static_cast<char*>(left)};
    const std::int64_t one = 1, steps[3] = {0, 0, 0};
    l_.host(args, &one, steps, l_.data);
  }
  void push(const char* x, std::int64_t n, std::int64_t stride) {
    alignas(16) unsigned char v[16];
    std::memcpy(v, x, isz_);
    l_.fold(reinterpret_cast<char*>(v), x + stride, n - 1, stride, l_.data);
    int k = 0;
    for (; used_[k]; ++k) {  // carry: level k holds earlier runs, so it goes on the left
      combine(level_[k], v);
      std::memcpy(v, level_[k], isz_);
      used_[k] = false;
    }
    std::memcpy(level_[k], v, isz_);
    used_[k] = true;
  }
  const LoopImpl& l_;
  std::size_t isz_;
  char* out_ = nullptr;
  const char* first_x_ = nullptr;
  std::int64_t first_n_ = 0, first_stride_ = 0;
  alignas(16) unsigned char level_[kLevels][16];
  bool used_[kLevels] = {};
};

}  // namespace

void run_reduce_range(const ReduceCall& c, std::int64_t begin, std::int64_t end) {
  const LoopImpl& l = *c.loop;
  if (c.ordered) {  // one reduced dim, each output strictly in order
    return c.iter.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
      if (st[0] == 0) return l.fold(p[0], p[1], n, st[1], l.data);
      char* args[3] = {p[0], p[1], p[0]};
      const std::int64_t steps[3] = {st[0], st[1], st[0]};
      l.host(args, &n, steps, l.data);
    });
  }
  RunCascade cascade(l, c.dtype);
  c.iter.for_each_run(begin, end, [&](char** p, std::int64_t n, const std::int64_t* st) {
    if (st[0] == 0) return cascade.add(p[0], p[1], n, st[1]);
    cascade.flush();
    char* args[3] = {p[0], p[1], p[0]};
    const std::int64_t steps[3] = {st[0], st[1], st[0]};
    l.host(args, &n, steps, l.data);
  });
  cascade.flush();
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
