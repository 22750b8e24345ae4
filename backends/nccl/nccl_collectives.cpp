// libloom_nccl.so: the collectives of the cuda target through NCCL (loom/collective.hpp). A
// sharded reduction's partials are combined by ncclReduce onto the first device of the set, over
// communicators made once per list of devices (ncclCommInitAll); loom::dist's GPU ranks join a
// group made from an ncclUniqueId that rank 0 broadcasts (ncclCommInitRank) and ncclAllReduce.
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <vector>

#include "loom/error.hpp"
#include "loom/plugin.hpp"
#include "nccl_api.hpp"

namespace loom::nccl {
namespace {

std::string dtype_problem(DType t) {
  switch (t) {
    case DType::int16:
    case DType::uint16:
    case DType::complex64:
    case DType::complex128:
      return "NCCL has no " + std::string(name(t)) +
             " reductions (it reduces int8, uint8, int32, uint32, int64, uint64, float16, "
             "float32 and float64)";
    default:
      return {};
  }
}

ncclDataType_t nccl_type(DType t) {
  switch (t) {
    case DType::bool_:  // 0 or 1 a byte: or is max, and is min
    case DType::uint8:
      return ncclUint8;
    case DType::int8:
      return ncclInt8;
    case DType::int32:
      return ncclInt32;
    case DType::uint32:
      return ncclUint32;
    case DType::int64:
      return ncclInt64;
    case DType::uint64:
      return ncclUint64;
    case DType::float16:
      return ncclFloat16;
    case DType::float32:
      return ncclFloat32;
    case DType::float64:
      return ncclFloat64;
    default:
      throw ValueError("nccl: " + dtype_problem(t));
  }
}

ncclRedOp_t nccl_op(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::sum:
      return ncclSum;
    case CollectiveOp::prod:
      return ncclProd;
    case CollectiveOp::max:
      return ncclMax;
    case CollectiveOp::min:
      return ncclMin;
  }
  return ncclSum;
}

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw DeviceError(std::string("nccl: ") + what + ": " + cudaGetErrorString(e));
  }
}

// Restores the calling thread's current device when it leaves.
struct DeviceGuard {
  int saved = 0;
  DeviceGuard() { cudaGetDevice(&saved); }
  ~DeviceGuard() { cudaSetDevice(saved); }
};

class Group final : public CollectiveGroup {
 public:
  Group(ncclComm_t comm, int size, int rank, int device)
      : comm_(comm), size_(size), rank_(rank), device_(device) {}
  // The communicator is kept until the process ends (see NcclCollectives).
  int size() const override { return size_; }
  int rank() const override { return rank_; }
  void all_reduce(void* buf, std::int64_t count, DType t, CollectiveOp op, void* stream) override {
    if (auto why = dtype_problem(t); !why.empty()) throw ValueError("nccl all_reduce: " + why);
    DeviceGuard g;
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    check(api().all_reduce(buf, buf, static_cast<size_t>(count), nccl_type(t), nccl_op(op), comm_,
                           static_cast<cudaStream_t>(stream)),
          "ncclAllReduce of " + std::to_string(count) + " " + std::string(name(t)) + " on rank " +
              std::to_string(rank_) + " of " + std::to_string(size_));
  }

 private:
  ncclComm_t comm_;
  int size_, rank_, device_;
};

class NcclCollectives final : public Collectives {
 public:
  // Communicators are never destroyed: they live as long as the process (as CUDA's primary
  // contexts do), and ncclCommDestroy during static destruction can run after the driver shut
  // down.
  std::string name() const override { return "nccl"; }
  std::string target() const override { return "cuda"; }
  Availability availability() const override {
    const Api& a = api();
    if (!a.error.empty()) return {false, a.error};
    int n = 0;
    if (cudaError_t e = cudaGetDeviceCount(&n); e != cudaSuccess || n == 0) {
      return {false, std::string("no CUDA device (") +
                         (e != cudaSuccess ? cudaGetErrorString(e) : "0 devices") + ")"};
    }
    return {};
  }
  std::string unsupported(DType t, CollectiveOp) const override { return dtype_problem(t); }

  void reduce(std::span<void* const> bufs, std::span<const int> devices, std::int64_t count,
              DType t, CollectiveOp op) override {
    if (const Availability a = availability(); !a.ok) throw DeviceError("nccl: " + a.reason);
    const ncclDataType_t dt = nccl_type(t);
    std::lock_guard lock(mutex_);  // one group of calls at a time on a set's communicators
    const std::vector<int> key(devices.begin(), devices.end());
    auto it = comms_.find(key);
    if (it == comms_.end()) {
      std::vector<ncclComm_t> comms(key.size());
      check(api().comm_init_all(comms.data(), static_cast<int>(key.size()), key.data()),
            "ncclCommInitAll for " + list(key));
      it = comms_.emplace(key, std::move(comms)).first;
    }
    DeviceGuard g;
    check(api().group_start(), "ncclGroupStart");
    ncclResult_t first = ncclSuccess;
    for (std::size_t i = 0; i < key.size(); ++i) {
      // The legacy default stream: behind the partials' reductions, ahead of the copy home.
      if (cudaSetDevice(key[i]) != cudaSuccess && first == ncclSuccess)
        first = ncclUnhandledCudaError;
      const ncclResult_t r = api().reduce(bufs[i], bufs[i], static_cast<size_t>(count), dt,
                                          nccl_op(op), 0, it->second[i], nullptr);
      if (first == ncclSuccess) first = r;
    }
    const ncclResult_t end = api().group_end();  // always closes the group it opened
    check(first, "ncclReduce over " + list(key));
    check(end, "ncclGroupEnd of the reduce over " + list(key));
  }

  std::string make_group_id() override {
    if (const Availability a = availability(); !a.ok) throw DeviceError("nccl: " + a.reason);
    ncclUniqueId id;
    check(api().get_unique_id(&id), "ncclGetUniqueId");
    return std::string(id.internal, sizeof id.internal);
  }

  std::unique_ptr<CollectiveGroup> join_group(const std::string& id, int size, int rank,
                                              int device) override {
    if (const Availability a = availability(); !a.ok) throw DeviceError("nccl: " + a.reason);
    if (id.size() != sizeof(ncclUniqueId)) {
      throw ValueError("nccl: a group id is " + std::to_string(sizeof(ncclUniqueId)) +
                       " bytes (from make_group_id), not " + std::to_string(id.size()));
    }
    ncclUniqueId uid;
    std::copy(id.begin(), id.end(), uid.internal);
    DeviceGuard g;
    cuda_check(cudaSetDevice(device), "cudaSetDevice");
    ncclComm_t comm = nullptr;
    check(api().comm_init_rank(&comm, size, uid, rank),
          "ncclCommInitRank (rank " + std::to_string(rank) + " of " + std::to_string(size) +
              " on cuda:" + std::to_string(device) + ")");
    return std::make_unique<Group>(comm, size, rank, device);
  }

 private:
  static std::string list(const std::vector<int>& d) {
    std::string s = "cuda:";
    // Two appends, not `"," + to_string(..)`: GCC 12's -Wrestrict misfires on that (PR 105329).
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (i) s += ',';
      s += std::to_string(d[i]);
    }
    return s;
  }
  std::mutex mutex_;
  std::map<std::vector<int>, std::vector<ncclComm_t>> comms_;
};

Collectives* make_collectives() { return new NcclCollectives(); }

}  // namespace
}  // namespace loom::nccl

LOOM_PLUGIN((loom::PluginInfo{loom::kAbiVersion, "nccl", loom::Family::cuda, nullptr, nullptr}))
LOOM_COLLECTIVES(loom::nccl::make_collectives)
