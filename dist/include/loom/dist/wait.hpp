// How long loom::dist waits for the other ranks in a collective before it gives up, and how it
// gives up: MPI cannot cancel a collective that a rank never joined, so the only way out that
// leaves no rank hanging is MPI_Abort, which ends every process of the job.
#pragma once

namespace loom::dist {

// Seconds; 0 waits forever. Default: LOOM_DIST_TIMEOUT (seconds) if set, else 600.
double timeout();
void set_timeout(double seconds);

}  // namespace loom::dist
