// The public API in one include: arrays, dtypes, the runtime and its calls.
#pragma once
#include "loom/array.hpp"
#include "loom/dtype.hpp"
#include "loom/error.hpp"
#include "loom/layout.hpp"
#include "loom/runtime.hpp"
#include "loom/signature.hpp"
#include "loom/view.hpp"
