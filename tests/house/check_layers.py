#!/usr/bin/env python3
"""The include rule of core/src (core/src/README.md): a file includes its own layer and those below.

Reads every file under core/src/<layer>/ and each `#include "x/y.hpp"` that names a layer folder;
prints every include that points to a higher layer, or a private header outside any layer, and
exits 1 if there is one."""
import pathlib
import re
import sys

ORDER = ["types", "ops", "kernels", "plugins", "runtime", "calls"]  # bottom up


def main(src: pathlib.Path) -> int:
    folders = sorted(p.name for p in src.iterdir() if p.is_dir())
    if folders != sorted(ORDER):
        print(f"core/src has folders {folders}; the layers are {ORDER}: update ORDER and README.md")
        return 1
    bad = []
    for layer in ORDER:
        for f in sorted((src / layer).iterdir()):
            for n, line in enumerate(f.read_text().splitlines(), 1):
                m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                if not m or m.group(1).startswith("loom/"):
                    continue
                target = m.group(1).split("/")[0]
                if target not in ORDER:
                    bad.append(f"{f.relative_to(src)}:{n}: {m.group(1)} is not in a layer folder")
                elif ORDER.index(target) > ORDER.index(layer):
                    bad.append(f"{f.relative_to(src)}:{n}: {layer}/ includes {m.group(1)}, "
                               f"a higher layer")
    for b in bad:
        print(b)
    print(f"check_layers: {len(bad)} include(s) break the rule")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "core/src")))
