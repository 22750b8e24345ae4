// def::reduce<F, Sigs...>(reg, name, traits, doc): a reduction from a binary functor. The fold
// loops are methods.hpp's: pairwise for reorderable ops (the same bits on every run and machine),
// strictly left to right otherwise.
#pragma once
#include <cstring>
#include <optional>
#include <string>

#include "loom/def/ufunc.hpp"

namespace loom::def {

// traits: def::identity(0) / 0.0 (reorderable, with an identity), def::reorderable (max, min) or
// nothing / std::nullopt (folds strictly in order, one axis at a time), as NumPy's ufuncs declare.
template <class F, class... Sigs>
void reduce(Registrar& reg, std::string name, ReduceTraits traits, std::string doc) {
  reg.add(reduce_desc<F, Sigs...>(std::move(name), traits, std::move(doc),
                                  [traits](LoopImpl* impl, auto s) {
                                    using S = typename decltype(s)::type;
                                    auto& host = impl[static_cast<int>(Family::host)];
                                    host.host = detail::loop_of<F, S>::value;
                                    host.data = detail::instance<F>();
                                    detail::set_methods<F, S>(host, traits.reorderable);
                                  }));
}

}  // namespace loom::def
