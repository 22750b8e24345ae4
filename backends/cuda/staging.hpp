// Host <-> device transfers through pinned staging buffers, and elementwise calls with host
// operands, in chunks on kSlots streams: while the GPU copies and computes one chunk, the host
// fills the next slot's pinned buffers and empties the previous one's (copy/compute overlap,
// where Numba copies whole pageable arrays synchronously). One Staging per device; its calls
// are serialized (they share the slots).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "host_copy.hpp"
#include "staging_sizes.hpp"
#include "loom/exec.hpp"

namespace loom::backend::cuda_backend {

class Staging {
 public:
  Staging(int device, HostCopier& copier) : device_(device), copier_(copier) {}
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  // dst (device) = src (host, pageable or pinned). Returns once src may be reused; the data is
  // ordered before later work on `stream`.
  void to_device(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
  // dst (host) = src (device), after the work already on `stream`. Returns with dst filled.
  void to_host(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
  // An elementwise call whose host_operands are C-contiguous host arrays; returns when done.
  void run_elementwise(const ElementwiseCall& c);

 private:
  using Piece = HostCopier::Piece;
  void ensure_streams();
  void* pinned(int slot, int operand);
  void* device_buffer(int slot, int operand);
  void begin(cudaStream_t stream);  // slot streams wait for the work already on `stream`
  // Waits until a slot's work is done; its pinned outputs still to be copied out join `jobs`.
  void take(int slot, std::vector<Piece>& jobs);
  void finish_all();
  void abandon() noexcept;  // after an error: wait for whatever was queued, drop drains

  int device_;
  HostCopier& copier_;
  std::mutex mutex_;
  bool have_streams_ = false;
  cudaStream_t streams_[kSlots] = {};
  cudaEvent_t done_[kSlots] = {};
  cudaEvent_t start_ = nullptr;
  bool busy_[kSlots] = {};
  std::vector<Piece> drains_[kSlots];  // pinned -> pageable copies once a slot is done
  std::vector<void*> pinned_[kSlots];   // per operand index
  std::vector<void*> devbuf_[kSlots];  // per operand index
};

}  // namespace loom::backend::cuda_backend
