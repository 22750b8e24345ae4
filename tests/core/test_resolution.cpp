// Tests of type resolution: NumPy's linear search over loops in declaration order, NEP 50 weak
// scalars, the dtype=/signature=/casting= overrides, the no-loop error and the per-op cache.
// resolve_loop is tested on hand-made descriptors; the end-to-end tests call libloom_testops.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "loom/error.hpp"
#include "loom/runtime.hpp"
#include "loom/type_resolution.hpp"

namespace loom {
namespace {

void noop(char**, const std::int64_t*, const std::int64_t*, const void*) {}

OpDesc make_op(const std::vector<std::string>& sigs) {
  OpDesc d;
  d.name = "f";
  for (const auto& s : sigs) {
    Loop l;
    l.sig = Signature::parse(s);
    l.impl[static_cast<int>(Family::host)].host = &noop;
    d.loops.push_back(l);
  }
  d.nin = static_cast<int>(d.loops[0].sig.inputs.size());
  d.nout = static_cast<int>(d.loops[0].sig.outputs.size());
  return d;
}

// [float32(...), float64(...)] as plugins declare them: least to most inclusive.
const OpDesc& float_op() {
  static const OpDesc d = make_op({"float32(float32,float32)", "float64(float64,float64)"});
  return d;
}
const OpDesc& int_op() {
  static const OpDesc d = make_op(
      {"int8(int8,int8)", "int16(int16,int16)", "int32(int32,int32)", "int64(int64,int64)"});
  return d;
}

struct Req {
  std::vector<DType> in;
  std::vector<char> weak = {};
  std::optional<DType> dtype = {};
  std::string signature = {};
  Casting casting = Casting::same_kind;
  Family family = Family::host;
};

int resolve(const OpDesc& op, const Req& q) {
  bool wk[8] = {};
  for (std::size_t i = 0; i < q.weak.size(); ++i) wk[i] = q.weak[i];
  return resolve_loop(op, ResolveRequest{q.family, q.in, std::span<const bool>(wk, q.in.size()),
                                         q.dtype, q.signature, q.casting});
}

constexpr DType f32 = DType::float32, f64 = DType::float64, i8 = DType::int8, i32 = DType::int32;

// logical_and/or/xor: NumPy 2 takes two different input dtypes for their truth through the bool
// loop whatever the casting rule, dtype=bool included; equal dtypes keep their own loop, another
// dtype= resolves as usual.
TEST(Resolution, MixedLogicalInputsTakeTheBoolLoopUnderAnyCasting) {
  OpDesc d = make_op(
      {"bool(bool,bool)", "bool(int8,int8)", "bool(float32,float32)", "bool(float64,float64)"});
  d.kind = OpKind::ufunc;
  for (const char* name : {"logical_and", "logical_or", "logical_xor"}) {
    d.name = name;
    d.cache = std::make_shared<OpDesc::Cache>();
    for (Casting c : {Casting::no, Casting::equiv, Casting::safe, Casting::same_kind}) {
      EXPECT_EQ(resolve(d, {{i8, f64}, {}, {}, {}, c}), 0) << name;
      EXPECT_EQ(resolve(d, {{f32, f64}, {}, {}, {}, c}), 0) << name;
      // dtype=bool is the bool loop's own output: np.logical_xor(uint32, float64, dtype=bool,
      // casting='equiv') is answered (NumPy 2.4 and 2.5).
      EXPECT_EQ(resolve(d, {{i8, f64}, {}, DType::bool_, {}, c}), 0) << name;
    }
    EXPECT_THROW(resolve(d, {{i8, f64}, {}, DType::float64, {}, Casting::no}), TypeError) << name;
    EXPECT_EQ(resolve(d, {{i8, i8}, {}, {}, {}, Casting::no}), 1) << name;
    EXPECT_EQ(resolve(d, {{f32, f32}, {}, {}, {}, Casting::no}), 2) << name;
  }
  d.name = "f";  // any other op: mixed dtypes resolve by safe casts, and casting='no' refuses
  d.cache = std::make_shared<OpDesc::Cache>();
  EXPECT_EQ(resolve(d, {{f32, f64}}), 3);
  EXPECT_THROW(resolve(d, {{i8, f64}, {}, {}, {}, Casting::no}), TypeError);
}

// NumPy's true-divide resolver: divide of bools and integers of any width is float64, not the
// first loop they cast to safely (float16 for int8, float32 for int16); a float input keeps its
// loop (float16 / int8 is float16), dtype= and signature= still choose, and casting='no' refuses
// int8 -> float64 as NumPy does. Other ops keep the first-fit rule.
TEST(Resolution, TrueDivideOfIntegersIsFloat64) {
  OpDesc d = make_op({"float16(float16,float16)", "float32(float32,float32)",
                      "float64(float64,float64)", "complex64(complex64,complex64)"});
  d.kind = OpKind::ufunc;
  const DType b = DType::bool_, u8 = DType::uint8, i16 = DType::int16, u64 = DType::uint64,
              f16 = DType::float16;
  for (const char* name : {"divide", "true_divide"}) {
    d.name = name;
    d.cache = std::make_shared<OpDesc::Cache>();
    for (DType t : {b, i8, u8, i16, i32, u64}) {
      EXPECT_EQ(resolve(d, {{t, t}}), 2) << name << " " << loom::name(t);
    }
    EXPECT_EQ(resolve(d, {{i8, u8}}), 2) << name;
    EXPECT_EQ(resolve(d, {{i8, DType::int64}, {0, 1}}), 2) << name;  // int8 array / 2
    EXPECT_EQ(resolve(d, {{f16, i8}}), 0) << name;
    EXPECT_EQ(resolve(d, {{f16, DType::int64}, {0, 1}}), 0) << name;  // float16 array / 2
    EXPECT_EQ(resolve(d, {{f32, i16}}), 1) << name;
    EXPECT_EQ(resolve(d, {{i8, i8}, {}, f32}), 1) << name;
    EXPECT_EQ(resolve(d, {{i8, i8}, {}, {}, "float16(float16,float16)"}), 0) << name;
    EXPECT_THROW(resolve(d, {{i8, i8}, {}, {}, {}, Casting::no}), TypeError) << name;
  }
  d.name = "multiply";
  d.cache = std::make_shared<OpDesc::Cache>();
  EXPECT_EQ(resolve(d, {{i8, i8}}), 0);
}

// Only Python scalars under casting='no': NumPy's divide(1.0, 5, casting='no') is float64. The
// float scalar takes float64 and the int stays weak, so the first float loop (float16) is not
// taken.
TEST(Resolution, PythonScalarsAloneUnderCastingNoTakeTheDefaultDtype) {
  OpDesc d =
      make_op({"float16(float16,float16)", "float32(float32,float32)", "float64(float64,float64)"});
  d.cache = std::make_shared<OpDesc::Cache>();
  EXPECT_EQ(resolve(d, {{f64, DType::int64}, {1, 1}, {}, {}, Casting::no}), 2);
  EXPECT_EQ(resolve(d, {{f64, f64}, {1, 1}, {}, {}, Casting::no}), 2);
  // 'equiv' takes a Python int into int64 only (np.divide(1.0, 5, casting='equiv'): TypeError).
  EXPECT_THROW(resolve(d, {{f64, DType::int64}, {1, 1}, {}, {}, Casting::equiv}), TypeError);
}

// NumPy 2 casts a Python scalar under casting='equiv' only into its own dtype (int64, float64,
// complex128), although 'no' answers: np.add(int32 x, 3, casting='equiv') is a TypeError. A
// refusal is not cached: the same request is refused again.
TEST(Resolution, WeakScalarsUnderCastingEquivTakeOnlyTheirOwnDtype) {
  const DType i64 = DType::int64;
  for (int round = 0; round < 2; ++round) {
    EXPECT_THROW(resolve(int_op(), {{i32, i32}, {0, 1}, {}, {}, Casting::equiv}), TypeError);
    EXPECT_THROW(resolve(int_op(), {{i32, i32}, {0, 1}, i32, {}, Casting::equiv}), TypeError);
    EXPECT_THROW(resolve(float_op(), {{f32, f64}, {0, 1}, {}, {}, Casting::equiv}), TypeError);
  }
  EXPECT_EQ(resolve(int_op(), {{i32, i32}, {0, 1}, {}, {}, Casting::no}), 2);
  EXPECT_EQ(resolve(int_op(), {{i64, i32}, {0, 1}, {}, {}, Casting::equiv}), 3);
  EXPECT_EQ(resolve(int_op(), {{i32, i32}, {}, {}, {}, Casting::equiv}), 2);  // typed scalar
  EXPECT_EQ(resolve(float_op(), {{f64, f64}, {0, 1}, {}, {}, Casting::equiv}), 1);
  try {
    resolve(int_op(), {{i32, i32}, {0, 1}, {}, {}, Casting::equiv});
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot cast the weak int scalar (input 1"),
              std::string::npos)
        << e.what();
  }
}

// NumPy refuses subtract and negative of bools (its own message), and gcd, lcm, positive and sign
// of bools (no bool loop in the common dtype), although bool casts to int8 safely; a Python int
// with bools is int64, and dtype= or signature= pick an integer loop. Other ops take int8.
TEST(Resolution, BoolInputsOfSubtractAndTheUniformOpsAreRefused) {
  OpDesc d = make_op({"int8(int8,int8)", "int64(int64,int64)"});
  d.kind = OpKind::ufunc;
  const DType b = DType::bool_;
  for (const char* name : {"subtract", "gcd", "lcm"}) {
    d.name = name;
    d.cache = std::make_shared<OpDesc::Cache>();
    EXPECT_THROW(resolve(d, {{b, b}}), TypeError) << name;
    EXPECT_THROW(resolve(d, {{b, b}}), TypeError) << name << ", again";
    EXPECT_THROW(resolve(d, {{b, b}, {1, 1}}), TypeError) << name << "(True, False)";
    EXPECT_EQ(resolve(d, {{b, DType::int32}, {0, 1}}), 1) << name;  // bools - 1: int64
    EXPECT_EQ(resolve(d, {{b, b}, {}, i8}), 0) << name;
    EXPECT_EQ(resolve(d, {{b, b}, {}, {}, "int8(int8,int8)"}), 0) << name;
    EXPECT_EQ(resolve(d, {{b, i8}}), 0) << name;
  }
  d.name = "f";
  d.cache = std::make_shared<OpDesc::Cache>();
  EXPECT_EQ(resolve(d, {{b, b}}), 0);
  OpDesc u = make_op({"int8(int8)", "int64(int64)"});
  u.kind = OpKind::ufunc;
  for (const char* name : {"negative", "positive", "sign"}) {
    u.name = name;
    u.cache = std::make_shared<OpDesc::Cache>();
    EXPECT_THROW(resolve(u, {{b}}), TypeError) << name;
    EXPECT_EQ(resolve(u, {{b}, {}, i8}), 0) << name;
  }
}

TEST(Resolution, Int32InputsPickTheFloat64Loop) { EXPECT_EQ(resolve(float_op(), {{i32, i32}}), 1); }

TEST(Resolution, Int8AndInt16InputsPickTheFloat32Loop) {
  EXPECT_EQ(resolve(float_op(), {{i8, i8}}), 0);
  EXPECT_EQ(resolve(float_op(), {{DType::int16, DType::uint8}}), 0);
}

TEST(Resolution, Float32InputsPickTheFloat32Loop) {
  EXPECT_EQ(resolve(float_op(), {{f32, f32}}), 0);
}

TEST(Resolution, MixedFloat32AndFloat64PickFloat64) {
  EXPECT_EQ(resolve(float_op(), {{f32, f64}}), 1);
  EXPECT_EQ(resolve(float_op(), {{f64, f32}}), 1);
}

TEST(Resolution, FirstFittingLoopInDeclarationOrderWins) {
  const OpDesc wide_first = make_op({"float64(float64,float64)", "float32(float32,float32)"});
  EXPECT_EQ(resolve(wide_first, {{f32, f32}}), 0);
}

TEST(Resolution, WeakDoubleWithFloat32ArrayStaysFloat32) {
  EXPECT_EQ(resolve(float_op(), {{f32, f64}, {0, 1}}), 0);
}

TEST(Resolution, WeakIntWithFloat32ArrayStaysFloat32) {
  EXPECT_EQ(resolve(float_op(), {{f32, i32}, {0, 1}}), 0);
}

TEST(Resolution, WeakIntWithInt8ArrayStaysInt8) {
  EXPECT_EQ(resolve(int_op(), {{i8, i32}, {0, 1}}), 0);
}

TEST(Resolution, StrongInt32ScalarWithInt8ArrayPromotes) {
  EXPECT_EQ(resolve(int_op(), {{i8, i32}, {0, 0}}), 2);
}

TEST(Resolution, WeakDoubleWithInt8ArrayIsFloat64AsInNumPy) {
  // NEP 50: a Python float meeting an integer array takes the default float dtype.
  EXPECT_EQ(resolve(float_op(), {{i8, f64}, {0, 1}}), 1);
}

TEST(Resolution, WeakIntWithBoolArrayIsInt64AsInNumPy) {
  EXPECT_EQ(resolve(int_op(), {{DType::bool_, i32}, {0, 1}}), 3);
}

// add(2.0, 3.0) and add(2, 3): Python scalars alone take NumPy's defaults, float64 and int64.
TEST(Resolution, AllWeakInputsResolveAsNumPyDefaults) {
  EXPECT_EQ(resolve(float_op(), {{f64, f64}, {1, 1}}), 1);
  EXPECT_EQ(resolve(int_op(), {{i32, i32}, {1, 1}}), 3);
}

TEST(Resolution, DtypeOverridePicksTheLoopWithThatOutput) {
  EXPECT_EQ(resolve(float_op(), {{f32, f32}, {}, f64}), 1);
}

TEST(Resolution, SignatureOverridePicksExactlyThatLoop) {
  EXPECT_EQ(resolve(float_op(), {{f32, f32}, {}, {}, "float64(float64,float64)"}), 1);
}

TEST(Resolution, SignatureOverrideCastsInputsUnderTheCastingRule) {
  const Req same_kind{{f64, f64}, {}, {}, "float32(float32,float32)", Casting::same_kind};
  EXPECT_EQ(resolve(float_op(), same_kind), 0);
  Req unsafe = same_kind;
  unsafe.casting = Casting::unsafe;
  EXPECT_EQ(resolve(float_op(), unsafe), 0);
  Req safe = same_kind;
  safe.casting = Casting::safe;
  EXPECT_THROW(resolve(float_op(), safe), TypeError);
}

TEST(Resolution, CastingNoNeedsExactInputDtypes) {
  EXPECT_EQ(resolve(float_op(), {{f32, f32}, {}, {}, {}, Casting::no}), 0);
  EXPECT_THROW(resolve(float_op(), {{i32, i32}, {}, {}, {}, Casting::no}), TypeError);
  EXPECT_THROW(resolve(float_op(), {{f32, f64}, {}, {}, {}, Casting::no}), TypeError);
}

TEST(Resolution, CastingUnsafeStillMatchesInputsSafelyLikeNumPy) {
  EXPECT_EQ(resolve(float_op(), {{i32, i32}, {}, {}, {}, Casting::unsafe}), 1);
}

TEST(Resolution, NoLoopIsTypeErrorListingInputDtypesAndEverySignature) {
  try {
    resolve(float_op(), {{DType::complex128, f32}});
    FAIL() << "no error";
  } catch (const TypeError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("'f'"), std::string::npos) << m;
    EXPECT_NE(m.find("(complex128, float32)"), std::string::npos) << m;
    EXPECT_NE(m.find("float32(float32,float32)"), std::string::npos) << m;
    EXPECT_NE(m.find("float64(float64,float64)"), std::string::npos) << m;
  }
}

TEST(Resolution, DtypeOverrideWithoutSuchLoopIsTypeErrorNamingIt) {
  try {
    resolve(float_op(), {{f32, f32}, {}, DType::int32});
    FAIL() << "no error";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("output dtype int32"), std::string::npos) << e.what();
  }
}

TEST(Resolution, SignatureOverrideNotAmongTheLoopsIsTypeError) {
  EXPECT_THROW(resolve(float_op(), {{f32, f32}, {}, {}, "int32(int32,int32)"}), TypeError);
}

TEST(Resolution, MalformedSignatureOverrideIsParseError) {
  EXPECT_THROW(resolve(float_op(), {{f32, f32}, {}, {}, "float64(float64,"}), ParseError);
}

TEST(Resolution, FamilyWithoutLoopsIsLookupError) {
  EXPECT_THROW(resolve(float_op(), {{f32, f32}, {}, {}, {}, Casting::same_kind, Family::cuda}),
               LookupError);
}

TEST(ResolutionCache, SameRequestGivesTheSameLoop) {
  const OpDesc op = make_op({"float32(float32,float32)", "float64(float64,float64)"});
  EXPECT_EQ(resolve(op, {{i32, i32}}), 1);
  EXPECT_EQ(resolve(op, {{i32, i32}}), 1);
}

TEST(ResolutionCache, SecondCallIsAnsweredFromTheCache) {
  OpDesc op = make_op({"float32(float32,float32)", "float64(float64,float64)"});
  EXPECT_EQ(resolve(op, {{i32, i32}}), 1);
  // Descriptors are immutable once registered; changing this private copy shows the cache hit.
  op.loops[0].sig = Signature::parse("int32(int32,int32)");
  EXPECT_EQ(resolve(op, {{i32, i32}}), 1);
  EXPECT_EQ(resolve(op, {{i32, i32}, {}, DType::int32}), 0) << "a new request is resolved afresh";
}

TEST(ResolutionCache, KeySeparatesWeakFromStrongScalars) {
  const OpDesc op = make_op({"int8(int8,int8)", "int32(int32,int32)"});
  EXPECT_EQ(resolve(op, {{i8, i32}, {0, 1}}), 0);
  EXPECT_EQ(resolve(op, {{i8, i32}, {0, 0}}), 1);
  EXPECT_EQ(resolve(op, {{i8, i32}, {0, 1}}), 0);
}

TEST(ResolutionCache, KeySeparatesOverrides) {
  const OpDesc op = make_op({"float32(float32,float32)", "float64(float64,float64)"});
  EXPECT_EQ(resolve(op, {{f32, f32}}), 0);
  EXPECT_EQ(resolve(op, {{f32, f32}, {}, f64}), 1);
  EXPECT_EQ(resolve(op, {{f32, f32}, {}, {}, "float64(float64,float64)"}), 1);
  EXPECT_THROW(resolve(op, {{f32, f32}, {}, {}, {}, Casting::no, Family::cuda}), LookupError);
  EXPECT_EQ(resolve(op, {{f32, f32}}), 0);
}

// ---- end to end through a Runtime and libloom_testops ----

Runtime& rt() {
  static Runtime r(RuntimeOptions{.plugin_path = {LOOM_TEST_SERIAL_DIR, LOOM_TEST_GOOD_DIR},
                                  .use_default_path = false});
  return r;
}

TEST(ResolutionCall, Int32ArraysRunTheFloat64Loop) {
  Array r = rt().ufunc("t_add")(array({1, 2}), array({10, 20}));
  EXPECT_EQ(r.dtype(), DType::float64);
  EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{11, 22}));
}

TEST(ResolutionCall, Float32ArrayTimesWeakDoubleStaysFloat32) {
  Array r = rt().ufunc("t_add")(array({1.5f, 2.5f}), 0.25);
  EXPECT_EQ(r.dtype(), DType::float32);
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{1.75f, 2.75f}));
}

TEST(ResolutionCall, Float32WithFloat64ArrayIsFloat64) {
  EXPECT_EQ(rt().ufunc("t_add")(array({1.0f}), array({1.0})).dtype(), DType::float64);
}

TEST(ResolutionCall, Int8ArrayPlusWeakIntStaysInt8AndWraps) {
  Array r = rt().ufunc("t_iadd")(array<std::int8_t>({100, 1}), 100);
  EXPECT_EQ(r.dtype(), DType::int8);
  EXPECT_EQ(r.to_vector<int>(), (std::vector<int>{-56, 101}));
}

TEST(ResolutionCall, DtypeAndSignatureOptionsChooseTheLoop) {
  const Ufunc add = rt().ufunc("t_add");
  EXPECT_EQ(add(array({1.0f}), array({2.0f}), {.dtype = DType::float64}).dtype(), DType::float64);
  EXPECT_EQ(add(array({1.0}), array({2.0}), {.signature = "float32(float32,float32)"}).dtype(),
            DType::float32);
}

}  // namespace
}  // namespace loom
