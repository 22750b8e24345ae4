// What the core hands a backend once everything NumPy decides (types, broadcasting, outputs) is
// settled: pointers, a strided iteration space and the loop to run over it.
#pragma once
#include <cstdint>
#include <vector>

#include "loom/op.hpp"
#include "loom/strided.hpp"

namespace loom {

struct ElementwiseCall {
  StridedIter iter;  // operands: inputs then outputs
  const LoopImpl* loop;
  void* stream = nullptr;  // device backends: the cudaStream_t to launch on (null: the default)
  // Device backends: bit a set when operand a is in host memory. The core guarantees such an
  // operand is C-contiguous with the full iteration shape, so the backend can stream it through
  // pinned buffers in chunks of the flat index.
  std::uint32_t host_operands = 0;
  int nin = 0;  // operands [0, nin) are inputs, the rest outputs
};

// One inner-loop call gets dims = {count, core dims...}, steps = {outer steps..., core_steps...}.
struct GufuncCall {
  StridedIter outer;  // over the loop dims; a 0-d loop space is one instance
  std::vector<std::int64_t> core_dims;
  std::vector<std::int64_t> core_steps;
  const LoopImpl* loop;
  void* stream = nullptr;
};

// operands {out, x} over x's shape; out has stride 0 on the reduced axes and already holds the
// starting value (identity, initial, or the first slice). Runs of the innermost dim where out's
// step is 0 fold into one accumulator; other runs apply the binary op elementwise.
struct ReduceCall {
  StridedIter iter;
  const LoopImpl* loop;
  DType dtype;
  void* stream = nullptr;
  // Loops with LoopImpl::takes_start get `out` unfilled when the start value (identity or
  // initial=) is known on the host: here it is, and the loop writes out = start (op) fold(x).
  bool has_start = false;
  double start = 0;
};

// The serial execution of each call over a flat range; host backends split the range.
void run_elementwise_range(const ElementwiseCall& c, std::int64_t begin, std::int64_t end);
void run_gufunc_range(const GufuncCall& c, std::int64_t begin, std::int64_t end);
void run_reduce_range(const ReduceCall& c, std::int64_t begin, std::int64_t end);

}  // namespace loom
