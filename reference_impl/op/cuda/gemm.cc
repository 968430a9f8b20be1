// Gemm on cuBLAS, one call arranged by gemm_layout.h. F16/BF16 and F32 accumulate in F32
// (cublasGemm*Ex with CUBLAS_COMPUTE_32F, alpha and beta as float), F64 in F64.
#include <algorithm>
#include <cstdint>

#include "cuda/cublas_handles.h"
#include "cuda/gemm.h"
#include "cuda/gemm_layout.h"
#include "cuda/gemm_scale.h"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

// cuBLAS takes an int batch count; larger batches go in slices.
constexpr size_t kMaxBatchSlice = 65535;

struct CublasTypes {
  cudaDataType_t data;
  cublasComputeType_t compute;
  size_t element_size;
};

bool TypesOf(infiniDtype_t dtype, CublasTypes *types) {
  switch (dtype) {
    case INFINI_DTYPE_F16: *types = {CUDA_R_16F, CUBLAS_COMPUTE_32F, 2}; return true;
    case INFINI_DTYPE_BF16: *types = {CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2}; return true;
    case INFINI_DTYPE_F32: *types = {CUDA_R_32F, CUBLAS_COMPUTE_32F, 4}; return true;
    case INFINI_DTYPE_F64: *types = {CUDA_R_64F, CUBLAS_COMPUTE_64F, 8}; return true;
    default: return false;
  }
}

const void *Offset(const void *base, int64_t elements, size_t element_size) {
  return static_cast<const char *>(base) + elements * static_cast<int64_t>(element_size);
}

void *Offset(void *base, int64_t elements, size_t element_size) {
  return static_cast<char *>(base) + elements * static_cast<int64_t>(element_size);
}

infiniStatus_t RunCublas(cublasHandle_t handle, const GemmProblem &p, const CublasTypes &types, void *c,
                         const void *a, const void *b, const void *alpha, const void *beta) {
  const ColumnMajorCall layout = Arrange(p);
  const size_t size = types.element_size;
  const struct {
    cublasOperation_t op_first, op_second;
    const void *first_data, *second_data;
  } call = {layout.transpose_first ? CUBLAS_OP_T : CUBLAS_OP_N, layout.transpose_second ? CUBLAS_OP_T : CUBLAS_OP_N,
            layout.swapped ? b : a, layout.swapped ? a : b};
  const bool strided = layout.first.batch_stride >= 0 && layout.second.batch_stride >= 0 && p.c.batch_stride >= 0;
  if (strided) {
    for (size_t begin = 0; begin < p.batch; begin += kMaxBatchSlice) {
      const int count = static_cast<int>(std::min(kMaxBatchSlice, p.batch - begin));
      const int64_t i = static_cast<int64_t>(begin);
      INFINIOP_RETURN_IF_ERROR(CublasToStatus(cublasGemmStridedBatchedEx(
          handle, call.op_first, call.op_second, layout.rows, layout.cols, layout.depth, alpha,
          Offset(call.first_data, i * layout.first.batch_stride, size), types.data, layout.first.ld,
          layout.first.batch_stride, Offset(call.second_data, i * layout.second.batch_stride, size), types.data,
          layout.second.ld, layout.second.batch_stride, beta, Offset(c, i * p.c.batch_stride, size), types.data, p.c.ld,
          p.c.batch_stride, count, types.compute, CUBLAS_GEMM_DEFAULT)));
    }
    return INFINI_STATUS_SUCCESS;
  }
  // A negative batch stride (free for A and B): one call per batch.
  for (size_t batch = 0; batch < p.batch; ++batch) {
    const int64_t i = static_cast<int64_t>(batch);
    INFINIOP_RETURN_IF_ERROR(CublasToStatus(cublasGemmEx(
        handle, call.op_first, call.op_second, layout.rows, layout.cols, layout.depth, alpha,
        Offset(call.first_data, i * layout.first.batch_stride, size), types.data, layout.first.ld,
        Offset(call.second_data, i * layout.second.batch_stride, size), types.data, layout.second.ld, beta,
        Offset(c, i * p.c.batch_stride, size), types.data, p.c.ld, types.compute, CUBLAS_GEMM_DEFAULT)));
  }
  return INFINI_STATUS_SUCCESS;
}

}  // namespace

infiniStatus_t Gemm(const InfiniopDescriptor &desc, const GemmProblem &problem, void *c, const void *a,
                    const void *b, float alpha, float beta, void *workspace, void *stream) {
  LaunchScope scope(desc, stream);
  INFINIOP_RETURN_IF_ERROR(scope.status());
  CublasTypes types;
  if (!TypesOf(problem.dtype, &types)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  if (problem.batch == 0 || problem.m == 0 || problem.n == 0) return INFINI_STATUS_SUCCESS;
  if (problem.k == 0) {
    LaunchGemmScale(problem, c, beta, scope.stream());
    return scope.Finish();
  }
  CublasLease lease(scope.device(), scope.stream(), workspace, kCublasWorkspaceBytes);
  INFINIOP_RETURN_IF_ERROR(lease.status());
  if (problem.dtype == INFINI_DTYPE_F64) {
    const double alpha64 = alpha, beta64 = beta;
    return RunCublas(lease.handle(), problem, types, c, a, b, &alpha64, &beta64);
  }
  return RunCublas(lease.handle(), problem, types, c, a, b, &alpha, &beta);
}

}  // namespace infinicts::ref::op::cuda
