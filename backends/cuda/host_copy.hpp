// A parallel memcpy for the pageable <-> pinned leg of host transfers: one thread copies about
// 10 GB/s, so large copies are split over a few persistent threads (the GPU machine's 16 cores
// together reach about 65 GB/s, more than a PCIe link carries).
#pragma once
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace loom::backend::cuda_backend {

class HostCopier {
 public:
  struct Piece {
    void* dst;
    const void* src;
    std::size_t bytes;
  };
  // threads 0: min(16, hardware threads). Threads start at the first large copy.
  explicit HostCopier(int threads = 0);
  ~HostCopier();
  HostCopier(const HostCopier&) = delete;
  HostCopier& operator=(const HostCopier&) = delete;

  void copy(void* dst, const void* src, std::size_t bytes);
  // Several copies as one job: the threads split their total bytes evenly.
  void copy(const std::vector<Piece>& pieces);

 private:
  void start();
  void work(int part);
  void run_part(int part);

  int parts_;
  std::mutex call_mutex_;  // one copy at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> threads_;
  bool started_ = false, stop_ = false;
  unsigned long generation_ = 0;
  int pending_ = 0;
  const std::vector<Piece>* pieces_ = nullptr;
  std::size_t bytes_ = 0, share_ = 0;  // total bytes, bytes per thread
};

}  // namespace loom::backend::cuda_backend
