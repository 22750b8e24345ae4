// gufunc layouts "(n,m),(m)->(n)" parsed once into NumPy's integer tables (see _parse_signature
// in numpy/_core/src/umath/ufunc_object.c): each argument's core dims index a list of named or
// fixed-size dimensions.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loom {

struct Layout {
  int nin = 0;
  int nout = 0;
  // Distinct core dimensions in order of first appearance. dim_names[i] is the name ("n") or,
  // for a fixed dimension such as "(3)", its digits; dim_sizes[i] is -1 for a named dimension
  // (bound at call time) and the fixed size otherwise.
  std::vector<std::string> dim_names;
  std::vector<std::int64_t> dim_sizes;
  // dim_flexible[i]: NumPy's flexible dimension "n?" (matmul's (m?,n),(n,p?)->(m?,p?)): an
  // operand with too few dimensions may lack it; the call then drops it from every operand's
  // shape and the loop sees it with size 1 (docs/plugins.md, "Optional core dimensions").
  std::vector<char> dim_flexible;
  // dim_min_of[i]: for an output dimension written "k=min(m,n)" where it first appears (np.linalg's
  // reduced qr and svd), the dims whose smallest size it has; the call gives it that size without
  // out= and refuses an out= of another (NumPy 2's process_core_dims_func). Empty: no rule.
  std::vector<std::vector<int>> dim_min_of;
  // core_num_dims[a]: how many core dims argument a has (0 for a scalar "()").
  // core_offsets[a]: where argument a's entries start in core_dim_ixs.
  // core_dim_ixs: for every core dim of every argument, the index into dim_names.
  std::vector<int> core_num_dims;
  std::vector<int> core_offsets;
  std::vector<int> core_dim_ixs;

  // Throws ParseError naming the string, the position and what was expected there. An output
  // dimension that no input has must come from out= at call time (NumPy's rule). A '?' follows
  // a dimension directly and marks every use of that name, as NumPy requires.
  static Layout parse(std::string_view s);
  std::string str() const;  // canonical form "(n,m),(m)->(n)", "(m?,n),(n,p?)->(m?,p?)"
  bool has_flexible() const;
  int nargs() const { return nin + nout; }
};

}  // namespace loom
