// The stacks of the fibers that run a host block's threads (block_fibers.cpp): per OS thread, of
// one size, each with a guard below, reused from block to block. Internal to the core.
#pragma once
#include <boost/context/stack_context.hpp>
#include <cstddef>
#include <vector>

namespace loom::detail {

std::size_t page_size();

// Stacks of one size with a guard below each, kept for the life of the OS thread; a launch
// asking for another size maps them again.
class StackPool {
 public:
  ~StackPool() { release(); }
  // Stack i (0-based) of this OS thread, of `bytes` (a multiple of the page), made on first use.
  boost::context::stack_context get(std::size_t i, std::size_t bytes);

 private:
  static std::size_t guard();
  std::size_t total() const { return bytes_ + guard(); }
  void release();
  std::size_t bytes_ = 0;
  std::vector<void*> stacks_;
};

// The pool owns the memory: a finished fiber gives nothing back.
struct PooledStack {
  boost::context::stack_context allocate() { return {}; }
  void deallocate(boost::context::stack_context&) noexcept {}
};

}  // namespace loom::detail
