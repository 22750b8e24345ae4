// Fuzz target: a whole ufunc call on the serial backend (ops of the test plugin) with random
// shapes, strided views (slices with steps, transposes, broadcast_to), dtypes and broadcasting,
// against a reference computed element by element here. The only loom::Error allowed is the
// expected one: ShapeError for shapes that do not broadcast, TypeError when no loop fits.
#include <memory>
#include <vector>

#include "fuzz_common.hpp"
#include "loom/runtime.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom::Shape;
using loom::fuzz::fail;

loom::Runtime& runtime() {
  static std::unique_ptr<loom::Runtime> rt = [] {
    auto r = std::make_unique<loom::Runtime>(loom::RuntimeOptions{.use_default_path = false});
    r->load_library(LOOM_FUZZ_SERIAL_LIB);
    r->load_library(LOOM_FUZZ_TESTOPS_LIB);
    return r;
  }();
  return *rt;
}

constexpr DType kTypes[] = {DType::bool_,  DType::int8,    DType::uint8,
                            DType::int16,  DType::int32,   DType::int64,
                            DType::uint64, DType::float32, DType::float64};

double get(const Array& a, const Shape& idx) {  // idx already broadcast to a's ndim
  std::int64_t off = 0;
  for (int k = 0; k < a.ndim(); ++k) off += (a.shape()[k] == 1 ? 0 : idx[k]) * a.strides()[k];
  double v = 0;
  loom::cast_strided(a.data() + off, 0, a.dtype(), reinterpret_cast<char*>(&v), 0, DType::float64,
                     1);
  return v;
}

Array make(loom::fuzz::Bytes& b) {
  Shape shape;
  for (int k = b.pick(5); k > 0; --k) shape.push_back(b.pick(6));
  Array a = loom::empty(shape, kTypes[b.pick(std::size(kTypes))]);
  const int seed = b.u8();
  for (std::int64_t i = 0; i < a.size(); ++i) {
    const std::int64_t v =
        (seed + i * 31) % 61 - (loom::kind(a.dtype()) == loom::Kind::unsigned_int ? 0 : 30);
    const double d = static_cast<double>(a.dtype() == DType::bool_ ? (v & 1) : v);
    loom::cast_strided(reinterpret_cast<const char*>(&d), 0, DType::float64,
                       a.data() + i * a.itemsize(), 0, a.dtype(), 1);
  }
  for (int n = b.pick(3); n > 0 && a.ndim() > 0; --n) {
    const int op = b.pick(3), axis = b.pick(a.ndim());
    if (op == 0) {
      const int steps[] = {1, 2, 3, -1, -2};
      a = a.slice(axis, b.pick(13) - 6, b.pick(13) - 6, steps[b.pick(5)]);
    } else if (op == 1) {
      a = a.transpose();
    } else {
      Shape to;
      if (b.flag()) to.push_back(b.pick(4));
      for (auto d : a.shape()) to.push_back(d == 1 ? b.pick(6) : d);
      a = a.broadcast_to(to);
    }
  }
  return a;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  loom::fuzz::Bytes b(data, size);
  const bool ints = b.flag();
  Array x, y;
  try {
    x = make(b);
    y = make(b);
  } catch (const loom::Error& e) {
    fail(std::string("building a view: ") + e.what());
  }
  // Expected loop: the first that both inputs cast to safely (the ops' loops, in order).
  const std::vector<DType> loops =
      ints ? std::vector{DType::int8, DType::int16, DType::int32, DType::int64}
           : std::vector{DType::float32, DType::float64};
  DType want = DType::bool_;
  bool found = false;
  for (DType t : loops) {
    if (!found && loom::can_cast(x.dtype(), t) && loom::can_cast(y.dtype(), t))
      want = t, found = true;
  }
  // NumPy broadcasting, written out.
  const int nd = std::max(x.ndim(), y.ndim());
  Shape shape(nd, 1);
  bool broadcasts = true;
  for (int k = 0; k < nd; ++k) {
    const std::int64_t dx = k < nd - x.ndim() ? 1 : x.shape()[k - (nd - x.ndim())];
    const std::int64_t dy = k < nd - y.ndim() ? 1 : y.shape()[k - (nd - y.ndim())];
    if (dx != dy && dx != 1 && dy != 1) broadcasts = false;
    shape[k] = dx == 1 ? dy : dx;
  }
  Array z;
  try {
    z = runtime().ufunc(ints ? "t_iadd" : "t_add")(x, y);
  } catch (const loom::TypeError& e) {
    if (found) fail(std::string("unexpected TypeError: ") + e.what());
    return 0;
  } catch (const loom::ShapeError& e) {
    if (broadcasts) fail(std::string("unexpected ShapeError: ") + e.what());
    return 0;
  }
  if (!found || !broadcasts) fail("call succeeded: " + x.str() + " and " + y.str());
  if (z.dtype() != want || z.shape() != shape)
    fail("result " + z.str() + " for " + x.str() + ", " + y.str());
  Shape idx(nd, 0), ix, iy;
  for (std::int64_t i = 0; i < z.size(); ++i) {
    std::int64_t r = i;
    for (int k = nd - 1; k >= 0; --k) idx[k] = r % shape[k], r /= shape[k];
    ix = Shape(idx.end() - x.ndim(), idx.end());
    iy = Shape(idx.end() - y.ndim(), idx.end());
    double ref = get(x, ix) + get(y, iy);
    if (ints) {  // wraps like NumPy's integer add
      const auto s = static_cast<std::int64_t>(ref);
      const int bits = 8 * static_cast<int>(loom::itemsize(want));
      ref = static_cast<double>(bits == 64 ? s : (s << (64 - bits)) >> (64 - bits));
    }
    if (get(z, idx) != ref) {
      fail("element " + std::to_string(i) + " is " + std::to_string(get(z, idx)) + ", want " +
           std::to_string(ref) + ": " + x.str() + " + " + y.str());
    }
  }
  return 0;
}
