// The backend interface: one small abstract class a backend library implements ("how to run").
// The core has settled types, shapes and outputs before any of these is called.
#pragma once
#include <cstddef>
#include <string>

#include "loom/exec.hpp"

namespace loom {

struct Availability {
  bool ok = true;
  std::string reason;  // why not, when !ok ("no CUDA driver")
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;    // library-level name: "serial", "tbb", "cuda"
  virtual std::string target() const = 0;  // target prefix it serves: "cpu", "parallel", "cuda"
  virtual Family family() const = 0;
  virtual Availability availability() const = 0;
  virtual int device_count() const { return 1; }
  virtual std::string describe() const { return {}; }  // device details for loom-info
  virtual int num_threads() const { return 1; }
  virtual void set_num_threads(int) {}

  virtual void run_elementwise(const ElementwiseCall& call, int device) = 0;
  virtual void run_gufunc(const GufuncCall& call, int device) = 0;
  virtual void run_reduce(const ReduceCall& call, int device) = 0;
};

}  // namespace loom
