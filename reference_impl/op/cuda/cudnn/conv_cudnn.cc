#include "cuda/cudnn/conv_cudnn.h"

#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

#include "cuda/cudnn/cudnn_handles.h"
#include "cuda/launch.h"

namespace infinicts::ref::op::cuda {
namespace {

// Workspace cuDNN may ask for: an algorithm needing more is passed over.
constexpr size_t kMaxWorkspaceBytes = size_t(256) << 20;

// cuDNN's view of the problem: int dims and strides, a 1-d problem as 2-d with a trailing
// spatial dim of size 1 (cuDNN takes 4-d and 5-d tensors).
struct CudnnShapes {
  std::vector<int> x_dims, x_strides, y_dims, y_strides, w_dims;
  std::vector<int> pads, steps, dilations;
  cudnnTensorFormat_t w_format = CUDNN_TENSOR_NCHW;
};

bool ToInt(int64_t value, int *out) {
  if (value < INT_MIN || value > INT_MAX) return false;
  *out = static_cast<int>(value);
  return true;
}

bool ToInts(const std::vector<int64_t> &values, std::vector<int> *out) {
  out->resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (!ToInt(values[i], &(*out)[i])) return false;
  }
  return true;
}

// Dims and strides as ints, strides positive (a size-1 dim's stride is never used: any
// positive value describes it).
bool DescribeTensor(const std::vector<int64_t> &dims, const std::vector<ptrdiff_t> &strides, std::vector<int> *out_dims,
                    std::vector<int> *out_strides) {
  out_dims->resize(dims.size());
  out_strides->resize(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t stride = dims[d] == 1 && strides[d] <= 0 ? 1 : strides[d];
    if (dims[d] <= 0 || stride <= 0) return false;
    if (!ToInt(dims[d], &(*out_dims)[d]) || !ToInt(stride, &(*out_strides)[d])) return false;
  }
  return true;
}

// Whether `strides` lay `dims` out densely with the dims in `order` (innermost last).
bool DenselyInOrder(const std::vector<int64_t> &dims, const std::vector<ptrdiff_t> &strides,
                    const std::vector<size_t> &order) {
  int64_t expected = 1;
  for (size_t i = order.size(); i-- > 0;) {
    const size_t d = order[i];
    if (dims[d] != 1 && strides[d] != expected) return false;
    expected *= dims[d];
  }
  return true;
}

std::optional<CudnnShapes> Describe(const ConvProblem &p) {
  const size_t n = p.in_size.size();
  if (n == 0 || n > 3) return std::nullopt;
  std::vector<int64_t> x_dims{static_cast<int64_t>(p.batch), static_cast<int64_t>(p.in_channels)};
  std::vector<int64_t> y_dims{static_cast<int64_t>(p.batch), static_cast<int64_t>(p.out_channels)};
  std::vector<int64_t> w_dims{static_cast<int64_t>(p.out_channels), static_cast<int64_t>(p.in_channels)};
  for (size_t d = 0; d < n; ++d) {
    x_dims.push_back(static_cast<int64_t>(p.in_size[d]));
    y_dims.push_back(static_cast<int64_t>(p.out_size[d]));
    w_dims.push_back(static_cast<int64_t>(p.kernel[d]));
  }
  // The weight: packed with the kernel position innermost (NCHW) or the input channel
  // innermost (channels-last, cuDNN's NHWC filter format).
  std::vector<size_t> nchw(n + 2), nhwc{0};
  for (size_t d = 0; d < n + 2; ++d) nchw[d] = d;
  for (size_t d = 2; d < n + 2; ++d) nhwc.push_back(d);
  nhwc.push_back(1);
  CudnnShapes s;
  if (DenselyInOrder(w_dims, p.w_strides, nchw)) {
    s.w_format = CUDNN_TENSOR_NCHW;
  } else if (DenselyInOrder(w_dims, p.w_strides, nhwc)) {
    s.w_format = CUDNN_TENSOR_NHWC;
  } else {
    return std::nullopt;
  }
  std::vector<ptrdiff_t> x_strides = p.x_strides, y_strides = p.y_strides;
  std::vector<int64_t> pads, steps, dilations;
  for (size_t d = 0; d < n; ++d) {
    pads.push_back(static_cast<int64_t>(p.pads[d]));
    steps.push_back(p.steps[d]);
    dilations.push_back(static_cast<int64_t>(p.dilations[d]));
  }
  if (n == 1) {
    x_dims.push_back(1), y_dims.push_back(1), w_dims.push_back(1);
    x_strides.push_back(1), y_strides.push_back(1);
    pads.push_back(0), steps.push_back(1), dilations.push_back(1);
  }
  if (!DescribeTensor(x_dims, x_strides, &s.x_dims, &s.x_strides) ||
      !DescribeTensor(y_dims, y_strides, &s.y_dims, &s.y_strides) || !ToInts(w_dims, &s.w_dims) ||
      !ToInts(pads, &s.pads) || !ToInts(steps, &s.steps) || !ToInts(dilations, &s.dilations)) {
    return std::nullopt;
  }
  return s;
}

bool StorageType(infiniDtype_t dtype, cudnnDataType_t *out) {
  switch (dtype) {
    case INFINI_DTYPE_F16: *out = CUDNN_DATA_HALF; return true;
    case INFINI_DTYPE_BF16: *out = CUDNN_DATA_BFLOAT16; return true;
    case INFINI_DTYPE_F32: *out = CUDNN_DATA_FLOAT; return true;
    case INFINI_DTYPE_F64: *out = CUDNN_DATA_DOUBLE; return true;
    default: return false;
  }
}

bool SumsProducts(cudnnConvolutionFwdAlgo_t algorithm) {
  switch (algorithm) {
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM:
    case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM:
    case CUDNN_CONVOLUTION_FWD_ALGO_GEMM:
    case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::shared_ptr<const CudnnConv> CudnnConv::Plan(int device, const ConvProblem &problem) {
  cudnnDataType_t storage;
  if (!StorageType(problem.dtype, &storage)) return nullptr;
  const std::optional<CudnnShapes> shapes = Describe(problem);
  if (!shapes) return nullptr;
  const CurrentDeviceScope current(device);
  if (current.status() != INFINI_STATUS_SUCCESS) return nullptr;
  CudnnLease lease(device, nullptr);
  if (lease.status() != INFINI_STATUS_SUCCESS) return nullptr;

  std::shared_ptr<CudnnConv> plan(new CudnnConv);
  const bool half = problem.dtype == INFINI_DTYPE_F16 || problem.dtype == INFINI_DTYPE_BF16;
  plan->double_scales_ = problem.dtype == INFINI_DTYPE_F64;
  const CudnnShapes &s = *shapes;
  const int dims = static_cast<int>(s.x_dims.size());
  // F16/BF16 are summed in F32 (cuDNN's pseudo-half configurations), F64 in F64.
  const cudnnDataType_t compute = plan->double_scales_ ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
  // Tensor cores for the half types (they sum in F32); plain FMAs for F32 (no TF32) and F64.
  const cudnnMathType_t math = half ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH;
  if (cudnnCreateTensorDescriptor(&plan->x_) != CUDNN_STATUS_SUCCESS ||
      cudnnCreateTensorDescriptor(&plan->y_) != CUDNN_STATUS_SUCCESS ||
      cudnnCreateFilterDescriptor(&plan->w_) != CUDNN_STATUS_SUCCESS ||
      cudnnCreateConvolutionDescriptor(&plan->conv_) != CUDNN_STATUS_SUCCESS ||
      cudnnSetTensorNdDescriptor(plan->x_, storage, dims, s.x_dims.data(), s.x_strides.data()) !=
          CUDNN_STATUS_SUCCESS ||
      cudnnSetTensorNdDescriptor(plan->y_, storage, dims, s.y_dims.data(), s.y_strides.data()) !=
          CUDNN_STATUS_SUCCESS ||
      cudnnSetFilterNdDescriptor(plan->w_, storage, s.w_format, dims, s.w_dims.data()) != CUDNN_STATUS_SUCCESS ||
      cudnnSetConvolutionNdDescriptor(plan->conv_, dims - 2, s.pads.data(), s.steps.data(), s.dilations.data(),
                                      CUDNN_CROSS_CORRELATION, compute) != CUDNN_STATUS_SUCCESS ||
      cudnnSetConvolutionMathType(plan->conv_, math) != CUDNN_STATUS_SUCCESS) {
    return nullptr;
  }
  // cuDNN must agree on the output size the plan computed.
  std::vector<int> y_dims(dims);
  if (cudnnGetConvolutionNdForwardOutputDim(plan->conv_, plan->x_, plan->w_, dims, y_dims.data()) !=
          CUDNN_STATUS_SUCCESS ||
      y_dims != s.y_dims) {
    return nullptr;
  }
  int most = 0, returned = 0;
  if (cudnnGetConvolutionForwardAlgorithmMaxCount(lease.handle(), &most) != CUDNN_STATUS_SUCCESS || most <= 0) {
    return nullptr;
  }
  // Heuristics only (nothing runs): the fastest expected algorithm of ours that fits.
  std::vector<cudnnConvolutionFwdAlgoPerf_t> ranked(static_cast<size_t>(most));
  if (cudnnGetConvolutionForwardAlgorithm_v7(lease.handle(), plan->x_, plan->w_, plan->conv_, plan->y_, most,
                                             &returned, ranked.data()) != CUDNN_STATUS_SUCCESS) {
    return nullptr;
  }
  for (int i = 0; i < returned; ++i) {
    const cudnnConvolutionFwdAlgoPerf_t &candidate = ranked[static_cast<size_t>(i)];
    if (candidate.status != CUDNN_STATUS_SUCCESS || !SumsProducts(candidate.algo)) continue;
    if (!half && (candidate.mathType == CUDNN_TENSOR_OP_MATH ||
                  candidate.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)) {
      continue;
    }
    // Half types: the math type the heuristic ranked this algorithm with.
    if (half && cudnnSetConvolutionMathType(plan->conv_, candidate.mathType) != CUDNN_STATUS_SUCCESS) continue;
    size_t bytes = 0;
    if (cudnnGetConvolutionForwardWorkspaceSize(lease.handle(), plan->x_, plan->w_, plan->conv_, plan->y_,
                                                candidate.algo, &bytes) != CUDNN_STATUS_SUCCESS ||
        bytes > kMaxWorkspaceBytes) {
      continue;
    }
    plan->algorithm_ = candidate.algo;
    plan->workspace_bytes_ = bytes;
    return plan;
  }
  return nullptr;
}

CudnnConv::~CudnnConv() {
  if (conv_ != nullptr) cudnnDestroyConvolutionDescriptor(conv_);
  if (w_ != nullptr) cudnnDestroyFilterDescriptor(w_);
  if (y_ != nullptr) cudnnDestroyTensorDescriptor(y_);
  if (x_ != nullptr) cudnnDestroyTensorDescriptor(x_);
}

cudnnStatus_t CudnnConv::Run(int device, cudaStream_t stream, void *y, const void *x, const void *w, bool accumulate,
                             void *workspace) const {
  CudnnLease lease(device, stream);
  if (lease.status() != INFINI_STATUS_SUCCESS) return CUDNN_STATUS_INTERNAL_ERROR;
  const double alpha_double = 1.0, beta_double = accumulate ? 1.0 : 0.0;
  const float alpha_float = 1.0f, beta_float = accumulate ? 1.0f : 0.0f;
  const void *alpha = double_scales_ ? static_cast<const void *>(&alpha_double) : &alpha_float;
  const void *beta = double_scales_ ? static_cast<const void *>(&beta_double) : &beta_float;
  return cudnnConvolutionForward(lease.handle(), alpha, x_, x, w_, w, conv_, algorithm_,
                                 workspace_bytes_ == 0 ? nullptr : workspace, workspace_bytes_, beta, y_, y);
}

}  // namespace infinicts::ref::op::cuda
