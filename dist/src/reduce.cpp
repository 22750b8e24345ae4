// dist::Reduce: reductions over the distributed axis combined in a fixed order, and over the other
// axes locally (loom/dist/reduce.hpp; docs/scale-out.md, "Reductions: what is guaranteed").
#include "loom/dist/reduce.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "agree.hpp"
#include "loom/dist/error.hpp"
#include "mpi_call.hpp"
#include "nccl_combine.hpp"
#include "state.hpp"

namespace loom::dist {

Reduce::Reduce(const Runtime& rt, const std::string& name)
    : rt_(&rt), name_(name), reduce_(rt.reduce(name)) {
  reorderable_ = reduce_->desc().reorderable;
}

Reduce Reduce::method(const Runtime& rt, const std::string& ufunc_name) {
  Reduce r;
  r.rt_ = &rt;
  r.name_ = ufunc_name + ".reduce";
  r.method_ = rt.ufunc(ufunc_name);
  r.reorderable_ = r.method_->desc().reorderable || r.method_->desc().identity.has_value();
  return r;
}

loom::Array Reduce::run(const loom::Array& x, const loom::ReduceOptions& o) const {
  return reduce_ ? (*reduce_)(x, o) : method_->reduce(x, o);
}

std::int64_t block_rows_for(const Shape& shape) {
  const std::int64_t n = shape.empty() ? 0 : shape[0];
  std::int64_t row = 1;
  for (std::size_t k = 1; k < shape.size(); ++k) row *= shape[k];
  // At least 64K elements a block (a loom call per block must pay for itself), at most 256
  // blocks (their partials travel to every rank).
  const std::int64_t by_count = (n + 255) / 256;
  const std::int64_t by_size = row > 0 ? (65536 + row - 1) / row : 1;
  return std::max<std::int64_t>({by_count, by_size, 1});
}

namespace {

struct Plan {
  std::vector<int> axes;  // sorted, non-negative
  bool over_rows = false;
  Order order = Order::blocks;
};

Plan plan_of(const ReduceOptions& o, bool is_method, const DistArray& a, const std::string& what) {
  Plan p;
  const int nd = a.ndim();
  if (!o.axis.given()) {
    if (is_method) {
      p.axes = {0};
    } else {
      for (int k = 0; k < nd; ++k) p.axes.push_back(k);
    }
  } else if (o.axis.all()) {
    for (int k = 0; k < nd; ++k) p.axes.push_back(k);
  } else {
    for (int ax : o.axis.list()) {
      if (ax < -nd || ax >= nd) {
        throw ShapeError(what + ": axis " + std::to_string(ax) + " is out of bounds for " +
                         detail::describe(a) + " (" + std::to_string(nd) + " dims)");
      }
      p.axes.push_back(ax < 0 ? ax + nd : ax);
    }
    std::sort(p.axes.begin(), p.axes.end());
  }
  p.over_rows = !p.axes.empty() && p.axes.front() == 0;
  const Kind k = kind(o.dtype ? *o.dtype : a.dtype());
  const bool exact = k == Kind::boolean || k == Kind::signed_int || k == Kind::unsigned_int;
  p.order = o.order == Order::automatic
                ? (exact || o.combine == Combine::collective ? Order::ranks : Order::blocks)
                : o.order;
  if (o.combine == Combine::collective && p.order != Order::ranks) {
    throw ValueError(what + ": Combine::collective all-reduces one partial a rank, so it needs " +
                     "Order::ranks (or Order::automatic), not Order::blocks");
  }
  return p;
}

std::string axes_str(const std::vector<int>& axes) {
  std::string s = "(";
  for (std::size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + std::to_string(axes[i]);
  return s + (axes.size() == 1 ? ",)" : ")");
}

std::string describe_call(const Runtime& rt, const std::string& op, const DistArray& a,
                          const Plan& p, const ReduceOptions& o) {
  std::string s = op + " of " + detail::describe(a) + " over axes " + axes_str(p.axes);
  s += o.keepdims ? " keepdims" : "";
  s += p.order == Order::blocks ? " in blocks" : " in rank order";
  if (o.dtype) s += " dtype " + std::string(name(*o.dtype));
  s += o.combine == Combine::automatic     ? ""
       : o.combine == Combine::fixed_order ? " combine fixed_order"
                                           : " combine collective";
  // initial= is each rank's own value: compared, as it joins the one result every rank gets.
  s += o.initial.is_none() ? " initial None"
       : o.initial.given() ? " initial" + detail::describe_values(rt, o.initial.value())
                           : "";
  return s;
}

// A partial's bytes behind a header of its dtype and shape, so that ranks holding no rows (which
// computed no partial) can read the others'.
std::string pack(const std::vector<loom::Array>& parts) {
  std::string s;
  if (parts.empty()) return s;
  std::vector<std::int64_t> h{static_cast<std::int64_t>(parts[0].dtype()), parts[0].ndim()};
  for (auto d : parts[0].shape()) h.push_back(d);
  s.append(reinterpret_cast<const char*>(h.data()), h.size() * sizeof(std::int64_t));
  for (const auto& p : parts) {
    s.append(p.data(), static_cast<std::size_t>(p.size()) * p.itemsize());
  }
  return s;
}

// Every rank's partials, in rank order, stacked along axis 0 (each has size 1 there: keepdims).
loom::Array unpack(const std::vector<std::string>& all) {
  const std::string* first = nullptr;
  for (const auto& s : all) {
    if (!s.empty()) {
      first = &s;
      break;
    }
  }
  if (!first) return {};
  std::int64_t h[2];
  std::memcpy(h, first->data(), sizeof h);
  const auto dtype = static_cast<DType>(h[0]);
  const int nd = static_cast<int>(h[1]);
  Shape shape(static_cast<std::size_t>(nd));
  std::memcpy(shape.data(), first->data() + sizeof h, nd * sizeof(std::int64_t));
  const std::size_t header = (2 + nd) * sizeof(std::int64_t);
  const std::size_t part = static_cast<std::size_t>(shape_size(shape)) * itemsize(dtype);
  std::int64_t count = 0;
  for (const auto& s : all) {
    if (!s.empty())
      count += static_cast<std::int64_t>((s.size() - header) / std::max<std::size_t>(part, 1));
  }
  Shape stacked = shape;
  stacked[0] = count;
  loom::Array out = loom::empty(stacked, dtype);
  char* dst = out.data();
  for (const auto& s : all) {
    if (s.empty()) continue;
    std::memcpy(dst, s.data() + header, s.size() - header);
    dst += s.size() - header;
  }
  return out;
}

loom::Array host_contiguous(const Runtime& rt, const loom::Array& a) {
  loom::Array h = rt.to_host(a);
  return h.is_c_contiguous() ? h : h.copy();
}

}  // namespace

loom::Array Reduce::operator()(const DistArray& a, const ReduceOptions& o) const {
  const std::string what = "loom::dist::Reduce('" + name_ + "')";
  const Comm& comm = a.comm();
  Plan p;
  detail::agree_on_call(
      comm, what,
      [&] {
        p = plan_of(o, method_.has_value(), a, what);
        if (!p.over_rows) {
          throw ValueError(what + ": axes " + axes_str(p.axes) +
                           " leave out the distributed "
                           "axis 0, so the result stays distributed; call Reduce::local for it");
        }
        if (!reorderable_) {
          throw ValueError(what + ": '" + name_ +
                           "' is not reorderable, so its reduction folds "
                           "strictly left to right over every row, which ranks holding different "
                           "rows cannot split; gather() the array and reduce it on one rank");
        }
        return describe_call(*rt_, name_, a, p, o);
      },
      "make the same reduction on every rank of arrays with the same global shape");

  const loom::ReduceOptions part_opts{.target = a.target(),
                                      .axis = Axes(p.axes),
                                      .keepdims = true,
                                      .initial = no_initial,
                                      .dtype = o.dtype};
  // Zero elements: nothing to split; every rank reduces its own (empty) rows alike.
  if (a.size() == 0) {
    loom::Array r;
    detail::agree(comm, what, [&] {
      r = host_contiguous(*rt_, run(a.local(), {.target = a.target(),
                                                .axis = Axes(p.axes),
                                                .keepdims = o.keepdims,
                                                .initial = o.initial,
                                                .dtype = o.dtype}));
    });
    return r;
  }

  std::vector<loom::Array> parts;
  if (p.order == Order::ranks) {
    loom::Array part;  // on this rank's device
    detail::agree(comm, what, [&] {
      if (a.rows().size() > 0) part = detail::contiguous(*rt_, run(a.local(), part_opts));
    });
    std::string why_not = "Combine::fixed_order";
    std::optional<detail::DeviceCombine> dc;
    if (o.combine != Combine::fixed_order) {
      const std::string op = reduce_ ? reduce_->desc().name : method_->desc().name;
      dc = detail::device_combine(*rt_, comm, op, a.target(),
                                  part.valid() ? part.dtype() : a.dtype(), part.valid(), what,
                                  &why_not);
    }
    if (!dc && o.combine == Combine::collective) {  // the same decision on every rank
      throw ValueError(what + " with Combine::collective: the GPUs cannot combine the partials (" +
                       why_not + "); use Combine::automatic or Combine::fixed_order");
    }
    if (dc) {
      loom::Array r;
      detail::agree(comm, what, [&] {
        dc->group->all_reduce(part.data(), part.size(), part.dtype(), dc->op, nullptr);
        // The same cpu combine as below, over one row: initial=, keepdims and dtype alike.
        r = run(host_contiguous(*rt_, part), {.target = "cpu",
                                              .axis = Axes(p.axes),
                                              .keepdims = o.keepdims,
                                              .initial = o.initial,
                                              .dtype = o.dtype});
      });
      return r;
    }
    detail::agree(comm, what, [&] {
      if (part.valid()) parts.push_back(host_contiguous(*rt_, part));
    });
  } else {
    // Blocks of B global rows; block b starts on the rank owning row b * B, which receives the
    // rows of that block that later ranks own.
    const std::int64_t n = a.shape()[0], B = block_rows_for(a.shape());
    const int me = comm.rank(), np = comm.size();
    const Rows mine = a.rows();
    const std::int64_t first_block = (mine.begin + B - 1) / B;  // the first block starting here
    const std::int64_t last_block = mine.size() > 0 ? (mine.end - 1) / B : -1;
    const bool owns_blocks = mine.size() > 0 && first_block <= last_block;
    detail::agree(comm, what, [&] {
      const std::int64_t row_bytes =
          static_cast<std::int64_t>(itemsize(a.dtype())) * (a.size() / n);
      const detail::RowType row(row_bytes);
      std::vector<MPI_Request> reqs;
      // Rows before this rank's first block start belong to a block begun on an earlier rank.
      const std::int64_t lead_end = std::min(mine.end, first_block * B);
      loom::Array lead;
      if (mine.size() > 0 && mine.begin % B != 0) {
        lead = host_contiguous(*rt_, a.local().slice(0, 0, lead_end - mine.begin));
        const int to = owner_of_row((mine.begin / B) * B, n, np);
        reqs.emplace_back();
        detail::check(MPI_Isend(lead.data(), detail::as_count(lead.shape()[0], "rows"), row.get(),
                                to, 21, comm.get(), &reqs.back()),
                      "MPI_Isend");
      }
      // The last block starting here may run on into later ranks' rows.
      loom::Array tail;
      if (owns_blocks) {
        const std::int64_t bstart = last_block * B, bend = std::min(n, bstart + B);
        if (bend > mine.end) {
          tail = loom::empty(detail::with_rows(a.shape(), bend - bstart), a.dtype());
          const std::int64_t own = mine.end - bstart;
          const loom::Array own_rows =
              host_contiguous(*rt_, a.local().slice(0, bstart - mine.begin, mine.size()));
          std::memcpy(tail.data(), own_rows.data(), static_cast<std::size_t>(own * row_bytes));
          for (int s = me + 1; s < np; ++s) {
            const Rows rs = block_rows(n, np, s);
            if (rs.size() == 0 || rs.begin >= bend) break;
            const std::int64_t cnt = std::min(rs.end, bend) - rs.begin;
            reqs.emplace_back();
            detail::check(
                MPI_Irecv(tail.slice(0, rs.begin - bstart, rs.begin - bstart + cnt).data(),
                          detail::as_count(cnt, "rows"), row.get(), s, 21, comm.get(),
                          &reqs.back()),
                "MPI_Irecv");
          }
        }
      }
      detail::wait_all(comm, reqs, what);
      if (!owns_blocks) return;
      for (std::int64_t b = first_block; b <= last_block; ++b) {
        const std::int64_t bstart = b * B, bend = std::min(n, bstart + B);
        loom::Array block = bend > mine.end
                                ? rt_->to_device(tail, a.target())
                                : a.local().slice(0, bstart - mine.begin, bend - mine.begin);
        parts.push_back(host_contiguous(*rt_, run(block, part_opts)));
      }
    });
  }
  const loom::Array stacked = unpack(detail::allgather_strings(comm, pack(parts), what));
  loom::Array r;
  detail::agree(comm, what, [&] {
    // On cpu on every rank: the same bits everywhere, whatever the ranks' targets.
    r = run(stacked, {.target = "cpu",
                      .axis = Axes(p.axes),
                      .keepdims = o.keepdims,
                      .initial = o.initial,
                      .dtype = o.dtype});
  });
  return r;
}

DistArray Reduce::local(const DistArray& a, const ReduceOptions& o) const {
  const std::string what = "loom::dist::Reduce('" + name_ + "').local";
  const Comm& comm = a.comm();
  Plan p;
  detail::agree_on_call(
      comm, what,
      [&] {
        p = plan_of(o, method_.has_value(), a, what);
        if (p.over_rows) {
          throw ValueError(what + ": axes " + axes_str(p.axes) +
                           " include the distributed axis "
                           "0, whose reduction combines every rank's rows; call the Reduce "
                           "itself (operator()) for it");
        }
        return describe_call(*rt_, name_, a, p, o);
      },
      "make the same reduction on every rank of arrays with the same global shape");
  loom::Array r;
  detail::agree(comm, what, [&] {
    r = detail::contiguous(*rt_, run(a.local(), {.target = a.target(),
                                                 .axis = Axes(p.axes),
                                                 .keepdims = o.keepdims,
                                                 .initial = o.initial,
                                                 .dtype = o.dtype}));
  });
  return detail::make(comm, detail::with_rows(r.shape(), a.shape()[0]), r.dtype(), a.target(), r);
}

loom::Array blocked_reduce(const Reduce& r, const loom::Array& x, const ReduceOptions& o,
                           const std::string& target) {
  // One process: the blocks a distributed reduction forms, each reduced on `target`, combined on
  // cpu in block order. Kept next to operator() so that the two stay the same computation.
  if (x.ndim() == 0) throw ShapeError("blocked_reduce: needs an axis 0; got " + x.str());
  const int nd = x.ndim();
  std::vector<int> axes;
  if (!o.axis.given() || o.axis.all()) {
    for (int k = 0; k < nd; ++k) axes.push_back(k);
  } else {
    for (int ax : o.axis.list()) axes.push_back(ax < 0 ? ax + nd : ax);
    std::sort(axes.begin(), axes.end());
  }
  if (axes.empty() || axes[0] != 0) {
    throw ValueError("blocked_reduce: the axes must include axis 0");
  }
  const loom::ReduceOptions part{.target = target,
                                 .axis = Axes(axes),
                                 .keepdims = true,
                                 .initial = no_initial,
                                 .dtype = o.dtype};
  if (x.size() == 0) {
    return r.run(x, {.target = target,
                     .axis = Axes(axes),
                     .keepdims = o.keepdims,
                     .initial = o.initial,
                     .dtype = o.dtype});
  }
  const std::int64_t n = x.shape()[0], B = block_rows_for(x.shape());
  std::vector<std::string> packed;
  for (std::int64_t b = 0; b * B < n; ++b) {
    const loom::Array p = r.run(x.slice(0, b * B, std::min(n, b * B + B)), part);
    const loom::Array h = p.device().is_host() ? p : r.rt_->to_host(p);
    packed.push_back(pack({h.is_c_contiguous() ? h : h.copy()}));
  }
  return r.run(unpack(packed), {.target = "cpu",
                                .axis = Axes(axes),
                                .keepdims = o.keepdims,
                                .initial = o.initial,
                                .dtype = o.dtype});
}

}  // namespace loom::dist
