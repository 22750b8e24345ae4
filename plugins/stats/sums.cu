// The stats plugin's CUDA half: the sums part of its table (table.hpp).
#include "loom/def/kernel.cuh"
#include "register.hpp"
#include "table.hpp"

void loom::stats_plugin::register_sums_part(loom::Registrar& reg) { register_sums(reg); }
