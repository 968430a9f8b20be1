// infinictsRefCudaStream (include/infinicts_ref/runtime_internal.h): the CUDA stream behind
// an InfiniRT stream, for the operators and collectives that launch on it.
#include "cuda/runtime.h"
#include "infinicts_ref/runtime_internal.h"
#include "runtime/routing.h"

__INFINI_C infiniStatus_t infinictsRefCudaStream(infinirtStream_t stream, void **cuda_stream) {
  if (cuda_stream == nullptr) return INFINI_STATUS_NULL_POINTER;
  infinicts::ref::DeviceRuntime *runtime = nullptr;
  infiniStatus_t status = infinicts::ref::RouteStream(stream, &runtime, &stream);
  if (status != INFINI_STATUS_SUCCESS) return status;
  if (runtime->Type() != INFINI_DEVICE_NVIDIA) return INFINI_STATUS_BAD_PARAM;
  std::optional<infinicts::ref::cuda::StreamHandle> found = infinicts::ref::cuda::Instance().FindStream(stream);
  if (!found) return INFINI_STATUS_BAD_PARAM;
  *cuda_stream = found->stream;
  return INFINI_STATUS_SUCCESS;
}
