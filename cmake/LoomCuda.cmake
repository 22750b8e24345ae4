# CMake 3.25 does not know nvcc's C++20 flag, and loom::loom's cxx_std_20 makes every CUDA target
# ask for the CUDA20 dialect; tell CMake how (included after enable_language(CUDA)).
set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
