#include "staging.hpp"

#include <algorithm>

#include "check.hpp"
#include "loom/op.hpp"

namespace loom::backend::cuda_backend {

namespace {

bool is_pinned(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

}  // namespace

Staging::~Staging() {
  if (cudaSetDevice(device_) != cudaSuccess) return;  // CUDA already shut down at exit
  for (int s = 0; s < kSlots; ++s) {
    for (void* p : pinned_[s]) {
      if (p) (void)cudaFreeHost(p);
    }
    for (void* p : devbuf_[s]) {
      if (p) (void)cudaFree(p);
    }
    if (have_streams_) {
      (void)cudaStreamDestroy(streams_[s]);
      (void)cudaEventDestroy(done_[s]);
    }
  }
  if (have_streams_) (void)cudaEventDestroy(start_);
  (void)cudaGetLastError();
}

void Staging::ensure_streams() {
  if (have_streams_) return;
  // Blocking streams: the legacy default stream, on which buffers are freed, waits for them.
  for (int s = 0; s < kSlots; ++s) {
    check(cudaStreamCreate(&streams_[s]), "cudaStreamCreate (staging)");
    check(cudaEventCreateWithFlags(&done_[s], cudaEventDisableTiming), "cudaEventCreate (staging)");
  }
  check(cudaEventCreateWithFlags(&start_, cudaEventDisableTiming), "cudaEventCreate (staging)");
  have_streams_ = true;
}

void* Staging::pinned(int slot, int operand) {
  auto& v = pinned_[slot];
  if (static_cast<int>(v.size()) <= operand) v.resize(operand + 1, nullptr);
  if (!v[operand]) {
    check(cudaMallocHost(&v[operand], kChunkBytes), "cudaMallocHost (staging buffer)");
  }
  return v[operand];
}

void* Staging::device_buffer(int slot, int operand) {
  auto& v = devbuf_[slot];
  if (static_cast<int>(v.size()) <= operand) v.resize(operand + 1, nullptr);
  if (!v[operand]) check(cudaMalloc(&v[operand], kChunkBytes), "cudaMalloc (staging buffer)");
  return v[operand];
}

void Staging::begin(cudaStream_t stream) {
  check(cudaEventRecord(start_, stream), "cudaEventRecord");
  for (int s = 0; s < kSlots; ++s) {
    check(cudaStreamWaitEvent(streams_[s], start_, 0), "cudaStreamWaitEvent");
  }
}

void Staging::take(int slot, std::vector<Piece>& jobs) {
  if (!busy_[slot]) return;
  check(cudaEventSynchronize(done_[slot]), "cudaEventSynchronize (staging)");
  jobs.insert(jobs.end(), drains_[slot].begin(), drains_[slot].end());
  drains_[slot].clear();
  busy_[slot] = false;
}

void Staging::finish_all() {
  std::vector<Piece> jobs;
  for (int s = 0; s < kSlots; ++s) take(s, jobs);
  copier_.copy(jobs);
}

void Staging::abandon() noexcept {
  for (int s = 0; s < kSlots; ++s) {
    if (busy_[s]) (void)cudaEventSynchronize(done_[s]);
    drains_[s].clear();
    busy_[s] = false;
  }
  (void)cudaGetLastError();
}

void Staging::to_device(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  std::lock_guard lock(mutex_);
  if (is_pinned(src)) {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return;
  }
  ensure_streams();
  try {
    begin(stream);
    auto* d = static_cast<char*>(dst);
    const auto* h = static_cast<const char*>(src);
    int k = 0;
    for (std::size_t off = 0; off < bytes; off += kChunkBytes, ++k) {
      const int slot = k % kSlots;
      std::vector<Piece> jobs;
      take(slot, jobs);
      const std::size_t n = std::min(kChunkBytes, bytes - off);
      void* pin = pinned(slot, 0);
      copier_.copy(pin, h + off, n);
      check(cudaMemcpyAsync(d + off, pin, n, cudaMemcpyHostToDevice, streams_[slot]),
            "cudaMemcpyAsync (host to device)");
      check(cudaEventRecord(done_[slot], streams_[slot]), "cudaEventRecord");
      busy_[slot] = true;
    }
    // Later work on `stream` sees the data; the next user of a slot waits for its copy first.
    for (int s = 0; s < kSlots; ++s) {
      if (busy_[s]) check(cudaStreamWaitEvent(stream, done_[s], 0), "cudaStreamWaitEvent");
    }
  } catch (...) {
    abandon();
    throw;
  }
}

void Staging::to_host(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  std::lock_guard lock(mutex_);
  if (is_pinned(dst)) {
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return;
  }
  ensure_streams();
  try {
    begin(stream);
    auto* h = static_cast<char*>(dst);
    const auto* d = static_cast<const char*>(src);
    int k = 0;
    for (std::size_t off = 0; off < bytes; off += kChunkBytes, ++k) {
      const int slot = k % kSlots;
      std::vector<Piece> jobs;
      take(slot, jobs);
      copier_.copy(jobs);
      const std::size_t n = std::min(kChunkBytes, bytes - off);
      void* pin = pinned(slot, 0);
      check(cudaMemcpyAsync(pin, d + off, n, cudaMemcpyDeviceToHost, streams_[slot]),
            "cudaMemcpyAsync (device to host)");
      check(cudaEventRecord(done_[slot], streams_[slot]), "cudaEventRecord");
      busy_[slot] = true;
      drains_[slot].push_back({h + off, pin, n});
    }
    finish_all();
  } catch (...) {
    abandon();
    throw;
  }
}

void Staging::run_elementwise(const ElementwiseCall& c) {
  const StridedIter& it = c.iter;
  const std::int64_t n = it.size();
  if (n <= 0) return;
  std::lock_guard lock(mutex_);
  const int na = it.nargs();
  const int nd = static_cast<int>(it.shape.size());
  const int nin = c.nin;  // operands [0, nin) are copied in, the rest copied back
  struct HostOp {
    int a;
    std::int64_t isz;
    bool in, out, pinned;
  };
  std::vector<HostOp> hosts;
  std::int64_t max_isz = 1;
  for (int a = 0; a < na; ++a) {
    if (!((c.host_operands >> a) & 1u)) continue;
    const std::int64_t isz = it.strides[a][nd - 1];
    if (isz <= 0 || isz > 16) {
      throw DeviceError(
          "cuda: host operand " + std::to_string(a) + " of an elementwise call has innermost "
          "stride " + std::to_string(isz) + " over iteration shape " + shape_str(it.shape) +
          "; a host operand must be C-contiguous with the full shape, its innermost stride its "
          "element size (also for a one-element call)");
    }
    hosts.push_back({a, isz, a < nin, a >= nin, is_pinned(it.base[a])});
    max_isz = std::max(max_isz, isz);
  }
  ensure_streams();
  // Chunks are whole runs of dims d.. (contiguous in every host operand): d is the outermost dim
  // whose inner block fits a chunk, and a chunk takes clen indices of dim d.
  const std::int64_t target = std::max<std::int64_t>(1, static_cast<std::int64_t>(kChunkBytes) / max_isz);
  int d = nd - 1;
  std::int64_t inner = 1;
  while (d > 0 && inner * it.shape[d] <= target) {
    inner *= it.shape[d];
    --d;
  }
  const std::int64_t sd = it.shape[d];
  const std::int64_t clen = std::min(sd, std::max<std::int64_t>(1, target / inner));
  std::int64_t outer = 1;
  for (int k = 0; k < d; ++k) outer *= it.shape[k];

  ElementwiseCall sub = c;
  sub.host_operands = 0;
  sub.iter.shape = Shape(it.shape.begin() + d, it.shape.end());
  for (int a = 0; a < na; ++a) sub.iter.strides[a] = Shape(it.strides[a].begin() + d, it.strides[a].end());
  const DeviceElementwiseLoop loop = c.loop->device_elementwise;
  const void* data = c.loop->data;
  std::vector<std::int64_t> ooff(na);
  try {
    begin(static_cast<cudaStream_t>(c.stream));
    int k = 0;
    for (std::int64_t o = 0; o < outer; ++o) {
      std::fill(ooff.begin(), ooff.end(), 0);
      std::int64_t rem = o;
      for (int kk = d - 1; kk >= 0; --kk) {
        const std::int64_t idx = rem % it.shape[kk];
        rem /= it.shape[kk];
        for (int a = 0; a < na; ++a) ooff[a] += idx * it.strides[a][kk];
      }
      for (std::int64_t k0 = 0; k0 < sd; k0 += clen, ++k) {
        const int slot = k % kSlots;
        std::vector<Piece> jobs;
        take(slot, jobs);  // the slot's last outputs out first: an operand may be in and out
        copier_.copy(jobs);
        jobs.clear();
        const cudaStream_t s = streams_[slot];
        const std::int64_t len = std::min(clen, sd - k0);
        const std::int64_t flat = (o * sd + k0) * inner, count = len * inner;
        sub.iter.shape[0] = len;
        sub.index_base = c.index_base + flat;  // the piece's first element, for indexed loops
        for (int a = 0; a < na; ++a) sub.iter.base[a] = it.base[a] + ooff[a] + k0 * it.strides[a][d];
        for (const HostOp& h : hosts) {
          const auto bytes = static_cast<std::size_t>(count * h.isz);
          char* host = it.base[h.a] + flat * h.isz;
          void* dev = device_buffer(slot, h.a);
          sub.iter.base[h.a] = static_cast<char*>(dev);
          if (h.in && !h.pinned) jobs.push_back({pinned(slot, h.a), host, bytes});
        }
        copier_.copy(jobs);
        for (const HostOp& h : hosts) {
          if (!h.in) continue;
          const auto bytes = static_cast<std::size_t>(count * h.isz);
          const void* from = h.pinned ? static_cast<const void*>(it.base[h.a] + flat * h.isz)
                                      : pinned(slot, h.a);
          check(cudaMemcpyAsync(device_buffer(slot, h.a), from, bytes, cudaMemcpyHostToDevice, s),
                "cudaMemcpyAsync (host to device)");
        }
        sub.stream = s;
        loop(sub, data);
        for (const HostOp& h : hosts) {
          if (!h.out) continue;
          const auto bytes = static_cast<std::size_t>(count * h.isz);
          char* host = it.base[h.a] + flat * h.isz;
          void* dev = device_buffer(slot, h.a);
          if (h.pinned) {
            check(cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (device to host)");
          } else {
            void* pin = pinned(slot, h.a);
            check(cudaMemcpyAsync(pin, dev, bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (device to host)");
            drains_[slot].push_back({host, pin, bytes});
          }
        }
        check(cudaEventRecord(done_[slot], s), "cudaEventRecord");
        busy_[slot] = true;
      }
    }
    finish_all();
  } catch (...) {
    abandon();
    throw;
  }
}

}  // namespace loom::backend::cuda_backend
