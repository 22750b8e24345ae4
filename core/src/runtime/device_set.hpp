// Device sets ("cuda:all", "cuda:0,1"): one call split over several devices of one backend, each
// device running its rows on its own thread (docs/multi-gpu.md). Internal to libloom.
#pragma once
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "loom/runtime.hpp"
#include "loom/small_vector.hpp"

namespace loom::detail {

// f(i) for every device i < k of a set, device 0 on the calling thread and each other on a
// thread of its own; every call ends before this returns, then the first failure in device order
// is rethrown (a failing device neither hangs the others nor hides their errors).
template <class F>
void for_each_device(int k, const F& f) {
  std::vector<std::exception_ptr> err(k);
  std::vector<std::thread> threads;
  auto guarded = [&](int i) {
    try {
      f(i);
    } catch (...) {
      err[i] = std::current_exception();
    }
  };
  try {
    for (int i = 1; i < k; ++i) threads.emplace_back(guarded, i);
  } catch (...) {  // no thread for a device: run it here after the others
    for (int i = static_cast<int>(threads.size()) + 1; i < k; ++i) guarded(i);
  }
  guarded(0);
  for (auto& t : threads) t.join();
  for (const auto& e : err) {
    if (e) std::rethrow_exception(e);
  }
}

// Whether `target` names a device set rather than one device: "<base>:all" or a list with ','.
inline bool names_device_set(std::string_view target) {
  const auto colon = target.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view rest = target.substr(colon + 1);
  return rest == "all" || rest.find(',') != std::string_view::npos;
}

// ValueError for a Stream given with a device set (a Stream belongs to one device); `who` names
// the call ("ufunc 'add'").
void refuse_stream(const Stream& s, const std::string& who, const std::string& set);

// The ufunc/gufunc call of `op` on a device set: `part` is the single-device call each device
// makes on its rows (the general path of ufunc_call.cpp).
using PartCall = SmallVec<Array, 4> (*)(const Runtime&, const OpDesc&, std::span<const Array>,
                                        const CallOptions&);
SmallVec<Array, 4> device_set_call(const Runtime& rt, const OpDesc& op,
                                   std::span<const Array> inputs, const CallOptions& o,
                                   PartCall part);

// A reduction on a device set (reduce_call.cpp's run_reduction with the same arguments).
Array device_set_reduce(const Runtime& rt, const OpDesc& op, const Array& x, const ReduceOptions& o,
                        bool default_all);

// A ufunc/gufunc call on sharded arrays (sharded_call.cpp): `one` makes the call on one device's
// operands with that device as the target.
struct ShardArg {
  const ShardedArray* s = nullptr;  // else a plain array every device takes whole
  const Array* a = nullptr;
};
using OneDeviceCall = std::function<Array(std::span<const Array>, const CallOptions&)>;
ShardedArray sharded_call(const OpDesc& op, std::span<const ShardArg> args, const CallOptions& o,
                          const OneDeviceCall& one);
// A reduction of a sharded array over axes including axis 0.
Array sharded_reduce(const Runtime& rt, const OpDesc& op, const ShardedArray& x,
                     const ReduceOptions& o, bool default_all);

}  // namespace loom::detail
