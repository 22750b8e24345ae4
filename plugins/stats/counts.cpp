// The stats plugin's host half: the counts part of its table (table.hpp).
#include "loom/def/kernel.hpp"
#include "register.hpp"
#include "table.hpp"

void loom::stats_plugin::register_counts_part(loom::Registrar& reg) { register_counts(reg); }
