// loom-plugin-index <libloom_x.so> <libloom_x.so.index>: writes a plugin library's index, what it
// provides (its name, family, backend and collectives targets, op and kernel names), so that the
// runtime opens the library only when one of those is first used (docs/plugins.md, "When
// libraries are opened"). loom_add_plugin runs it after each link. The library is loaded as the
// runtime loads it (trust and file checks, ABI version, register_ops); a library the runtime
// would refuse on its own is an error here, so that a broken plugin fails its build.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "plugins/plugin_index.hpp"
#include "runtime/runtime_impl.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: loom-plugin-index <libloom_x.so> <libloom_x.so.index>\n");
    return 2;
  }
  const std::string lib = argv[1], out = argv[2];
  try {
    const std::string text = loom::format_plugin_index(loom::describe_plugin_library(lib));
    // Written beside and renamed: a reader never sees half an index.
    const std::string tmp = out + ".tmp";
    {
      std::ofstream f(tmp, std::ios::trunc);
      f << text;
      if (!f.flush()) {
        std::fprintf(stderr, "loom-plugin-index: cannot write %s\n", tmp.c_str());
        return 1;
      }
    }
    std::filesystem::rename(tmp, out);
  } catch (const std::exception& e) {
    std::fprintf(stderr,
                 "loom-plugin-index: %s\n(a library loom would refuse gets no index; a test "
                 "plugin broken on purpose is built with loom_add_plugin(... NO_INDEX))\n",
                 e.what());
    return 1;
  }
  return 0;
}
