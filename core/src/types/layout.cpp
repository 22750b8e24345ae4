// Parses gufunc layouts "(n,m),(m)->(n)" into NumPy's core-dimension tables and prints them back.
#include "loom/layout.hpp"

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "loom/error.hpp"

namespace loom {
namespace {

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Recursive descent over layout := args "->" args; args := arg ("," arg)*;
// arg := "(" [dim ("," dim)*] ")"; dim := name ["=min(" name ("," name)+ ")"] | size. Error
// positions are where the parser stood after the last token it accepted (before skipping
// whitespace).
class LayoutReader {
 public:
  explicit LayoutReader(std::string_view s) : s_(s) {}

  Layout read() {
    layout_.nin = read_args("input");
    input_dims_ = layout_.dim_names.size();
    if (!(peek() == '-' && pos_after_space() + 1 < s_.size() && s_[pos_after_space() + 1] == '>'))
      fail("',' or '->'");
    skip_space();
    pos_ += 2;
    layout_.nout = read_args("output");
    if (peek() != '\0') fail("',' or end of layout");
    return std::move(layout_);
  }

 private:
  std::size_t pos_after_space() const {
    std::size_t p = pos_;
    while (p < s_.size() && std::isspace(static_cast<unsigned char>(s_[p]))) ++p;
    return p;
  }
  // The next non-space character, or '\0' at the end; does not consume it.
  char peek() const {
    const std::size_t p = pos_after_space();
    return p < s_.size() ? s_[p] : '\0';
  }
  void skip_space() { pos_ = pos_after_space(); }
  void take() {
    skip_space();
    ++pos_;
  }

  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, "expected " + what); }
  [[noreturn]] void fail_at(std::size_t at, const std::string& msg,
                            const std::string& detail = "") const {
    throw ParseError(msg + " at position " + std::to_string(at) + " in layout '" + std::string(s_) +
                     "'" + detail);
  }
  // One or more arguments separated by commas; returns how many.
  int read_args(const char* role) {
    int count = 0;
    do {
      if (count > 0) take();  // the ','
      if (peek() != '(') fail("'(' starting an " + std::string(role) + " argument");
      take();
      read_arg();
      ++count;
    } while (peek() == ',');
    return count;
  }

  // The dims of one argument, after its '(' up to and including its ')'.
  void read_arg() {
    layout_.core_offsets.push_back(static_cast<int>(layout_.core_dim_ixs.size()));
    int ndims = 0;
    if (peek() != ')') {
      do {
        if (ndims > 0) take();  // the ','
        layout_.core_dim_ixs.push_back(read_dim());
        ++ndims;
      } while (peek() == ',');
    }
    if (peek() != ')') fail(ndims ? "',' or ')'" : "a dimension name, a size or ')'");
    take();
    layout_.core_num_dims.push_back(ndims);
  }

  // A name or a fixed size, with an optional '?' right after it; returns its index in dim_names,
  // adding it on first appearance.
  int read_dim() {
    const char c = peek();
    if (!is_name_start(c) && !is_digit(c)) fail("a dimension name or size");
    skip_space();
    const std::size_t start = pos_;
    std::string key;
    std::int64_t size = -1;
    if (is_name_start(c)) {
      while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
      key = std::string(s_.substr(start, pos_ - start));
    } else {
      size = 0;
      constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
      while (pos_ < s_.size() && is_digit(s_[pos_])) {
        const int d = s_[pos_] - '0';
        if (size > (kMax - d) / 10) fail_at(start, "fixed dimension size too large");
        size = size * 10 + d;
        ++pos_;
      }
      if (size == 0) fail_at(start, "fixed dimension size must be > 0, got 0");
      key = std::to_string(size);  // canonical digits: "03" and "3" are one entry
    }
    const std::size_t mark = pos_;
    const bool flexible = pos_ < s_.size() && s_[pos_] == '?';
    if (flexible) ++pos_;
    for (std::size_t i = 0; i < layout_.dim_names.size(); ++i) {
      if (layout_.dim_names[i] != key) continue;
      // NumPy's rule: a name is flexible everywhere or nowhere (drops must agree on every operand).
      if (static_cast<bool>(layout_.dim_flexible[i]) != flexible) {
        fail_at(mark,
                "dimension '" + key + "' is " + (flexible ? "not " : "") +
                    "marked '?' where it first appears but " + (flexible ? "is" : "not") + " here",
                "; mark every use of it with '?' or none");
      }
      return static_cast<int>(i);
    }
    layout_.dim_names.push_back(std::move(key));
    layout_.dim_sizes.push_back(size);
    layout_.dim_flexible.push_back(flexible ? 1 : 0);
    layout_.dim_min_of.emplace_back();
    const int ix = static_cast<int>(layout_.dim_names.size() - 1);
    if (peek() == '=') layout_.dim_min_of[ix] = read_min_rule(start, size >= 0 || flexible);
    return ix;
  }

  // "=min(m,n)" after a new output dimension's name: the input dims it is the smallest of.
  std::vector<int> read_min_rule(std::size_t dim_start, bool not_plain) {
    if (in_inputs() || not_plain) {
      fail_at(dim_start, "a '=min(...)' rule needs a plain name in an output");
    }
    take();  // '='
    skip_space();
    if (s_.substr(pos_, 4) != "min(") fail("'min(' after '='");
    pos_ += 4;
    std::vector<int> of;
    do {
      if (!of.empty()) take();  // the ','
      if (!is_name_start(peek())) fail("an input dimension name");
      skip_space();
      const std::size_t start = pos_;
      while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
      const std::string_view name = s_.substr(start, pos_ - start);
      int found = -1;
      for (std::size_t i = 0; i < input_dims_; ++i) {
        if (layout_.dim_names[i] == name) found = static_cast<int>(i);
      }
      if (found < 0 || layout_.dim_sizes[found] >= 0 || layout_.dim_flexible[found]) {
        fail_at(start, "'" + std::string(name) + "' is not a named dimension of the inputs");
      }
      of.push_back(found);
    } while (peek() == ',');
    if (peek() != ')') fail("',' or ')'");
    take();
    return of;
  }
  bool in_inputs() const { return layout_.nin == 0; }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::size_t input_dims_ = 0;  // how many of dim_names the inputs named
  Layout layout_;
};

}  // namespace

Layout Layout::parse(std::string_view s) { return LayoutReader(s).read(); }

std::string Layout::str() const {
  std::string out;
  std::vector<char> seen(dim_names.size(), 0);
  for (int a = 0; a < nargs(); ++a) {
    out += a == nin ? "->" : (a > 0 ? "," : "");
    out += '(';
    for (int d = 0; d < core_num_dims[a]; ++d) {
      if (d) out += ',';
      const int ix = core_dim_ixs[core_offsets[a] + d];
      out += dim_names[ix];
      if (dim_flexible[ix]) out += '?';
      if (!seen[ix] && ix < static_cast<int>(dim_min_of.size()) && !dim_min_of[ix].empty()) {
        out += "=min(";
        for (std::size_t i = 0; i < dim_min_of[ix].size(); ++i) {
          out += (i ? "," : "") + dim_names[dim_min_of[ix][i]];
        }
        out += ')';
      }
      seen[ix] = 1;
    }
    out += ')';
  }
  return out;
}

bool Layout::has_flexible() const {
  for (char f : dim_flexible) {
    if (f) return true;
  }
  return false;
}

}  // namespace loom
