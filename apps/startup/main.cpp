// loom-startup: what starting loom costs a small program (docs/benchmarks.md, "Start-up"): the
// time `loom::Runtime rt;` takes, then one host call (`sin` on 1000 float32 by default), and the
// process's peak resident memory (VmHWM), with the plugin libraries it opened. Run it several
// times and take the best: the first run pays for reading the libraries from disk. --calls N then
// times N one-element calls of the op, in this state (the cuda family still closed): the
// per-call price of opening libraries lazily.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>

#include "loom/loom.hpp"

namespace {

long status_kb(const char* key) {
  std::ifstream f("/proc/self/status");
  std::string l;
  while (std::getline(f, l)) {
    if (l.rfind(key, 0) == 0) return std::atol(l.c_str() + std::strlen(key));
  }
  return -1;
}

// The libloom_*.so files mapped into the process: the plugin libraries opened so far.
std::set<std::string> opened_plugins() {
  std::ifstream f("/proc/self/maps");
  std::set<std::string> out;
  std::string l;
  while (std::getline(f, l)) {
    const auto p = l.find("/libloom_");
    if (p != std::string::npos) out.insert(l.substr(p + 1));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const char* op = "sin";
  std::string target;
  long calls = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--op" && i + 1 < argc) {
      op = argv[++i];
    } else if (a == "--target" && i + 1 < argc) {
      target = argv[++i];
    } else if (a == "--calls" && i + 1 < argc) {
      calls = std::atol(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: loom-startup [--op NAME] [--target TARGET]\n"
                   "  times loom::Runtime's constructor and one call of a unary ufunc\n"
                   "  (sin) on 1000 float32, and prints the peak resident memory\n");
      return 2;
    }
  }
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  loom::Runtime rt;
  const auto t1 = clock::now();
  const auto after_ctor = opened_plugins();
  const loom::Array x = loom::full({1000}, 0.5f);
  const loom::Array y = rt.ufunc(op)(x, {.target = target});
  const auto t2 = clock::now();
  const auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
  std::printf("ctor %.2f ms, first %s call %.2f ms, VmHWM %ld kB, VmRSS %ld kB\n", ms(t1 - t0), op,
              ms(t2 - t1), status_kb("VmHWM:"), status_kb("VmRSS:"));
  std::printf("plugin libraries opened by the constructor: %zu\n", after_ctor.size());
  const auto after_call = opened_plugins();
  std::printf("after the call: %zu:", after_call.size());
  for (const auto& p : after_call) std::printf(" %s", p.c_str());
  std::printf("\n");
  if (calls > 0) {
    const loom::Ufunc f = rt.ufunc(op);
    const loom::Array one = loom::full({1}, 0.5f);
    double best = 1e300;
    for (int round = 0; round < 5; ++round) {
      const auto c0 = clock::now();
      for (long i = 0; i < calls; ++i) (void)f(one, {.target = target});
      best = std::min(best, std::chrono::duration<double, std::nano>(clock::now() - c0).count() /
                                static_cast<double>(calls));
    }
    std::printf("one-element %s call: %.0f ns (best of 5 rounds of %ld)\n", op, best, calls);
  }
  return y.size() == 1000 ? 0 : 1;
}
