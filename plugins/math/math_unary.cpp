// The math plugin's host loops of one op group (table_unary.hpp), in their own translation unit.
#include "loom/def/reduce.hpp"
#include "loom/def/ufunc.hpp"
#include "table_unary.hpp"
