// DistArray and its collective constructors: scatter, gather, allgather, from_local, zeros.
#include "loom/dist/array.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "agree.hpp"
#include "loom/dist/error.hpp"
#include "mpi_call.hpp"
#include "state.hpp"

namespace loom::dist {

// ---- DistArray ----

DistArray::State& DistArray::state() const {
  if (!state_) throw ValueError("an empty (default-constructed) loom::dist::DistArray was used");
  return *state_;
}
const Comm& DistArray::comm() const { return state().comm; }
const Shape& DistArray::shape() const { return state().shape; }
DType DistArray::dtype() const { return state().dtype; }
const std::string& DistArray::target() const { return state().target; }
Rows DistArray::rows() const { return state().rows; }
Rows DistArray::rows_of(int rank) const {
  if (rank < 0 || rank >= comm().size()) {
    throw ValueError("loom::dist::DistArray::rows_of(" + std::to_string(rank) +
                     "): no such rank; this communicator has ranks 0 to " +
                     std::to_string(comm().size() - 1));
  }
  return block_rows(shape()[0], comm().size(), rank);
}
const loom::Array& DistArray::local() const { return state().local; }
const loom::Array& DistArray::with_halo() const { return state().storage; }
int DistArray::halo() const { return state().halo; }
std::string DistArray::str() const {
  const State& s = state();
  return std::string(name(s.dtype)) + " array of global shape " + shape_str(s.shape) + ", rows [" +
         std::to_string(s.rows.begin) + ", " + std::to_string(s.rows.end) + ") on rank " +
         std::to_string(s.comm.rank()) + " of " + std::to_string(s.comm.size()) + ", " + s.target;
}

// ---- helpers ----

namespace detail {

DistArray make(const Comm& comm, Shape global, DType dtype, std::string target, loom::Array storage,
               int halo) {
  auto s = std::make_shared<DistArray::State>(DistArray::State{
      comm, std::move(global), dtype, std::move(target), {}, halo, std::move(storage), {}});
  s->rows = block_rows(s->shape[0], comm.size(), comm.rank());
  s->local = halo == 0 ? s->storage : s->storage.slice(0, halo, halo + s->rows.size());
  return DistArray(std::move(s));
}

std::string describe(DType dtype, const Shape& shape) {
  return std::string(name(dtype)) + " " + shape_str(shape);
}
std::string describe(const DistArray& a) { return describe(a.dtype(), a.shape()); }

std::string describe_values(const Runtime& rt, const loom::Array& a) {
  loom::Array h = rt.to_host(a);
  if (!h.is_c_contiguous()) h = h.copy();
  if (h.size() == 1) return " = " + loom::format(h);
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  const auto* p = reinterpret_cast<const unsigned char*>(h.data());
  const std::size_t n = static_cast<std::size_t>(h.size()) * h.itemsize();
  for (std::size_t i = 0; i < n; ++i) hash = (hash ^ p[i]) * 1099511628211ull;
  char buf[32];
  std::snprintf(buf, sizeof buf, " bytes #%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

std::string resolve(const Runtime& rt, const std::string& target) {
  const std::string t = target.empty() ? rt.default_target() : target;
  rt.resolve_target(t);
  return t;
}

loom::Array contiguous(const Runtime& rt, const loom::Array& a) {
  if (a.is_c_contiguous()) return a;
  if (a.device().is_host()) return a.copy();
  loom::Array c = rt.empty(a.shape(), a.dtype(), a.device().str());
  rt.copy_to(a, c);
  return c;
}

Shape with_rows(const Shape& s, std::int64_t rows) {
  Shape out = s;
  out[0] = rows;
  return out;
}

}  // namespace detail

namespace {

using detail::agree;
using detail::agree_on_call;
using detail::check;

std::int64_t row_bytes(const Shape& shape, DType dtype) {
  std::int64_t b = static_cast<std::int64_t>(itemsize(dtype));
  for (std::size_t k = 1; k < shape.size(); ++k) b *= shape[k];
  return b;
}

void check_root(const Comm& c, int root, const char* what) {
  if (root < 0 || root >= c.size()) {
    throw ValueError(std::string(what) + ": root " + std::to_string(root) +
                     " is not a rank of this communicator of " + std::to_string(c.size()) +
                     " ranks; give a root in [0, " + std::to_string(c.size()) + ")");
  }
}

// Counts and displacements, in rows, of every rank's block for MPI's v-collectives.
struct Counts {
  std::vector<int> counts, displs;
};
Counts counts_of(std::int64_t n, int p) {
  Counts c{std::vector<int>(p), std::vector<int>(p)};
  for (int r = 0; r < p; ++r) {
    const Rows rr = block_rows(n, p, r);
    c.counts[r] = detail::as_count(rr.size(), "a rank's row count");
    c.displs[r] = detail::as_count(rr.begin, "a rank's first row");
  }
  return c;
}

// This rank's rows as a C-contiguous host array.
loom::Array local_host(const Runtime& rt, const DistArray& a) {
  loom::Array h = rt.to_host(a.local());
  return h.is_c_contiguous() ? h : h.copy();
}

}  // namespace

// ---- scatter ----

DistArray scatter(const Runtime& rt, const Comm& comm, const loom::Array& global,
                  const Placement& pl) {
  const std::string what = "loom::dist::scatter";
  std::string target;
  agree_on_call(
      comm, what,
      [&] {
        check_root(comm, pl.root, what.c_str());
        target = detail::resolve(rt, pl.target);
        return "root " + std::to_string(pl.root);
      },
      "every rank must pass the same root");
  loom::Array src;
  std::vector<std::int64_t> header(2 + 32, 0);  // dtype, ndim, dims
  agree(comm, what, [&] {
    if (comm.rank() != pl.root) return;
    if (!global.valid())
      throw ValueError(what + ": the root's array is empty (default-constructed)");
    if (global.ndim() == 0 || global.ndim() > 32) {
      throw DistributionError(what +
                              ": a distributed array needs an axis 0 to split and at most "
                              "32 dims; the root's array is " +
                              global.str());
    }
    src = rt.to_host(global);
    if (!src.is_c_contiguous()) src = src.copy();
    header[0] = static_cast<std::int64_t>(global.dtype());
    header[1] = global.ndim();
    for (int k = 0; k < global.ndim(); ++k) header[2 + k] = global.shape()[k];
  });
  MPI_Request r;
  check(MPI_Ibcast(header.data(), static_cast<int>(header.size()), MPI_INT64_T, pl.root, comm.get(),
                   &r),
        "MPI_Ibcast");
  detail::wait_one(comm, r, what);
  const DType dtype = static_cast<DType>(header[0]);
  Shape shape;
  for (int k = 0; k < header[1]; ++k) shape.push_back(header[2 + k]);
  const Rows mine = block_rows(shape[0], comm.size(), comm.rank());
  loom::Array rows = loom::empty(detail::with_rows(shape, mine.size()), dtype);
  const std::int64_t rb = row_bytes(shape, dtype);
  agree(comm, what, [&] {
    if (rb == 0) return;
    const Counts c = counts_of(shape[0], comm.size());
    const detail::RowType row(rb);
    MPI_Request rq;
    check(MPI_Iscatterv(src.valid() ? src.data() : nullptr, c.counts.data(), c.displs.data(),
                        row.get(), rows.data(), c.counts[comm.rank()], row.get(), pl.root,
                        comm.get(), &rq),
          "MPI_Iscatterv");
    detail::wait_one(comm, rq, what);
  });
  loom::Array shard;
  agree(comm, what, [&] { shard = detail::contiguous(rt, rt.to_device(rows, target)); });
  return detail::make(comm, shape, dtype, target, shard);
}

// ---- gather, allgather ----

namespace {
loom::Array gather_impl(const Runtime& rt, const DistArray& a, int root, bool all) {
  const std::string what = all ? "loom::dist::allgather" : "loom::dist::gather";
  const Comm& comm = a.comm();
  loom::Array mine;
  agree_on_call(
      comm, what,
      [&] {
        if (!all) check_root(comm, root, what.c_str());
        mine = local_host(rt, a);
        return detail::describe(a) + (all ? "" : " to root " + std::to_string(root));
      },
      "every rank must gather the same array to the same root");
  const bool receives = all || comm.rank() == root;
  loom::Array out = receives ? loom::empty(a.shape(), a.dtype()) : loom::Array();
  const std::int64_t rb = row_bytes(a.shape(), a.dtype());
  if (rb == 0) return out;
  agree(comm, what, [&] {
    const Counts c = counts_of(a.shape()[0], comm.size());
    const detail::RowType row(rb);
    MPI_Request r;
    const int n = c.counts[comm.rank()];
    if (all) {
      check(MPI_Iallgatherv(mine.data(), n, row.get(), out.data(), c.counts.data(), c.displs.data(),
                            row.get(), comm.get(), &r),
            "MPI_Iallgatherv");
    } else {
      check(MPI_Igatherv(mine.data(), n, row.get(), receives ? out.data() : nullptr,
                         c.counts.data(), c.displs.data(), row.get(), root, comm.get(), &r),
            "MPI_Igatherv");
    }
    detail::wait_one(comm, r, what);
  });
  return out;
}
}  // namespace

loom::Array gather(const Runtime& rt, const DistArray& a, int root) {
  return gather_impl(rt, a, root, false);
}
loom::Array allgather(const Runtime& rt, const DistArray& a) { return gather_impl(rt, a, 0, true); }

// ---- from_local, zeros ----

DistArray from_local(const Runtime& rt, const Comm& comm, const loom::Array& local,
                     const std::string& target) {
  const std::string what = "loom::dist::from_local";
  std::string t;
  loom::Array shard;
  agree(comm, what, [&] {
    if (!local.valid())
      throw ValueError(what + ": this rank's array is empty (default-constructed)");
    if (local.ndim() == 0) {
      throw DistributionError(what + ": a shard needs an axis 0 to split; this rank's is " +
                              local.str());
    }
    t = target.empty() && !local.device().is_host() ? local.device().str()
                                                    : detail::resolve(rt, target);
    shard = detail::contiguous(rt, rt.to_device(local, t));
  });
  // Rows and the rest of the shape, from every rank.
  Shape rest = local.shape();
  rest[0] = 0;
  // Led by the call's name, as agree_on_call's descriptions, so that another loom::dist call met
  // here is told apart.
  const auto all = detail::allgather_strings(
      comm,
      what + ": " + detail::describe(local.dtype(), rest) + "|" + std::to_string(local.shape()[0]),
      what);
  std::vector<std::int64_t> counts;
  std::int64_t n = 0;
  const std::string prefix = what + ": ";
  for (int i = 0; i < comm.size(); ++i) {
    const auto bar = all[i].rfind('|');
    if (all[i].rfind(prefix, 0) != 0 || bar == std::string::npos) {
      throw DistributionError(what + ": the ranks disagree on the call: rank " +
                              std::to_string(comm.rank()) + " makes from_local, rank " +
                              std::to_string(i) + " " + all[i] +
                              "; make the same calls in the same order on every rank");
    }
  }
  auto shape_part = [&](const std::string& d) {
    return d.substr(prefix.size(), d.rfind('|') - prefix.size());
  };
  for (int i = 0; i < comm.size(); ++i) {
    const auto bar = all[i].rfind('|');
    if (shape_part(all[i]) != shape_part(all[0])) {
      throw DistributionError(
          what + ": the shards' dtypes or shapes beyond axis 0 differ: rank 0 has " +
          shape_part(all[0]) + ", rank " + std::to_string(i) + " has " + shape_part(all[i]) +
          " (axis 0 shown as 0); every rank's shard must have the same "
          "dtype and the same dims after axis 0");
    }
    counts.push_back(std::stoll(all[i].substr(bar + 1)));
    n += counts.back();
  }
  for (int i = 0; i < comm.size(); ++i) {
    if (counts[i] != block_rows(n, comm.size(), i).size()) {
      std::string got, want;
      for (int j = 0; j < comm.size(); ++j) {
        const char* sep = j ? ", " : "";  // appended alone: GCC 12 warns on "" + string here
        got.append(sep).append(std::to_string(counts[j]));
        want.append(sep).append(std::to_string(block_rows(n, comm.size(), j).size()));
      }
      throw DistributionError(what + ": the ranks hold " + got + " rows, but the block split of " +
                              std::to_string(n) + " rows over " + std::to_string(comm.size()) +
                              " ranks is " + want +
                              "; size each rank's shard with "
                              "loom::dist::block_rows(n, ranks, rank), or build the array on "
                              "one rank and scatter it");
    }
  }
  Shape global = local.shape();
  global[0] = n;
  return detail::make(comm, global, local.dtype(), t, shard);
}

DistArray zeros(const Runtime& rt, const Comm& comm, Shape global_shape, DType dtype,
                const std::string& target) {
  const std::string what = "loom::dist::zeros";
  std::string t;
  agree_on_call(
      comm, what,
      [&] {
        if (global_shape.empty()) {
          throw DistributionError(what +
                                  ": a distributed array needs an axis 0 to split; got "
                                  "shape ()");
        }
        t = detail::resolve(rt, target);
        return detail::describe(dtype, global_shape);
      },
      "every rank must ask for the same global shape and dtype");
  loom::Array shard;
  agree(comm, what, [&] {
    shard =
        rt.zeros(detail::with_rows(global_shape,
                                   block_rows(global_shape[0], comm.size(), comm.rank()).size()),
                 dtype, t);
  });
  return detail::make(comm, global_shape, dtype, t, shard);
}

}  // namespace loom::dist
