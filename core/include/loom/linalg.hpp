// numpy.linalg's functions over the linalg plugin's gufuncs: the same calls on any target, where
// inv, solve and cholesky raise LinAlgError for a failing instance instead of returning NaN.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "loom/array.hpp"
#include "loom/error.hpp"
#include "loom/runtime.hpp"
#include "loom/stream.hpp"

namespace loom {

// A checked call below whose matrix has no answer: singular for inv and solve, not positive
// definite for cholesky, no singular values for svdvals. A ValueError, and declared with the calls
// that raise it, as numpy.linalg.LinAlgError is.
class LinAlgError : public ValueError {
 public:
  LinAlgError(const std::string& what, std::vector<std::int64_t> batch_index)
      : ValueError(what), batch_index_(std::move(batch_index)) {}
  // The first failing instance (C order) as an index over the batch dims; empty for one matrix.
  const std::vector<std::int64_t>& batch_index() const { return batch_index_; }

 private:
  std::vector<std::int64_t> batch_index_;
};

}  // namespace loom

namespace loom::linalg {

struct Options {
  std::string target{};  // "" = the runtime's default; device arrays need their device's target
  Stream stream{};       // device targets: the stream the call and its check queue on
};

// Each call runs the gufunc of the same name (docs/linalg.md) on the whole batch. The checked ones
// then look for NaN in the result with the math plugin's isnan and any on the same target and, on
// device arrays, read back one bool (the call returns after the device finished). Where an
// instance's result is NaN and its input holds no NaN or Inf (NaN passed through, not a failure,
// as LAPACK's getrf/potrf report it to NumPy) they throw LinAlgError naming the first such batch
// index; svdvals throws for any NaN result, as NumPy's svd; the inputs are never written. Needs
// libloom_linalg and libloom_math (LookupError).

// (..., n, n) -> (...): 0 for a singular matrix, as numpy.linalg.det; never throws LinAlgError.
Array det(const Runtime& rt, const Array& a, const Options& o = {});

struct Slogdet {
  Array sign;       // the input's dtype; 0 for a singular matrix
  Array logabsdet;  // real; -inf for a singular matrix
};
Slogdet slogdet(const Runtime& rt, const Array& a, const Options& o = {});

// (..., n, n) -> (..., n, n). LinAlgError "Singular matrix".
Array inv(const Runtime& rt, const Array& a, const Options& o = {});

// a (..., n, n); b (..., n, k), or (n) for one right-hand side (numpy.linalg.solve's rule: b is a
// vector only when b.ndim == 1). LinAlgError "Singular matrix".
Array solve(const Runtime& rt, const Array& a, const Array& b, const Options& o = {});

// (..., n, n) -> lower L with L L^H = a, from a's lower triangle. LinAlgError "Matrix is not
// positive definite".
Array cholesky(const Runtime& rt, const Array& a, const Options& o = {});

struct Eigh {
  Array eigenvalues;   // (..., n), real, ascending
  Array eigenvectors;  // (..., n, n), the columns
};
// Hermitian (lower triangle used, UPLO='L'); NaN where the iteration does not converge, as the
// gufunc (not checked).
Eigh eigh(const Runtime& rt, const Array& a, const Options& o = {});
Array eigvalsh(const Runtime& rt, const Array& a, const Options& o = {});

// (..., m, n) -> (..., min(m, n)), real, descending (numpy.linalg.svd(a, compute_uv=False)).
// LinAlgError "SVD did not converge" where an instance has none: a matrix holding NaN or Inf.
Array svdvals(const Runtime& rt, const Array& a, const Options& o = {});

}  // namespace loom::linalg
