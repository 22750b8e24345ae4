// Serial execution of the call structs over a flat range: the serial backend runs the whole
// range, the parallel one splits it.
#include "loom/exec.hpp"

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

void run_reduce_range(const ReduceCall& c, std::int64_t begin, std::int64_t end) {
  const LoopImpl& l = *c.loop;
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

}  // namespace loom
