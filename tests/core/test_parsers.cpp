// Signature and gufunc-layout parsing: round trips, canonical printing, NumPy's tables, errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loom/error.hpp"
#include "loom/layout.hpp"
#include "loom/signature.hpp"

namespace loom {
namespace {

using V = std::vector<int>;
using S = std::vector<std::string>;
using I64 = std::vector<std::int64_t>;

// Checks that parse(text) throws ParseError whose message contains each of the parts.
template <class Parser>
void expect_parse_error(Parser parse, const std::string& text, std::vector<std::string> parts) {
  try {
    parse(text);
    ADD_FAILURE() << "no ParseError for '" << text << "'";
  } catch (const ParseError& e) {
    const std::string msg = e.what();
    parts.push_back("'" + text + "'");
    for (const auto& part : parts) {
      EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
    }
  }
}
void sig_error(const std::string& text, std::vector<std::string> parts) {
  expect_parse_error([](const std::string& t) { Signature::parse(t); }, text, std::move(parts));
}
void layout_error(const std::string& text, std::vector<std::string> parts) {
  expect_parse_error([](const std::string& t) { Layout::parse(t); }, text, std::move(parts));
}

TEST(SignatureParse, SingleOutput) {
  const Signature s = Signature::parse("float32(float32, float32)");
  EXPECT_EQ(s.inputs, (std::vector<DType>{DType::float32, DType::float32}));
  EXPECT_EQ(s.outputs, std::vector<DType>{DType::float32});
  EXPECT_EQ(s.str(), "float32(float32,float32)");
}

TEST(SignatureParse, SeveralOutputs) {
  const Signature s = Signature::parse("(float64,int64)(float64,float64)");
  EXPECT_EQ(s.inputs, (std::vector<DType>{DType::float64, DType::float64}));
  EXPECT_EQ(s.outputs, (std::vector<DType>{DType::float64, DType::int64}));
  EXPECT_EQ(s.str(), "(float64,int64)(float64,float64)");
}

TEST(SignatureParse, ZeroInputsAndWhitespace) {
  EXPECT_EQ(Signature::parse("float64()").str(), "float64()");
  EXPECT_TRUE(Signature::parse("float64()").inputs.empty());
  const Signature s = Signature::parse("  ( int32 , uint8 ) ( complex64 ,float16 )  ");
  EXPECT_EQ(s.str(), "(int32,uint8)(complex64,float16)");
  EXPECT_EQ(Signature::parse(" float64 ( ) ").str(), "float64()");
  // A one-element output tuple is accepted and printed without parentheses.
  EXPECT_EQ(Signature::parse("(int8)(int8)").str(), "int8(int8)");
}

TEST(SignatureParse, RoundTrips) {
  for (const char* text : {"float32(float32,float32)", "(float32,float32)(float32,float32)",
                           "float64()", "int64(int32,uint64,complex128)", "float16(float16)"}) {
    const Signature s = Signature::parse(text);
    EXPECT_EQ(s.str(), text);
    EXPECT_EQ(Signature::parse(s.str()), s);
  }
}

TEST(SignatureParse, Errors) {
  sig_error("float32(float32 float32)", {"expected ',' or ')' at position 15"});
  sig_error("", {"position 0", "output dtype"});
  sig_error("   ", {"position 0"});
  sig_error("(float32,float32)", {"expected '(' starting the input dtypes at position 17"});
  sig_error("(float32)", {"position 9"});
  sig_error("()(float32)", {"empty output tuple", "position 1"});
  sig_error("(float32,)(float32)", {"position 9"});
  sig_error("float32(float32,)", {"dtype name", "position 16"});
  sig_error("float32(,float32)", {"input dtype name or ')'", "position 8"});
  sig_error("float32(float32", {"expected ',' or ')' at position 15"});
  sig_error("float32(float32))", {"end of signature", "position 16"});
  sig_error("float32(float32) x", {"end of signature", "position 16"});
  sig_error("float32", {"'('", "position 7"});
  sig_error("(float32(float32)", {"position 8"});
  sig_error("float32(flaot32)", {"unknown dtype 'flaot32'", "position 8"});
  sig_error("double(float32)", {"unknown dtype 'double'", "position 0"});
  sig_error("float32(float32)(float32)", {"end of signature", "position 16"});
}

TEST(LayoutParse, Matmul) {
  const Layout l = Layout::parse("(m,n),(n,p)->(m,p)");
  EXPECT_EQ(l.nin, 2);
  EXPECT_EQ(l.nout, 1);
  EXPECT_EQ(l.nargs(), 3);
  EXPECT_EQ(l.dim_names, (S{"m", "n", "p"}));
  EXPECT_EQ(l.dim_sizes, (I64{-1, -1, -1}));
  EXPECT_EQ(l.core_num_dims, (V{2, 2, 2}));
  EXPECT_EQ(l.core_offsets, (V{0, 2, 4}));
  EXPECT_EQ(l.core_dim_ixs, (V{0, 1, 1, 2, 0, 2}));
  EXPECT_EQ(l.str(), "(m,n),(n,p)->(m,p)");
}

TEST(LayoutParse, MatVecAndInnerProduct) {
  const Layout mv = Layout::parse("(n,m),(m)->(n)");
  EXPECT_EQ(mv.dim_names, (S{"n", "m"}));
  EXPECT_EQ(mv.core_num_dims, (V{2, 1, 1}));
  EXPECT_EQ(mv.core_offsets, (V{0, 2, 3}));
  EXPECT_EQ(mv.core_dim_ixs, (V{0, 1, 1, 0}));

  const Layout dot = Layout::parse("(n),(n)->()");
  EXPECT_EQ(dot.nin, 2);
  EXPECT_EQ(dot.nout, 1);
  EXPECT_EQ(dot.dim_names, S{"n"});
  EXPECT_EQ(dot.dim_sizes, I64{-1});
  EXPECT_EQ(dot.core_num_dims, (V{1, 1, 0}));
  EXPECT_EQ(dot.core_offsets, (V{0, 1, 2}));
  EXPECT_EQ(dot.core_dim_ixs, (V{0, 0}));
}

TEST(LayoutParse, FixedDims) {
  const Layout cross = Layout::parse("(3),(3)->(3)");
  EXPECT_EQ(cross.dim_names, S{"3"});
  EXPECT_EQ(cross.dim_sizes, I64{3});
  EXPECT_EQ(cross.core_num_dims, (V{1, 1, 1}));
  EXPECT_EQ(cross.core_offsets, (V{0, 1, 2}));
  EXPECT_EQ(cross.core_dim_ixs, (V{0, 0, 0}));
  EXPECT_EQ(cross.str(), "(3),(3)->(3)");

  // Fixed and named dims are separate entries; leading zeros are dropped.
  const Layout mixed = Layout::parse("(n,3),(03,m)->(n,m,12)");
  EXPECT_EQ(mixed.dim_names, (S{"n", "3", "m", "12"}));
  EXPECT_EQ(mixed.dim_sizes, (I64{-1, 3, -1, 12}));
  EXPECT_EQ(mixed.core_dim_ixs, (V{0, 1, 1, 2, 0, 2, 3}));
  EXPECT_EQ(mixed.str(), "(n,3),(3,m)->(n,m,12)");
}

TEST(LayoutParse, ScalarsAndSeveralOutputs) {
  const Layout s = Layout::parse("(),()->()");
  EXPECT_EQ(s.nin, 2);
  EXPECT_EQ(s.nout, 1);
  EXPECT_TRUE(s.dim_names.empty());
  EXPECT_TRUE(s.core_dim_ixs.empty());
  EXPECT_EQ(s.core_num_dims, (V{0, 0, 0}));
  EXPECT_EQ(s.core_offsets, (V{0, 0, 0}));

  const Layout mm = Layout::parse("(n)->(),()");
  EXPECT_EQ(mm.nin, 1);
  EXPECT_EQ(mm.nout, 2);
  EXPECT_EQ(mm.core_num_dims, (V{1, 0, 0}));
  EXPECT_EQ(mm.core_offsets, (V{0, 1, 1}));
  EXPECT_EQ(mm.core_dim_ixs, V{0});
  EXPECT_EQ(mm.str(), "(n)->(),()");
}

TEST(LayoutParse, WhitespaceAndNames) {
  const Layout l = Layout::parse("  ( n_rows , _k2 ) , ( _k2 )  ->  ( n_rows )  ");
  EXPECT_EQ(l.dim_names, (S{"n_rows", "_k2"}));
  EXPECT_EQ(l.core_dim_ixs, (V{0, 1, 1, 0}));
  EXPECT_EQ(l.str(), "(n_rows,_k2),(_k2)->(n_rows)");
  // An output dim that no input has is allowed (it comes from out= at call time).
  EXPECT_EQ(Layout::parse("()->(k)").dim_names, S{"k"});
}

TEST(LayoutParse, RoundTrips) {
  for (const char* text : {"(n,m),(m)->(n)", "(n),(n)->()", "(m,n),(n,p)->(m,p)", "(3),(3)->(3)",
                           "()->()", "(n)->(),()", "(n,3),(n)->(n,3)"}) {
    const Layout l = Layout::parse(text);
    EXPECT_EQ(l.str(), text);
    const Layout again = Layout::parse(l.str());
    EXPECT_EQ(again.dim_names, l.dim_names);
    EXPECT_EQ(again.dim_sizes, l.dim_sizes);
    EXPECT_EQ(again.core_dim_ixs, l.core_dim_ixs);
    EXPECT_EQ(again.core_offsets, l.core_offsets);
    EXPECT_EQ(again.core_num_dims, l.core_num_dims);
  }
}

// NumPy's flexible dims (NEP 20): matmul's layout; a fixed size may be flexible too.
TEST(LayoutParse, FlexibleDims) {
  const Layout l = Layout::parse("(m?,n),(n,p?)->(m?,p?)");
  EXPECT_EQ(l.dim_names, (S{"m", "n", "p"}));
  EXPECT_EQ(l.dim_flexible, (std::vector<char>{1, 0, 1}));
  EXPECT_EQ(l.core_dim_ixs, (std::vector<int>{0, 1, 1, 2, 0, 2}));
  EXPECT_EQ(l.str(), "(m?,n),(n,p?)->(m?,p?)");
  EXPECT_TRUE(l.has_flexible());
  EXPECT_FALSE(Layout::parse("(m,n),(n,p)->(m,p)").has_flexible());
  const Layout f = Layout::parse("(3?)->()");
  EXPECT_EQ(f.dim_sizes, I64{3});
  EXPECT_EQ(f.str(), "(3?)->()");
}

// "k=min(m,n)" where an output dim first appears (np.linalg's reduced qr): the inputs' dims it is
// the smallest of; printed back where it first appears only. Refused on an input's dim, a fixed
// or flexible one, or naming a dim no input has.
TEST(LayoutParse, MinRule) {
  const Layout qr = Layout::parse("(m,n)->(m,k=min(m,n)),(k,n)");
  EXPECT_EQ(qr.dim_names, (S{"m", "n", "k"}));
  EXPECT_EQ(qr.core_dim_ixs, (V{0, 1, 0, 2, 2, 1}));
  ASSERT_EQ(qr.dim_min_of.size(), 3u);
  EXPECT_TRUE(qr.dim_min_of[0].empty());
  EXPECT_EQ(qr.dim_min_of[2], (V{0, 1}));
  EXPECT_EQ(qr.str(), "(m,n)->(m,k=min(m,n)),(k,n)");
  EXPECT_EQ(Layout::parse(qr.str()).dim_min_of, qr.dim_min_of);
  EXPECT_EQ(Layout::parse("(a,b,c) -> ( k = min( c , a ) )").str(), "(a,b,c)->(k=min(c,a))");
  for (const char* bad :
       {"(m,k=min(m))->()", "(m,n)->(k=min(m,p))", "(m,n)->(3=min(m,n))", "(m,n?)->(k=min(m,n))",
        "(m,n)->(k=max(m,n))", "(m,n)->(k=min(m,n)),(k=min(m,n))", "(m,n)->(k=min(m,n)"}) {
    EXPECT_THROW(Layout::parse(bad), ParseError) << bad;
  }
}

TEST(LayoutParse, Errors) {
  layout_error("(n),(n)", {"expected ',' or '->' at position 7"});
  layout_error("(n)-(n)", {"'->'", "position 3"});
  layout_error("->(n)", {"input argument", "position 0"});
  layout_error("", {"input argument", "position 0"});
  layout_error("(n)->", {"output argument", "position 5"});
  layout_error("(n)->  ", {"output argument", "position 5"});
  layout_error("(n,m->(n)", {"expected ',' or ')' at position 4"});
  layout_error("(n))->(n)", {"position 3"});
  layout_error("n)->(n)", {"position 0"});
  layout_error("(n)->(n", {"expected ',' or ')' at position 7"});
  layout_error("(n,)->()", {"dimension name or size", "position 3"});
  layout_error("(,n)->()", {"position 1"});
  layout_error("(n),->()", {"input argument", "position 4"});
  layout_error("(n)->(),", {"output argument", "position 8"});
  layout_error("(n)->(n)x", {"end of layout", "position 8"});
  layout_error("(n m)->()", {"expected ',' or ')' at position 2"});
  layout_error("(3n)->()", {"position 2"});
  layout_error("(n-1)->()", {"position 2"});
  layout_error("(0)->()", {"must be > 0", "position 1"});
  layout_error("(99999999999999999999)->()", {"too large", "position 1"});
  // NumPy's rules for '?': right after the dim, on every use of its name or none.
  layout_error("(n?)->(n)", {"dimension 'n' is marked '?' where it first appears but not here",
                             "position 8", "mark every use of it with '?' or none"});
  layout_error(
      "(n),(n?)->()",
      {"dimension 'n' is not marked '?' where it first appears but is here", "position 6"});
  layout_error("(n),(?)->(n)", {"dimension name or size", "position 5"});
  layout_error("(n ?)->()", {"expected ',' or ')' at position 2"});
}

}  // namespace
}  // namespace loom
