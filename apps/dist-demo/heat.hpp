// The demo's stencil: Jacobi steps of the 2-d Laplace (steady heat) equation on a grid
// distributed by rows, with halo rows from the neighbours.
#pragma once
#include <loom/dist/dist.hpp>
#include <loom/loom.hpp>

namespace loom::dist_demo {

using dist::DistArray;

// An n x m grid: the top edge held at 100, the other edges at 0, the inside starting at 0.
DistArray heat_grid(const Runtime& rt, const dist::Comm& comm, std::int64_t n, std::int64_t m,
                    const std::string& target);

// `steps` Jacobi steps: u[i, j] <- (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1]) / 4 inside,
// edges fixed. Each step exchanges one halo row and runs four ufunc calls on each rank's rows;
// every element is computed by the same operations in the same order for any rank count.
DistArray jacobi(const Runtime& rt, DistArray u, int steps);

}  // namespace loom::dist_demo
