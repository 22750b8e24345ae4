// What the core hands a backend once everything NumPy decides (types, broadcasting, outputs) is
// settled: pointers, a strided iteration space and the loop to run over it.
#pragma once
#include <cstdint>
#include <utility>
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
  // Loops that take an element index (LoopImpl::takes_index): the index of the iteration's flat
  // position 0, so position p is element index_base + p. A backend that cuts the call into
  // pieces adds each piece's flat start; device sets and sharded calls give each part its offset.
  std::int64_t index_base = 0;
};

// One inner-loop call gets dims = {count, core dims...}, steps = {outer steps..., core_steps...}.
struct GufuncCall {
  StridedIter outer;  // over the loop dims; a 0-d loop space is one instance
  std::vector<std::int64_t> core_dims;
  std::vector<std::int64_t> core_steps;
  const LoopImpl* loop;
  void* stream = nullptr;
  // A checked call (CallOptions::checked, LOOM_CHECKED=1): the error record the checked loop
  // (LoopImpl::host_checked, or device_gufunc with device_checks) fills; in device memory on cuda.
  detail::CheckRecord* check = nullptr;
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
  // A non-reorderable op (ReduceTraits): at most one reduced dim, folded strictly in order. A
  // backend may spread the outputs over threads but never split or regroup one output's fold.
  bool ordered = false;
};

// accumulate along one axis: out[..., i, ...] = f(out[..., i-1, ...], x[..., i, ...]), out[0] =
// x[0]. The other dims are `outer` (x's and out's strides per dim); the scanned axis has n
// elements and its own steps. out and x do not overlap (the core copies x first if they would).
struct ScanCall {
  char* out;
  const char* x;
  Shape outer_shape;  // the dims other than the axis, in order (may be empty)
  Shape outer_out_strides;
  Shape outer_x_strides;
  std::int64_t n = 0;
  std::int64_t out_step = 0;
  std::int64_t x_step = 0;
  const LoopImpl* loop;
  DType dtype;
  bool reorderable = false;  // a backend may scan in blocks (two passes) when true
  void* stream = nullptr;
};

// at: a[idx[j], ...] = f(a[idx[j], ...], b[j, ...]) for j in [0, m), unbuffered: a repeated index
// is updated once per occurrence. `rest` is a's shape after its first axis (b has the same there);
// idx holds m checked, non-negative indices in the memory of the call's family (host or device).
struct AtCall {
  char* a;
  std::int64_t a_step;  // bytes between a[i] and a[i+1]
  const std::int64_t* idx;
  std::int64_t m = 0;
  const char* b;
  std::int64_t b_step;  // bytes between b[j] and b[j+1] (0 when b is broadcast)
  Shape rest;
  Shape a_rest_strides;
  Shape b_rest_strides;
  const LoopImpl* loop;
  DType dtype;
  bool reorderable = false;
  std::int64_t rows = 0;  // a's extent along the indexed axis: every idx[j] is in [0, rows)
  // The op's identity in `dtype` (host memory) for host calls, else null: lets a host backend
  // start bins of its own from it (tbb's private bins).
  const void* identity = nullptr;
  // Device calls: the index gate's verdict (Backend::begin_index_gate), in device memory; the
  // updates run only when it is 0. Null: no gate (the core checked the indices already).
  const unsigned* gate = nullptr;
  void* stream = nullptr;
};

// The serial execution of each call over a flat range; host backends split the range.
void run_elementwise_range(const ElementwiseCall& c, std::int64_t begin, std::int64_t end);
void run_gufunc_range(const GufuncCall& c, std::int64_t begin, std::int64_t end);
void run_reduce_range(const ReduceCall& c, std::int64_t begin, std::int64_t end);
// Scans lines [begin, end) of the outer dims (C order) in order.
void run_scan_range(const ScanCall& c, std::int64_t begin, std::int64_t end);
// Every update in order (the cpu result).
void run_at_serial(const AtCall& c);
// The smallest and largest of m host int64 indices, serially ({0, -1} when m is 0).
std::pair<std::int64_t, std::int64_t> host_index_range(const std::int64_t* idx, std::int64_t m);

}  // namespace loom
