# CMake 3.25 does not know nvcc's C++20 flag, and loom::loom's cxx_std_20 makes every CUDA target
# ask for the CUDA20 dialect; tell CMake how (included after enable_language(CUDA)).
set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)

# nvcc leaves SASS uncompressed in the fatbinary by default: the math plugin's CUDA half was 88 MB
# for sm_90 (SASS and PTX). Compressed, one of its files went from 8.1 to 2.6 MB (docs/cuda.md,
# "Plugin size"); the driver decompresses a module when it loads it, the kernels are the same.
option(LOOM_CUDA_COMPRESS "Compress all device code in the CUDA plugins' fatbinaries" ON)
if(LOOM_CUDA_COMPRESS)
  add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:-Xfatbin=-compress-all>)
endif()
