// loom::Error and its subclasses: every failure loom reports is one of these, with a message that
// names the offending values and says what to do instead.
#pragma once
#include <stdexcept>
#include <string>

namespace loom {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A string (signature, layout, dtype or target name) that does not parse.
class ParseError : public Error {
 public:
  using Error::Error;
};
// No loop accepts the input dtypes, or a value cannot be cast as asked.
class TypeError : public Error {
 public:
  using Error::Error;
};
// Shapes that do not broadcast, gufunc core dims that disagree, bad axes or reshapes.
class ShapeError : public Error {
 public:
  using Error::Error;
};
// Wrong number of arguments, empty reduction without identity, bad option values.
class ValueError : public Error {
 public:
  using Error::Error;
};
// Unknown target name, or a known target whose backend is unavailable here.
class TargetError : public Error {
 public:
  using Error::Error;
};
// No operation or kernel of that name is registered (for the asked target).
class LookupError : public Error {
 public:
  using Error::Error;
};
// A plugin or backend library that cannot be loaded or is refused.
class PluginError : public Error {
 public:
  using Error::Error;
};
// A device call failed (CUDA error, out of memory, arrays on different devices).
class DeviceError : public Error {
 public:
  using Error::Error;
};
// A host array given to a device call on a runtime whose TransferGuard is disallow: the call
// would have copied it to the device (and results back) implicitly.
class TransferError : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

// A launch configuration the target cannot run (zero blocks, too many threads per block, more
// shared memory than a block may have).
class LaunchError : public Error {
 public:
  using Error::Error;
};
// A kernel broke a rule of the execution model while it ran on a host target: a barrier not
// reached by every thread of a block, syncthreads() in a kernel that did not declare it.
class KernelError : public Error {
 public:
  using Error::Error;
};
// A View indexed outside its shape (host targets, builds with LOOM_BOUNDS_CHECK).
class IndexError : public Error {
 public:
  using Error::Error;
};

}  // namespace loom
