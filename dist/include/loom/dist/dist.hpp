// loom::dist in one include: distributed arrays over MPI, their calls, reductions, halos and
// random arrays (docs/scale-out.md, docs/random.md).
#pragma once
#include "loom/dist/array.hpp"
#include "loom/dist/comm.hpp"
#include "loom/dist/error.hpp"
#include "loom/dist/halo.hpp"
#include "loom/dist/random.hpp"
#include "loom/dist/reduce.hpp"
#include "loom/dist/rows.hpp"
#include "loom/dist/ufunc.hpp"
#include "loom/dist/wait.hpp"
