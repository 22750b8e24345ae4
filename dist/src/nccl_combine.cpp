// device_combine (nccl_combine.hpp). The group lives as an MPI attribute of loom's duplicate
// communicator, so it goes with the communicator and is made once for it.
#include "nccl_combine.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "agree.hpp"
#include "mpi_call.hpp"

namespace loom::dist::detail {

namespace {

int delete_group(MPI_Comm, int, void* value, void*) {
  delete static_cast<std::unique_ptr<CollectiveGroup>*>(value);
  return MPI_SUCCESS;
}

int group_keyval() {
  static const int key = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &delete_group, &k, nullptr);
    return k;
  }();
  return key;
}

// "-<why>" when this rank cannot; otherwise "<host>/<device>", which the ranks compare for sharing.
std::string eligibility(const Runtime& rt, const std::string& op, const std::string& target,
                        DType partial, bool has_rows) {
  if (target.rfind("cuda:", 0) != 0) return "-target " + target + " is not cuda:N";
  if (!has_rows) return "-no rows";
  Collectives* c = rt.collectives("cuda");
  if (!c) return "-libloom_nccl.so is not loaded";
  if (auto a = c->availability(); !a.ok) {
    // Appends, not `"-" + c->name()`: that trips GCC 12's -Wrestrict (PR 105329).
    std::string why = "-";
    why += c->name();
    return why + " unavailable: " + a.reason;
  }
  const auto cop = collective_op_for(op, partial);
  if (!cop) return "-'" + op + "' has no collective counterpart";
  if (auto u = c->unsupported(partial, *cop); !u.empty()) return "-" + u;
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(host, &len);
  return std::string(host, len) + "/" + std::to_string(rt.resolve_target(target).second);
}

}  // namespace

std::optional<DeviceCombine> device_combine(const Runtime& rt, const Comm& comm,
                                            const std::string& op, const std::string& target,
                                            DType partial, bool has_rows, const std::string& what,
                                            std::string* why_not) {
  const std::string mine = eligibility(rt, op, target, partial, has_rows);
  const std::vector<std::string> all = allgather_strings(comm, mine, what);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (!all[r].empty() && all[r][0] == '-') {  // the same words on every rank
      *why_not = "rank " + std::to_string(r) + ": " + all[r].substr(1);
      return std::nullopt;
    }
  }
  std::vector<std::string> sorted = all;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    *why_not = "two ranks share a GPU (NCCL gives each rank its own)";
    return std::nullopt;
  }
  Collectives* c = rt.collectives("cuda");
  const DeviceCombine dc{nullptr, *collective_op_for(op, partial)};
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm.get(), group_keyval(), &value, &found);
  if (found)
    return DeviceCombine{static_cast<std::unique_ptr<CollectiveGroup>*>(value)->get(), dc.op};
  // Rank 0 makes the id; every rank joins with it (ncclCommInitRank waits for all of them).
  std::string id;
  agree(comm, what, [&] { id = comm.rank() == 0 ? c->make_group_id() : std::string(); });
  id = allgather_strings(comm, id, what)[0];
  std::unique_ptr<CollectiveGroup> g;
  agree(comm, what,
        [&] { g = c->join_group(id, comm.size(), comm.rank(), rt.resolve_target(target).second); });
  auto* held = new std::unique_ptr<CollectiveGroup>(std::move(g));
  MPI_Comm_set_attr(comm.get(), group_keyval(), held);
  return DeviceCombine{held->get(), dc.op};
}

}  // namespace loom::dist::detail
