// A types/ file that includes a calls/ header: check_layers must refuse it.
#include "calls/up.hpp"
#include "loom/array.hpp"
