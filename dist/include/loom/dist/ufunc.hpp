// Ufunc and gufunc calls on distributed arrays: each rank runs the loom call on its own rows with
// its own target; the outputs are distributed as the inputs. Collective.
#pragma once
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "loom/dist/array.hpp"
#include "loom/runtime.hpp"

namespace loom::dist {

// One operand of a distributed call: a DistArray, or a replicated loom::Array that every rank
// passes alike (a scalar, or an array that broadcasts against the rows without covering axis 0,
// such as a row vector of shape (m,) against (n, m)).
class Operand {
 public:
  Operand(const DistArray& a) : dist_(a) {}     // NOLINT: implicit by design
  Operand(const loom::Array& a) : local_(a) {}  // NOLINT
  template <class T>
  requires std::is_arithmetic_v<T> Operand(T v) : local_(loom::Array(v)) {}  // NOLINT
  bool distributed() const { return dist_.valid(); }
  const DistArray& dist() const { return dist_; }
  const loom::Array& replicated() const { return local_; }

 private:
  DistArray dist_;
  loom::Array local_;
};

// loom::CallOptions for distributed calls: out= and where= are distributed as the inputs; the
// target is each array's own (DistArray::target). gufunc axes= are not offered: core dims are the
// last dims, so that axis 0 stays a loop dim.
struct CallOptions {
  std::vector<DistArray> out{};
  std::optional<DistArray> where{};
  std::optional<DType> dtype{};
  std::string signature{};
  Casting casting = Casting::same_kind;
  // Ufuncs that draw (loom::ElementIndex): the global result's first index, as
  // loom::CallOptions::index_base; each rank adds its first row's offset.
  std::int64_t index_base = 0;
};

// A ufunc or gufunc by name, run on distributed arrays. The Runtime must outlive it.
class Ufunc {
 public:
  Ufunc(const Runtime& rt, const std::string& name);
  DistArray operator()(const Operand& a, const CallOptions& o = {}) const { return one({a}, o); }
  DistArray operator()(const Operand& a, const Operand& b, const CallOptions& o = {}) const {
    return one({a, b}, o);
  }
  DistArray operator()(const Operand& a, const Operand& b, const Operand& c,
                       const CallOptions& o = {}) const {
    return one({a, b, c}, o);
  }
  // Every output (divmod). Operands that are DistArrays must all have the same global length
  // along axis 0 and the same number of dims as the call's broadcast shape, so that their axis 0
  // is the call's; replicated operands must not span axis 0 (DistributionError on every rank).
  std::vector<DistArray> call(const std::vector<Operand>& inputs, const CallOptions& o = {}) const;
  const loom::Ufunc& local() const { return u_; }  // the loom handle each rank calls

 private:
  DistArray one(const std::vector<Operand>& inputs, const CallOptions& o) const;
  const Runtime* rt_;
  loom::Ufunc u_;
};

}  // namespace loom::dist
