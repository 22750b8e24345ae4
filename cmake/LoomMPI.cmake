# MPI for loom_dist, by loom's build and by find_package(loom) alike. loom_dist calls MPI's C API
# only, so the MPI-2 C++ bindings are left out: their header by FindMPI's definitions, and Open
# MPI's libmpi_cxx from the link (Open MPI 5 no longer has it, so a loom built against Open MPI 4
# would not load under 5, whose libmpi keeps the C API's soname).
set(MPI_CXX_SKIP_MPICXX ON CACHE BOOL "The MPI-2 C++ bindings are not used by loom_dist")
find_package(MPI COMPONENTS CXX)
if(TARGET MPI::MPI_CXX)
  get_target_property(_loom_mpi_libs MPI::MPI_CXX INTERFACE_LINK_LIBRARIES)
  if(_loom_mpi_libs)
    list(FILTER _loom_mpi_libs EXCLUDE REGEX "libmpi_cxx\\.")
    set_target_properties(MPI::MPI_CXX PROPERTIES INTERFACE_LINK_LIBRARIES "${_loom_mpi_libs}")
  endif()
  unset(_loom_mpi_libs)
endif()
