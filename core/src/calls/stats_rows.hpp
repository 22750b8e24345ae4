// loom::stats's shared machinery (core/src/calls/stats*.cpp): the input laid out as C-contiguous
// rows (kept axes, then reduced axes), the stats plugin's row kernels over them, and where the
// result goes. stats.cpp has the moments and arg reductions, stats_counts.cpp the weighted and
// binned counts.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loom/runtime.hpp"
#include "loom/stats.hpp"

namespace loom::stats::detail {

// Chunk shape of the row kernels: k elements a thread, at most kThreads threads a block. The
// block size follows from the row length alone, so the association order (and the bits) does too.
constexpr std::int64_t kPerThread = 16;
constexpr std::int64_t kPerThreadDevice = 256;
constexpr std::int64_t kThreads = 256;
constexpr std::int64_t kMaxBlocks = std::int64_t{1} << 20;  // block-stride loops past this
// Private bins per block in shared memory (uint32): 48 KiB, every GPU's default limit.
constexpr std::int64_t kSharedBins = 12288;

// Flags of the stats plugin's kernels (plugins/stats/kernels.hpp).
constexpr std::int32_t kSkipNan = 1, kMasked = 2, kCenter = 4;
constexpr std::int32_t kArgMin = 1, kArgSkipNan = 2;

bool is_float(DType t);
bool is_int(DType t);
bool is_complex(DType t);

// The target a call runs on: the one given, else where a device array is, else the default.
std::string target_of(const Runtime& rt, const Array& a, const std::string& target);
bool device_target(const std::string& target);
// `a` where the kernels of `target` read it (copied once, not once per launch).
Array on_target(const Runtime& rt, const Array& a, const std::string& target);
// A C-contiguous copy of `a` in the same memory (a itself when it is one), of dtype `dt`.
Array contiguous(const Runtime& rt, const Array& a, DType dt, const std::string& target);
// The result back where the input was.
Array home(const Runtime& rt, const Array& input, const Array& r);
// Which axes `axis` reduces (NumPy's rules: duplicates and out-of-range axes refused).
std::vector<bool> reduced_axes(const std::string& who, int nd, const Axes& axis);

// The input as rows: (R, N) with the kept axes first (R their product) and the reduced ones
// last (N theirs).
struct Layout {
  Shape shape;  // the result's shape (keepdims as asked)
  std::int64_t R = 1, N = 1;
  std::vector<int> perm;
};
Layout layout_of(const Array& a, const std::vector<bool>& red, bool keepdims);
// `a` as (R, N) C-contiguous rows of dtype `dt` where the kernels of `target` read it.
Array rows_of(const Runtime& rt, const Array& a, const Layout& l, DType dt,
              const std::string& target);
void check_out(const std::string& who, const std::optional<Array>& out, DType dt,
               const Shape& shape);
// A new array for the (R,) results on the target.
Array fresh(const Runtime& rt, std::int64_t n, DType dt, const std::string& target);
// The (R,) result written where it goes: into out= (any strides, any memory), else reshaped.
Array deliver(const Runtime& rt, const Array& input, const Array& flat, const Shape& shape,
              const std::optional<Array>& out);

struct Chunking {
  std::int64_t threads, chunks, k;  // k: elements a thread
};
// Threads a block and chunks a row for rows of length n; `fold` for the partials of a fold.
Chunking chunking(std::int64_t n, const std::string& target, bool fold = false);
LaunchConfig block_launch(std::int64_t blocks, const Chunking& c, std::size_t item,
                          const std::string& target);

// What finish() will make of a row's sum and count (what < 0: nothing).
struct Finishing {
  double ddof = 0;
  std::int32_t what = -1;  // 0 the mean, 1 the variance, 2 the standard deviation, 3 the sum
};
struct Sums {
  Array sum, count;  // (R,) of the accumulator's dtype and int64, on the target
  Finishing f;
  std::optional<Array> done;  // (R,) finished in the accumulator's dtype by the last fold
};
// Per row of `rows` (R, N): the sum (in acc) and count of the kept elements; the last fold also
// finishes them as `f` asks when it can (saving finish()'s launch).
Sums row_sums(const Runtime& rt, const Array& rows, DType acc, std::int32_t flags,
              const Array& mask, const Array& center, const std::string& target, Finishing f = {});
// out(r) of dtype dt from sum and count as s.f says.
Array finish(const Runtime& rt, const Sums& s, DType dt, const std::string& target);

}  // namespace loom::stats::detail
