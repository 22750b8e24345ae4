// Halo exchange for stencils on distributed arrays (docs/scale-out.md, "Halos").
#pragma once
#include "loom/dist/array.hpp"
#include "loom/runtime.hpp"

namespace loom::dist {

// Fills `width` halo rows on each side of every rank's rows with its neighbours' boundary rows
// (MPI_Sendrecv pattern: rank r's first rows go to r - 1's bottom halo, its last rows to r + 1's
// top halo). The first call with a larger width than a.halo() moves the shard into storage with
// room for the halos (a.local() then is a view of it); the top halo of rank 0 and the bottom halo
// of the last rank are left as they are. Every rank must own at least `width` rows when there is
// more than one rank (DistributionError on every rank otherwise). Collective.
void exchange_halo(const Runtime& rt, const DistArray& a, int width);

}  // namespace loom::dist
