// The stats plugin's table, included by sums, args and counts (.cpp after the host def header,
// .cu after the CUDA one).
#pragma once
#include <cstdint>

#include "kernels.hpp"
#include "loom/registry.hpp"

namespace loom::stats_plugin {

namespace detail {
// Registers K<T>... for the element types loom::stats takes (all but complex).
template <template <class> class K>
void for_all(loom::Registrar& reg, const char* name, const char* doc) {
  loom::def::kernel<K<bool>, K<std::int8_t>, K<std::uint8_t>, K<std::int16_t>, K<std::uint16_t>,
                    K<std::int32_t>, K<std::uint32_t>, K<std::int64_t>, K<std::uint64_t>,
                    K<float16_t>, K<float>, K<double>>(reg, name, doc);
}
template <template <class> class K>
void for_ints(loom::Registrar& reg, const char* name, const char* doc) {
  loom::def::kernel<K<bool>, K<std::int8_t>, K<std::uint8_t>, K<std::int16_t>, K<std::uint16_t>,
                    K<std::int32_t>, K<std::uint32_t>, K<std::int64_t>, K<std::uint64_t>>(reg, name,
                                                                                          doc);
}
template <class A>
struct SumPartOf {
  template <class T>
  using K = SumPart<T, A>;
};
}  // namespace detail

// The table in three parts, each instantiated in a translation unit of its own in each half
// (sums.*, args.*, counts.*; register.hpp): as one, the host half's file took 346 s to compile
// under ASan, the last of CI's compiles to finish.
inline void register_sums(loom::Registrar& reg) {
  using detail::SumPartOf;
  using loom::def::kernel;
  // Accumulating in float32 (float16 and float32 inputs, or dtype=float32) and in float64.
  detail::for_all<SumPartOf<float>::K>(
      reg, "stats_sum_part_f32",
      "psum, pcount(r, c) = float32 sum and count of chunk c of row r (kept, centred elements)");
  detail::for_all<SumPartOf<double>::K>(
      reg, "stats_sum_part_f64",
      "psum, pcount(r, c) = float64 sum and count of chunk c of row r (kept, centred elements)");
  kernel<SumFold<float>, SumFold<double>>(reg, "stats_sum_fold",
                                          "osum, ocount(r, c) = sums of chunk c of the partials");
  kernel<Finish<float, float16_t>, Finish<float, float>, Finish<double, double>>(
      reg, "stats_finish", "out(r) = mean, variance, standard deviation or sum from (sum, count)");
}

inline void register_args(loom::Registrar& reg) {
  detail::for_all<ArgPart>(reg, "stats_arg_part",
                           "pval, pidx(r, c) = extreme of chunk c of row r and its index");
  detail::for_all<ArgFold>(reg, "stats_arg_fold",
                           "oval, oidx(r, c) = extreme of chunk c of the partial extremes");
}

inline void register_counts(loom::Registrar& reg) {
  detail::for_ints<BincountShared>(reg, "stats_bincount_shared",
                                   "counts(x(i)) += 1, through a private copy per block");
  detail::for_ints<BincountGlobal>(reg, "stats_bincount_global", "counts(x(i)) += 1");
  detail::for_all<HistogramShared>(
      reg, "stats_histogram_shared",
      "counts(equal bin of x(i)) += 1, through a private copy per block");
  detail::for_all<HistogramGlobal>(reg, "stats_histogram_global", "counts(equal bin of x(i)) += 1");
  detail::for_all<WeightedPart>(
      reg, "stats_weighted_part",
      "part(c, bin) = weights of chunk c of x falling in bin, added in element order");
}

}  // namespace loom::stats_plugin
