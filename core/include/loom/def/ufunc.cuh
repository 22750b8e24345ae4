// def::ufunc<F, Sigs...>(reg, name, doc), the CUDA twin of ufunc.hpp: one device loop per
// signature, filling the cuda family's slot. The launcher (host code in the plugin) launches a
// kernel on the call's stream: all operands contiguous takes 16-byte vector loads and stores (a
// scalar head and tail around them), a thread per vector over as many blocks as that takes;
// anything else is a grid-stride loop that decomposes the flat index over up to kMaxDims dims.
// The T(T,T) loops also carry the device loops of the reduce, accumulate and at methods
// (methods.cuh). Only ever included by .cu files.
#pragma once
// methods.cuh first: it defines LOOM_DEF_DEVICE_METHODS, which lets ufunc_elementwise.cuh's
// def::ufunc attach the method loops of T(T,T) signatures.
#include "loom/def/methods.cuh"
#include "loom/def/ufunc_elementwise.cuh"
