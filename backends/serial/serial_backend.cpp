// The serial backend (target "cpu"): runs each call's loop over the whole iteration space on the
// calling thread.
#include "loom/plugin.hpp"

namespace loom::backend {

class SerialBackend final : public Backend {
 public:
  std::string name() const override { return "serial"; }
  std::string target() const override { return "cpu"; }
  Family family() const override { return Family::host; }
  Availability availability() const override { return {}; }
  std::string describe() const override { return "host, 1 thread"; }

  void run_elementwise(const ElementwiseCall& c, int) override {
    run_elementwise_range(c, 0, c.iter.size());
  }
  void run_gufunc(const GufuncCall& c, int) override { run_gufunc_range(c, 0, c.outer.size()); }
  void run_reduce(const ReduceCall& c, int) override { run_reduce_range(c, 0, c.iter.size()); }
  // The grid in order, block by block, like Numba's CUDA simulator.
  void run_kernel(KernelCall& c, int) override {
    const BlockRange r = block_range(c);
    c.impl->host(c, r.begin, r.end, c.impl->data);
  }
};

Backend* make_serial() { return new SerialBackend(); }

}  // namespace loom::backend

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "serial", loom::Family::host, nullptr,
                              &loom::backend::make_serial}))
