// exchange_halo (loom/dist/halo.hpp): neighbours swap boundary rows with point-to-point messages.
#include "loom/dist/halo.hpp"

#include <string>
#include <vector>

#include "agree.hpp"
#include "loom/dist/error.hpp"
#include "mpi_call.hpp"
#include "state.hpp"

namespace loom::dist {

void exchange_halo(const Runtime& rt, const DistArray& a, int width) {
  const std::string what = "loom::dist::exchange_halo";
  const Comm& comm = a.comm();
  const int p = comm.size(), me = comm.rank();
  detail::agree_on_call(
      comm, what,
      [&] {
        if (width < 0) {
          throw ValueError(what + ": width " + std::to_string(width) +
                           " is negative; give the "
                           "number of rows a stencil reads beyond a rank's own (>= 0)");
        }
        for (int r = 0; p > 1 && r < p; ++r) {
          if (a.rows_of(r).size() < width) {
            throw DistributionError(
                what + ": width " + std::to_string(width) + " needs every rank to own at least " +
                std::to_string(width) + " rows, but rank " + std::to_string(r) + " owns " +
                std::to_string(a.rows_of(r).size()) + " of the " + std::to_string(a.shape()[0]) +
                " rows of " + detail::describe(a) + " over " + std::to_string(p) +
                " ranks; use fewer ranks or a narrower halo");
          }
        }
        return detail::describe(a) + " width " + std::to_string(width);
      },
      "every rank must exchange the same width of the same array");
  if (width == 0) return;
  DistArray::State& s = a.state();
  const std::int64_t m = s.rows.size();
  detail::agree(comm, what, [&] {
    if (s.halo < width) {
      // Room for the halos: the owned rows move into new storage (a.local() becomes a view of it).
      loom::Array storage = rt.zeros(detail::with_rows(s.shape, m + 2 * width), s.dtype, s.target);
      rt.copy_to(s.local, storage.slice(0, width, width + m));
      s.storage = storage;
      s.halo = width;
      s.local = storage.slice(0, width, width + m);
    }
  });
  // One rank has no neighbours, but the same layout, so that a stencil reads it alike.
  if (p == 1) return;
  const std::int64_t h = s.halo;
  std::int64_t row_bytes = static_cast<std::int64_t>(itemsize(s.dtype));
  for (std::size_t k = 1; k < s.shape.size(); ++k) row_bytes *= s.shape[k];
  if (row_bytes == 0) return;
  detail::agree(comm, what, [&] {
    const bool host = s.storage.device().is_host();
    // Device storage goes through host buffers (no CUDA-aware MPI assumed).
    auto rows = [&](std::int64_t begin) { return s.storage.slice(0, begin, begin + width); };
    auto staged = [&](std::int64_t begin) { return host ? rows(begin) : rt.to_host(rows(begin)); };
    const loom::Array send_up = staged(h), send_down = staged(h + m - width);
    const loom::Array recv_up = host ? rows(h - width) : loom::empty(rows(0).shape(), s.dtype);
    const loom::Array recv_down = host ? rows(h + m) : loom::empty(rows(0).shape(), s.dtype);
    const detail::RowType row(row_bytes);
    const int up = me > 0 ? me - 1 : MPI_PROC_NULL, down = me < p - 1 ? me + 1 : MPI_PROC_NULL;
    std::vector<MPI_Request> reqs(4);
    detail::check(MPI_Irecv(recv_up.data(), width, row.get(), up, 31, comm.get(), &reqs[0]),
                  "MPI_Irecv");
    detail::check(MPI_Irecv(recv_down.data(), width, row.get(), down, 32, comm.get(), &reqs[1]),
                  "MPI_Irecv");
    detail::check(MPI_Isend(send_up.data(), width, row.get(), up, 32, comm.get(), &reqs[2]),
                  "MPI_Isend");
    detail::check(MPI_Isend(send_down.data(), width, row.get(), down, 31, comm.get(), &reqs[3]),
                  "MPI_Isend");
    detail::wait_all(comm, reqs, what);
    if (!host) {
      if (up != MPI_PROC_NULL) rt.copy_to(recv_up, rows(h - width));
      if (down != MPI_PROC_NULL) rt.copy_to(recv_down, rows(h + m));
    }
  });
}

}  // namespace loom::dist
