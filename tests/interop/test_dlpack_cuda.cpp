// DLPack and ArrayInterface with CUDA memory: foreign device and pinned tensors imported, loom
// device arrays exported, a kernel writing through the other side's pointer. Skips with the cuda
// target's reason where there is no usable GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "device_kernels.hpp"
#include "foreign_tensor.hpp"
#include "loom/array_interface.hpp"
#include "loom/dlpack.hpp"
#include "loom/loom.hpp"

namespace {

using loom::Array;
using loom::DType;
using loom_interop_test::make_foreign;
using loom_interop_test::scale_on_device;

loom::Runtime& rt() {
  static loom::Runtime r;
  return r;
}

// Why the cuda target cannot run here, or empty.
std::string cuda_unavailable() {
  for (const auto& t : rt().targets()) {
    if (t.target == "cuda") return t.available ? "" : t.reason;
  }
  return "no cuda backend on the plugin search path";
}

#define SKIP_WITHOUT_CUDA() \
  if (const std::string why = cuda_unavailable(); !why.empty()) GTEST_SKIP() << "cuda: " << why

TEST(DLPackCuda, ForeignDeviceTensorIsADeviceArrayAndItsDeleterRunsOnce) {
  SKIP_WITHOUT_CUDA();
  float* p = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&p), 6 * sizeof(float)), cudaSuccess);
  const std::vector<float> host = {0, 1, 2, 3, 4, 5};
  ASSERT_EQ(cudaMemcpy(p, host.data(), 6 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  int deleted = 0;
  {
    // Column 1 of a 2x3 C-ordered tensor: strides in elements, byte_offset one float.
    const Array a = loom::from_dlpack(make_foreign<DLManagedTensorVersioned>(
        p, {kDLCUDA, 0}, {kDLFloat, 32, 1}, {2}, {3}, &deleted, 0, sizeof(float)));
    EXPECT_EQ(a.device(), (loom::Device{loom::DeviceKind::cuda, 0}));
    EXPECT_EQ(a.strides(), (loom::Shape{12}));
    EXPECT_EQ(rt().to_host(a).to_vector<float>(), (std::vector<float>{1, 4}));
    // A kernel writing through the array's description writes the foreign memory.
    const loom::ArrayInterface i = loom::interface_of(a);
    ASSERT_EQ(scale_on_device(static_cast<float*>(i.data), 2, i.element_strides()[0], 10.0f),
              cudaSuccess);
    std::vector<float> back(6);
    ASSERT_EQ(cudaMemcpy(back.data(), p, 6 * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(back, (std::vector<float>{0, 10, 2, 3, 40, 5}));
    EXPECT_EQ(deleted, 0);
  }
  EXPECT_EQ(deleted, 1);
  cudaFree(p);
}

TEST(DLPackCuda, LoomDeviceArrayExportsAsKDLCUDAAndAKernelWritesIt) {
  SKIP_WITHOUT_CUDA();
  const Array d = rt().to_device(loom::arange(0.0, 8.0, 1.0, DType::float32), "cuda");
  DLManagedTensorVersioned* m = loom::to_dlpack_versioned(d.slice(0, 0, 8, 2));
  EXPECT_EQ(m->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(m->dl_tensor.device.device_id, d.device().index);
  EXPECT_EQ(m->dl_tensor.strides[0], 2);
  ASSERT_EQ(scale_on_device(static_cast<float*>(m->dl_tensor.data), m->dl_tensor.shape[0],
                            m->dl_tensor.strides[0], -1.0f),
            cudaSuccess);
  m->deleter(m);
  EXPECT_EQ(rt().to_host(d).to_vector<float>(),
            (std::vector<float>{-0.0f, 1, -2, 3, -4, 5, -6, 7}));
}

TEST(DLPackCuda, DeviceRoundTripForEveryDtype) {
  SKIP_WITHOUT_CUDA();
  for (int k = 0; k < loom::kNumDTypes; ++k) {
    const auto t = static_cast<DType>(k);
    SCOPED_TRACE(std::string(loom::name(t)));
    const Array h = loom::arange(0.0, 6.0).astype(t).reshape({2, 3});
    const Array d = rt().to_device(h, "cuda");
    const Array b = loom::from_dlpack(loom::to_dlpack(d));
    EXPECT_EQ(b.data(), d.data());
    EXPECT_EQ(b.device(), d.device());
    EXPECT_EQ(rt().to_host(b).to_vector<double>(), h.to_vector<double>());
  }
}

TEST(DLPackCuda, PinnedTensorIsReadOnTheHost) {
  SKIP_WITHOUT_CUDA();
  float* p = nullptr;
  ASSERT_EQ(cudaMallocHost(reinterpret_cast<void**>(&p), 3 * sizeof(float)), cudaSuccess);
  p[0] = 1, p[1] = 2, p[2] = 3;
  int deleted = 0;
  {
    const Array a = loom::from_dlpack(
        make_foreign<DLManagedTensor>(p, {kDLCUDAHost, 0}, {kDLFloat, 32, 1}, {3}, {}, &deleted));
    EXPECT_TRUE(a.device().is_host());
    EXPECT_EQ(a.to_vector<float>(), (std::vector<float>{1, 2, 3}));
  }
  EXPECT_EQ(deleted, 1);
  cudaFreeHost(p);
}

TEST(ArrayInterfaceCuda, RawDevicePointerWithDeleter) {
  SKIP_WITHOUT_CUDA();
  float* p = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&p), 4 * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMemset(p, 0, 4 * sizeof(float)), cudaSuccess);
  int freed = 0;
  {
    const Array a = loom::from_interface(
        {.data = p, .shape = {4}, .typestr = "<f4", .device = {loom::DeviceKind::cuda, 0}},
        [&](void* q) {
          cudaFree(q);
          ++freed;
        });
    const loom::ArrayInterface i = loom::interface_of(a);
    EXPECT_EQ(i.data, p);
    EXPECT_EQ(i.device, a.device());
    EXPECT_EQ(rt().to_host(a).to_vector<float>(), (std::vector<float>(4, 0.0f)));
  }
  EXPECT_EQ(freed, 1);
}

}  // namespace
