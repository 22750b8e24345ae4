#!/usr/bin/env bash
# docs/scale-out.md shows examples/dist/scale_out.cpp (from its first #include) in its first cpp
# block; the example is built and run by ctest (examples.scale_out), so this check that the two
# are the same text keeps the page's program compiling and doing what it says.
#   doc_program.sh <doc.md> <program.cpp>
set -euo pipefail
doc=$1 program=$2
shown=$(awk '/^```cpp$/ {on = 1; next} on && /^```$/ {exit} on {print}' "$doc")
source=$(sed -n '/^#include/,$p' "$program")
if [ "$shown" != "$source" ]; then
  diff <(echo "$shown") <(echo "$source") || true
  echo "$doc's program is not $program"
  exit 1
fi
echo "$doc shows $program"
