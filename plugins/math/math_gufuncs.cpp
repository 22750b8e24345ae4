// The math plugin's host gufunc loops (table_gufuncs.hpp), in their own translation unit.
#include "loom/def/gufunc.hpp"
#include "table_gufuncs.hpp"
