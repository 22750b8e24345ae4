// expect: loom::def::ufunc: no operator() of the functor takes this signature's types
// A template parameter that neither the signature's types nor a call can give (U).
#include "loom/def/ufunc.hpp"

struct Cast {
  template <class T, class U>
  T operator()(T x) const {
    return static_cast<T>(static_cast<U>(x));
  }
};

void register_ops(loom::Registrar& reg) { loom::def::ufunc<Cast, float(float)>(reg, "cast", ""); }
