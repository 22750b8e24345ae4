// docs/multi-gpu.md's program: one call over every GPU of the machine (a device set). Built and
// run by the tests on the test backend "multidev" (three host devices): device_set multidev:all.
#include <cstdio>
#include <loom/loom.hpp>
#include <string>

int main(int argc, char** argv) {
  loom::Runtime rt;
  const std::string set = argc > 1 ? argv[1] : "cuda:all";
  const loom::Array x = loom::linspace(0.0, 1.0, 1 << 20);
  // Each device takes a block of rows, all at once; z is a host array, bit for bit the result
  // of one device.
  const loom::Array z = rt.ufunc("sinexp")(x, x, {.target = set});
  const loom::Array one = rt.ufunc("sinexp")(x, x, {.target = rt.device_targets(set)[0]});
  // The devices' partial sums, combined on the host in device order.
  const double s = rt.reduce("sum")(z, {.target = set}).item<double>();
  for (const std::string& t : rt.device_targets(set)) std::printf("%s ", t.c_str());
  const bool same = rt.reduce("all")(rt.ufunc("equal")(z, one)).item<bool>();
  std::printf("\nsame as one device: %s, sum %.6f\n", same ? "yes" : "no", s);

  // A chain of calls on arrays kept on the devices: copied there once, each device on its rows.
  const loom::ShardedArray xs = rt.to_devices(x, set);  // rows split over the devices
  const loom::ShardedArray zs = rt.ufunc("sinexp")(xs, xs);
  const loom::ShardedArray ws = rt.ufunc("multiply")(zs, 2.0);  // a scalar goes to every device
  const double total = rt.reduce("sum")(ws).item<double>();     // partials combined on the host
  const loom::Array w = rt.to_host(ws);                         // the rows gathered
  std::printf("sharded: %d shards, sum %.6f, w[7] == 2 z[7]: %s\n", xs.count(), total,
              w.at<double>(7) == 2.0 * z.at<double>(7) ? "yes" : "no");

  // A kernel (the seeds' Jacobi sweep) on the set: its grid split by rows of blocks, each device
  // on a copy of the arguments; the elements each device changed are written back.
  const loom::Array g = loom::linspace(0.0, 1.0, 384 * 512).reshape({384, 512});
  loom::Array on_set = loom::zeros({384, 512}), on_one = loom::zeros({384, 512});
  rt.kernel("jacobi_2d").launch({.size = {512, 384}, .target = set}, g, on_set);
  rt.kernel("jacobi_2d")
      .launch({.size = {512, 384}, .target = rt.device_targets(set)[0]}, g, on_one);
  const bool ksame = rt.reduce("all")(rt.ufunc("equal")(on_set, on_one)).item<bool>();
  std::printf("kernel: same as one device: %s\n", ksame ? "yes" : "no");
  return 0;
}
