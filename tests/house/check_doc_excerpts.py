#!/usr/bin/env python3
"""A page's C++ snippets are excerpts of files the build compiles (docs/porting.md).

Every ```cpp block of the page, split at whole-line `// ...` markers, must be a run of consecutive
lines (trailing blanks ignored) of one source file under plugins/, examples/ or apps/ of the tree,
so that the page shows code that compiles and runs. Prints each piece found nowhere and exits 1 if
there is one.
   check_doc_excerpts.py <page.md> <tree root>"""
import pathlib
import re
import sys


def blocks(text):
    found, cur, start = [], None, 0
    for n, line in enumerate(text.splitlines(), 1):
        if cur is None and line.strip() == "```cpp":
            cur, start = [], n + 1
        elif cur is not None and line.strip() == "```":
            found.append((start, cur))
            cur = None
        elif cur is not None:
            cur.append(line.rstrip())
    return found


def pieces(lines):
    cur = []
    for line in lines:
        if line.strip() == "// ...":
            if cur:
                yield cur
            cur = []
        else:
            cur.append(line)
    if cur:
        yield cur


def contains(hay, piece):
    k = len(piece)
    return any(hay[i:i + k] == piece for i in range(len(hay) - k + 1) if hay[i] == piece[0])


def main(page: pathlib.Path, root: pathlib.Path) -> int:
    sources = []
    for top in ("plugins", "examples", "apps"):
        for f in sorted((root / top).rglob("*")):
            if f.suffix in (".hpp", ".cpp", ".cu", ".cuh") and f.is_file():
                sources.append((f, [l.rstrip() for l in f.read_text().splitlines()]))
    bad = 0
    for start, lines in blocks(page.read_text()):
        for piece in pieces(lines):
            if not any(contains(text, piece) for _, text in sources):
                print(f"{page.name}:{start}: a snippet is not in any source file:\n  " +
                      "\n  ".join(piece[:3]))
                bad += 1
    if bad:
        print(f"{bad} snippet(s) of {page.name} are not excerpts of compiled files")
        return 1
    print(f"every C++ snippet of {page.name} is an excerpt of a compiled file")
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])))
