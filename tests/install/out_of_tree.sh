#!/usr/bin/env bash
# Installs this build into a fresh prefix, builds plugins/example out of tree against it and an
# outside program with find_package(loom), and runs the program with the example plugin on
# LOOM_PLUGIN_PATH: what docs/plugins.md tells a user to do.
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/plugins/example" -B "$work/example" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/example" >/dev/null
cmake -S "$src/tests/install/consumer" -B "$work/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" >/dev/null
LOOM_PLUGIN_PATH="$work/example" "$work/consumer/consumer"
