// A binary ufunc whose only loop is not of the form T(T,T) (float64(int32,int32)): asking it to
// reduce is E-TYPE-REDUCE-LOOP-NOT-BINARY. Its elementwise loop is never called by the catalogue.
#include <cstdint>

#include "loom/def/ufunc.hpp"
#include "loom/plugin.hpp"

namespace {
struct Ratio {
  double operator()(std::int32_t a, std::int32_t b) const { return static_cast<double>(a) / b; }
};
void register_ops(loom::Registrar& reg) {
  loom::def::ufunc<Ratio, double(std::int32_t, std::int32_t)>(reg, "cat_ratio", "a / b as float64");
}
}  // namespace

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "cat_mixed_loop", loom::Family::host,
                              &register_ops, nullptr}))
