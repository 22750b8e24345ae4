// Parses and prints loop signatures: "float32(float32,float32)", "(float32,float32)(float32)".
#include "loom/signature.hpp"

#include <cctype>
#include <string>

#include "loom/error.hpp"

namespace loom {
namespace {

// A hand-written recursive-descent reader. Error positions are where the parser stood after the
// last token it accepted (before skipping whitespace), so "float32(float32 float32)" reports 15.
class SignatureReader {
 public:
  explicit SignatureReader(std::string_view s) : s_(s) {}

  Signature read() {
    Signature sig;
    if (peek() == '(') {
      take();
      sig.outputs = read_dtype_list("output dtype name");
      if (sig.outputs.empty()) fail("output dtype name (an empty output tuple is not allowed)");
      expect(')', "',' or ')'");
    } else {
      sig.outputs.push_back(read_dtype("output dtype name or '('"));
    }
    expect('(', "'(' starting the input dtypes");
    sig.inputs = read_dtype_list("input dtype name");
    expect(')', sig.inputs.empty() ? "input dtype name or ')'" : "',' or ')'");
    if (peek() != '\0') fail("end of signature");
    return sig;
  }

 private:
  // The next non-space character, or '\0' at the end; does not consume it.
  char peek() {
    std::size_t p = pos_;
    while (p < s_.size() && std::isspace(static_cast<unsigned char>(s_[p]))) ++p;
    return p < s_.size() ? s_[p] : '\0';
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  void take() {
    skip_space();
    ++pos_;
  }
  void expect(char c, const char* what) {
    if (peek() != c) fail(what);
    take();
  }

  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, "expected " + what); }
  [[noreturn]] void fail_at(std::size_t at, const std::string& msg,
                            const std::string& detail = "") const {
    throw ParseError(msg + " at position " + std::to_string(at) + " in signature '" +
                     std::string(s_) + "'" + detail);
  }

  static bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  }

  DType read_dtype(const char* what) {
    if (!is_name_char(peek())) fail(what);
    skip_space();
    const std::size_t start = pos_;
    while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
    const std::string_view token = s_.substr(start, pos_ - start);
    try {
      return dtype_from_name(token);
    } catch (const ParseError& e) {
      fail_at(start, "unknown dtype '" + std::string(token) + "'", std::string(": ") + e.what());
    }
  }

  // One or more dtypes separated by commas; empty when the next token is not a name.
  std::vector<DType> read_dtype_list(const char* what) {
    std::vector<DType> out;
    if (!is_name_char(peek())) return out;
    out.push_back(read_dtype(what));
    while (peek() == ',') {
      take();
      out.push_back(read_dtype("dtype name after ','"));
    }
    return out;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

void append_list(std::string& out, const std::vector<DType>& types) {
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i) out += ',';
    out += name(types[i]);
  }
}

}  // namespace

Signature Signature::parse(std::string_view s) { return SignatureReader(s).read(); }

std::string Signature::str() const {
  std::string out;
  if (outputs.size() == 1) {
    out += name(outputs[0]);
  } else {
    out += '(';
    append_list(out, outputs);
    out += ')';
  }
  out += '(';
  append_list(out, inputs);
  out += ')';
  return out;
}

}  // namespace loom
