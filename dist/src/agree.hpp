// Internal: how every rank of a collective call learns that the call failed somewhere, so that
// all of them raise an error instead of some waiting forever for the others (docs/scale-out.md,
// "Failure behaviour").
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "loom/dist/comm.hpp"

namespace loom::dist::detail {

// Every rank's string, in rank order. Collective.
std::vector<std::string> allgather_strings(const Comm& c, const std::string& mine,
                                           const std::string& what);

// Runs `step` on this rank, then agrees with every rank on whether any step threw. If one did,
// every rank throws: a rank whose step threw rethrows its own exception; the others throw
// RemoteError with the lowest failing rank's message. Collective.
void agree(const Comm& c, const std::string& what, const std::function<void()>& step);

// Before computing: `describe` says what this rank was asked to do (global shapes, dtypes, the
// op), and may throw for a local mistake (agreed on as by agree()). Descriptions that differ
// between ranks are a DistributionError on every rank naming rank 0's and the first differing
// one, with `fix` appended. Collective.
void agree_on_call(const Comm& c, const std::string& what,
                   const std::function<std::string()>& describe, const std::string& fix);

}  // namespace loom::dist::detail
