#include "agree.hpp"

#include <exception>
#include <string>
#include <vector>

#include "loom/dist/error.hpp"
#include "mpi_call.hpp"

namespace loom::dist::detail {

std::vector<std::string> allgather_strings(const Comm& c, const std::string& mine,
                                           const std::string& what) {
  const int p = c.size();
  int len = as_count(static_cast<std::int64_t>(mine.size()), "a description's length");
  std::vector<int> lens(p), displs(p);
  MPI_Request r;
  check(MPI_Iallgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, c.get(), &r), "MPI_Iallgather");
  wait_one(c, r, what);
  std::int64_t total = 0;
  for (int i = 0; i < p; ++i) {
    displs[i] = as_count(total, "the descriptions' total length");
    total += lens[i];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  check(MPI_Iallgatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(),
                        MPI_CHAR, c.get(), &r),
        "MPI_Iallgatherv");
  wait_one(c, r, what);
  std::vector<std::string> out(p);
  for (int i = 0; i < p; ++i) out[i] = all.substr(displs[i], lens[i]);
  return out;
}

namespace {

// The lowest rank whose flag is set, or -1; its message reaches every rank. Collective.
int lowest_failure(const Comm& c, bool failed, std::string& message, const std::string& what) {
  int mine = failed ? c.rank() : c.size(), lowest = 0;
  MPI_Request r;
  check(MPI_Iallreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, c.get(), &r), "MPI_Iallreduce");
  wait_one(c, r, what);
  if (lowest == c.size()) return -1;
  int len =
      c.rank() == lowest ? as_count(static_cast<std::int64_t>(message.size()), "a message") : 0;
  check(MPI_Ibcast(&len, 1, MPI_INT, lowest, c.get(), &r), "MPI_Ibcast");
  wait_one(c, r, what);
  std::string text =
      c.rank() == lowest ? message : std::string(static_cast<std::size_t>(len), '\0');
  check(MPI_Ibcast(text.data(), len, MPI_CHAR, lowest, c.get(), &r), "MPI_Ibcast");
  wait_one(c, r, what);
  message = std::move(text);
  return lowest;
}

}  // namespace

void agree(const Comm& c, const std::string& what, const std::function<void()>& step) {
  std::exception_ptr err;
  std::string message;
  try {
    step();
  } catch (const std::exception& e) {
    err = std::current_exception();
    message = e.what();
  } catch (...) {
    err = std::current_exception();
    message = "an exception that is not a std::exception";
  }
  const int failed = lowest_failure(c, err != nullptr, message, what);
  if (failed < 0) return;
  if (err) std::rethrow_exception(err);
  throw RemoteError(failed, what, message);
}

void agree_on_call(const Comm& c, const std::string& what,
                   const std::function<std::string()>& describe, const std::string& fix) {
  // The call's name goes first, so that ranks making different loom::dist calls at the same point
  // (which start with the same collectives) disagree here instead of mismatching later.
  std::string desc;
  agree(c, what, [&] { desc = what + ": " + describe(); });
  const auto all = allgather_strings(c, desc, what);
  for (int i = 1; i < c.size(); ++i) {
    if (all[i] != all[0]) {
      const auto prefix = what + ": ";
      auto strip = [&](const std::string& d) {  // "Ufunc('sqrt'): sqrt(...)" -> "sqrt(...)"
        return d.rfind(prefix, 0) == 0 ? d.substr(prefix.size()) : d;
      };
      throw DistributionError(what + ": the ranks disagree on the call: rank 0 has " +
                              strip(all[0]) + ", rank " + std::to_string(i) + " has " +
                              strip(all[i]) + "; " + fix);
    }
  }
}

}  // namespace loom::dist::detail
