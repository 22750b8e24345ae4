#include "host_copy.hpp"

#include <algorithm>
#include <cstring>

namespace loom::backend::cuda_backend {

namespace {
constexpr std::size_t kParallelMin = std::size_t{1} << 20;  // below this one thread is faster
}

HostCopier::HostCopier(int threads) {
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  parts_ = threads > 0 ? threads : std::min(16, hw);
}

HostCopier::~HostCopier() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : threads_) t.join();
}

void HostCopier::start() {
  started_ = true;
  for (int p = 1; p < parts_; ++p) threads_.emplace_back([this, p] { work(p); });
}

// Bytes [part * share, (part + 1) * share) of the pieces laid end to end.
void HostCopier::run_part(int part) {
  std::size_t begin = static_cast<std::size_t>(part) * share_;
  std::size_t end = std::min(bytes_, begin + share_);
  std::size_t at = 0;
  for (const Piece& p : *pieces_) {
    if (begin >= end) break;
    const std::size_t lo = std::max(begin, at), hi = std::min(end, at + p.bytes);
    if (lo < hi) {
      std::memcpy(static_cast<char*>(p.dst) + (lo - at), static_cast<const char*>(p.src) + (lo - at),
                  hi - lo);
      begin = hi;
    }
    at += p.bytes;
  }
}

void HostCopier::work(int part) {
  unsigned long seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    run_part(part);
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

void HostCopier::copy(void* dst, const void* src, std::size_t bytes) {
  copy(std::vector<Piece>{{dst, src, bytes}});
}

void HostCopier::copy(const std::vector<Piece>& pieces) {
  std::size_t total = 0;
  for (const Piece& p : pieces) total += p.bytes;
  if (total < kParallelMin || parts_ <= 1) {
    for (const Piece& p : pieces) std::memcpy(p.dst, p.src, p.bytes);
    return;
  }
  std::lock_guard call(call_mutex_);
  {
    std::lock_guard lock(mutex_);
    if (!started_) start();
    pieces_ = &pieces;
    bytes_ = total;
    // Shares of whole pages (of the concatenation): few cache lines shared between threads.
    share_ = ((total + parts_ - 1) / parts_ + 4095) / 4096 * 4096;
    pending_ = parts_ - 1;
    ++generation_;
  }
  wake_.notify_all();
  run_part(0);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return pending_ == 0; });
}

}  // namespace loom::backend::cuda_backend
