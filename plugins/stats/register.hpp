// The stats plugin's registration, as each half's entry point sees it: three parts defined in
// translation units of their own (table.hpp says why).
#pragma once
#include "loom/registry.hpp"

namespace loom::stats_plugin {

void register_sums_part(loom::Registrar& reg);    // sums.cpp / sums.cu
void register_args_part(loom::Registrar& reg);    // args.cpp / args.cu
void register_counts_part(loom::Registrar& reg);  // counts.cpp / counts.cu

inline void register_kernels(loom::Registrar& reg) {
  register_sums_part(reg);
  register_args_part(reg);
  register_counts_part(reg);
}

}  // namespace loom::stats_plugin
