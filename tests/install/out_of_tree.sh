#!/usr/bin/env bash
# Installs this build into a fresh prefix and does what docs/plugins.md tells a user to do with
# it: builds every example installed under share/loom/examples against the installed package and
# runs its ctest (a program calling the example's op, with the plugin's folder on
# LOOM_PLUGIN_PATH), then builds an outside program with find_package(loom) and runs it with the
# ufunc example's plugin on LOOM_PLUGIN_PATH.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
config=(-G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)

examples=$prefix/share/loom/examples
for name in ufunc_plugin gufunc_plugin kernel_plugin; do
  [[ -f $examples/$name/CMakeLists.txt ]] || { echo "$name is not installed in $examples"; exit 1; }
done
for dir in "$examples"/*/; do
  name=$(basename "$dir")
  cmake -S "$dir" -B "$work/$name" "${config[@]}" >/dev/null
  cmake --build "$work/$name" >/dev/null
  ctest --test-dir "$work/$name" --no-tests=error --output-on-failure
  # loom_add_plugin (or linking loom::simd) applied loom::simd's flags (the package's LOOM_ARCH,
  # FMA contraction off). A plain program of loom::loom alone (examples/linalg) needs neither.
  grep -q -E 'loom_add_plugin|loom::simd' "$dir/CMakeLists.txt" || continue
  if ! grep -q -- '-ffp-contract=off' "$work/$name/compile_commands.json" ||
     ! grep -q -- "-march=$(sed -n 's/^LOOM_ARCH:STRING=//p' "$build/CMakeCache.txt")" \
       "$work/$name/compile_commands.json"; then
    echo "$name: the plugin was not compiled with loom::simd's flags"
    exit 1
  fi
done
# loom_add_plugin names the library as the loader looks for it, whatever the target's name.
# ... and writes its index beside it with the installed loom-plugin-index (docs/plugins.md, "When
# libraries are opened"), which lists the library's ops.
for f in ufunc_plugin/libloom_example.so gufunc_plugin/libloom_rms.so kernel_plugin/libloom_saxpy.so; do
  [[ -f $work/$f ]] || { echo "loom_add_plugin did not build $f"; exit 1; }
  head -1 "$work/$f.index" 2>/dev/null | grep -q '^loom-plugin-index ' ||
    { echo "loom_add_plugin wrote no index beside $f"; exit 1; }
done
grep -q '^op gufunc rms$' "$work/gufunc_plugin/libloom_rms.so.index" ||
  { echo "the index of libloom_rms.so does not list rms:"; cat "$work/gufunc_plugin/libloom_rms.so.index"; exit 1; }
[[ -x $prefix/bin/loom-plugin-index ]] || { echo "loom-plugin-index is not installed"; exit 1; }
[[ -f $prefix/lib/loom/libloom_math.so.index ]] || { echo "the plugins' indexes are not installed"; exit 1; }
# ... and refuses a name changed after it, which the loader would pass over.
mkdir "$work/renamed"
cp "$src/examples/gufunc_plugin/rms_plugin.cpp" "$work/renamed/"
cat >"$work/renamed/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(renamed CXX)
find_package(loom REQUIRED)
loom_add_plugin(rms SOURCES rms_plugin.cpp)
set_target_properties(rms PROPERTIES OUTPUT_NAME rms)
CMAKE
if cmake -S "$work/renamed" -B "$work/renamed/build" "${config[@]}" >"$work/renamed.log" 2>&1 ||
   ! tr -s ' \n' ' ' <"$work/renamed.log" |  # CMake wraps the message's lines
     grep -q "the library would be named 'librms.so', but loom loads only files named"; then
  echo "loom_add_plugin accepted a library renamed librms.so:"; cat "$work/renamed.log"; exit 1
fi

cmake -S "$src/tests/install/consumer" -B "$work/consumer" "${config[@]}" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" >/dev/null
LOOM_PLUGIN_PATH="$work/ufunc_plugin" "$work/consumer/consumer"
