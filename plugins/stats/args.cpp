// The stats plugin's host half: the args part of its table (table.hpp).
#include "loom/def/kernel.hpp"
#include "register.hpp"
#include "table.hpp"

void loom::stats_plugin::register_args_part(loom::Registrar& reg) { register_args(reg); }
