// Names of the descriptor enums and the signature list used in error messages.
#include "loom/op.hpp"

namespace loom {

const char* name(Family f) { return f == Family::host ? "host" : "cuda"; }

const char* name(OpKind k) {
  switch (k) {
    case OpKind::ufunc:
      return "ufunc";
    case OpKind::gufunc:
      return "gufunc";
    case OpKind::reduce:
      return "reduce";
  }
  return "?";
}

bool OpDesc::has_family(Family f) const {
  for (const auto& l : loops) {
    if (l.impl[static_cast<int>(f)].present()) return true;
  }
  return false;
}

bool OpDesc::takes_index() const {
  for (const auto& l : loops) {
    for (const auto& impl : l.impl) {
      if (impl.takes_index) return true;
    }
  }
  return false;
}

std::string OpDesc::signatures() const {
  std::string s;
  for (const auto& l : loops) {
    if (!s.empty()) s += ", ";
    s += l.sig.str();
  }
  return s;
}

}  // namespace loom
