// README.md's "Arrays": typed access, printing, fill, and one program for every target (host
// targets: to_device copies as cuda does, to_host gives a host array). Run: loom_example_arrays [target].
#include <iostream>
#include <loom/loom.hpp>
#include <string>
#include <vector>

// Written once; runs on "cpu", "parallel" and "cuda" alike.
loom::Array twice_plus(loom::Runtime& rt, const loom::Array& x, const std::string& target) {
  auto dx = rt.to_device(x, target);  // on cpu / parallel: a host copy, as on cuda
  auto dy = rt.ufunc("multiply")(dx, 2.0, {.target = target});
  return rt.to_host(rt.ufunc("add")(dx, dy, {.target = target}));
}

int main(int argc, char** argv) {
  loom::Runtime rt;
  const std::string target = argc > 1 ? argv[1] : rt.default_target();

  auto a = loom::from_vector(std::vector<double>{1, 2, 3, 4}, {2, 2});
  std::cout << a << "\n";                                           // [[1. 2.]
                                                                    //  [3. 4.]]
  std::cout << loom::repr(a.astype(loom::DType::float32)) << "\n";  // array([[1., 2.], ...
  a.at<double>(0, -1) = 20;                       // checked; negative indices count from the end
  double* p = a.data<double>();                   // checked dtype: data<float>() is a TypeError
  loom::View<double, 2> v = a.view<double, 2>();  // the kernel View over the same memory
  v(1, 0) = p[0] + 10;
  std::cout << loom::format(a) << "\n";                  // [[ 1. 20.]
                                                         //  [11.  4.]]
  std::cout << a.transpose().is_f_contiguous() << "\n";  // 1

  auto b = loom::empty({3}, loom::DType::int32);
  b.fill(7);
  std::cout << b << " " << loom::arange(2000)
            << "\n";  // [7 7 7] [   0    1    2 ... 1997 1998 1999]

  std::cout << twice_plus(rt, loom::arange(0.0, 4.0), target) << "\n";  // [0. 3. 6. 9.]
  const loom::TransferCounts t = rt.transfer_counts(target);            // all 0 on a host target
  std::cout << "to device: " << t.host_to_device_bytes << " bytes\n";
}
