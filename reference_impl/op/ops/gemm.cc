// Gemm: C = alpha * A * B + beta * C, 2-D or batched 3-D; a batch of 1 broadcasts.
// F32 and F64 go straight to OpenBLAS on the caller's layouts. F16 and BF16 are
// converted to F32 tile by tile in the workspace, multiplied by OpenBLAS with F32
// accumulation, and rounded once when written back. beta == 0 never reads C.
#include <algorithm>
#include <climits>
#include <memory>

#include "core/api.h"
#include "core/blas.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/gemm.h"
#endif

namespace infinicts::ref::op {
namespace {

// Tile edges of the F16/BF16 path: large enough for OpenBLAS to run near its peak,
// small enough that the F32 copies stay in cache-sized workspace.
constexpr size_t kTileM = 256;
constexpr size_t kTileN = 256;
constexpr size_t kTileK = 256;

struct GemmOperand {
  ptrdiff_t batch_stride = 0;  // 0 for a matrix shared by every batch
  MatrixLayout matrix;
  BlasMatrix blas;
};

struct GemmPlan {
  infiniDtype_t dtype;
  size_t batch, m, n, k;
  GemmOperand a, b, c;
};

// Reads a 2-D or 3-D tensor as (batch, rows, cols).
infiniStatus_t ReadOperand(const TensorLayout &t, size_t *batch, GemmOperand *operand) {
  if (t.ndim() != 2 && t.ndim() != 3) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  const size_t first = t.ndim() - 2;
  *batch = t.ndim() == 3 ? t.shape[0] : 1;
  operand->batch_stride = (t.ndim() == 3 && t.shape[0] > 1) ? t.strides[0] : 0;
  operand->matrix = {t.shape[first], t.shape[first + 1], t.strides[first], t.strides[first + 1]};
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t MakeGemmPlan(const TensorLayout &c, const TensorLayout &a, const TensorLayout &b, GemmPlan *plan) {
  if (!IsFloatDtype(c.dtype) || a.dtype != c.dtype || b.dtype != c.dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  size_t batch_c = 0, batch_a = 0, batch_b = 0;
  INFINIOP_RETURN_IF_ERROR(ReadOperand(c, &batch_c, &plan->c));
  INFINIOP_RETURN_IF_ERROR(ReadOperand(a, &batch_a, &plan->a));
  INFINIOP_RETURN_IF_ERROR(ReadOperand(b, &batch_b, &plan->b));
  plan->dtype = c.dtype;
  plan->batch = batch_c;
  plan->m = plan->c.matrix.rows;
  plan->n = plan->c.matrix.cols;
  plan->k = plan->a.matrix.cols;
  if (plan->a.matrix.rows != plan->m || plan->b.matrix.cols != plan->n || plan->b.matrix.rows != plan->k) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if ((batch_a != 1 && batch_a != batch_c) || (batch_b != 1 && batch_b != batch_c)) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t limit = static_cast<size_t>(INT_MAX);
  if (plan->m > limit || plan->n > limit || plan->k > limit) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  for (GemmOperand *operand : {&plan->a, &plan->b, &plan->c}) {
    if (!ToBlasMatrix(operand->matrix, &operand->blas)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  }
  if (OverlapsItself(c)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  return INFINI_STATUS_SUCCESS;
}

size_t HalfWorkspaceBytes(const GemmPlan &plan) {
  const size_t tm = std::min(plan.m, kTileM), tn = std::min(plan.n, kTileN), tk = std::min(plan.k, kTileK);
  return (tm * tk + tk * tn + tm * tn) * sizeof(float);
}

template <class T>
T *At(void *base, const GemmOperand &operand, size_t batch) {
  return static_cast<T *>(base) + static_cast<ptrdiff_t>(batch) * operand.batch_stride;
}

template <class T>
const T *At(const void *base, const GemmOperand &operand, size_t batch) {
  return static_cast<const T *>(base) + static_cast<ptrdiff_t>(batch) * operand.batch_stride;
}

// C = beta * C (zeros when beta == 0, without reading C): the k == 0 product.
template <class T>
void ScaleC(const GemmPlan &plan, T *c, float beta) {
  const MatrixLayout &layout = plan.c.matrix;
  for (size_t r = 0; r < plan.m; ++r) {
    for (size_t col = 0; col < plan.n; ++col) {
      T &value = c[static_cast<ptrdiff_t>(r) * layout.row_stride + static_cast<ptrdiff_t>(col) * layout.col_stride];
      using C = ComputeOf<T>;
      value = Num<T>::Store(beta == 0 ? C(0) : static_cast<C>(beta) * Num<T>::Load(value));
    }
  }
}

// F32/F64: one BLAS call per batch on the caller's memory.
template <class T>
void GemmDirect(const GemmPlan &plan, T *c, const T *a, const T *b, float alpha, float beta) {
  const GemmOperand &oa = plan.a, &ob = plan.b, &oc = plan.c;
  const int m = static_cast<int>(plan.m), n = static_cast<int>(plan.n), k = static_cast<int>(plan.k);
  if (!oc.blas.column_major) {
    BlasGemm(oa.blas.column_major, ob.blas.column_major, m, n, k, alpha, a, oa.blas.ld, b, ob.blas.ld, beta, c,
             oc.blas.ld);
  } else {
    // A column-major C is the row-major C^T = B^T * A^T.
    BlasGemm(!ob.blas.column_major, !oa.blas.column_major, n, m, k, alpha, b, ob.blas.ld, a, oa.blas.ld, beta, c,
             oc.blas.ld);
  }
}

// Copies rows x cols of a strided half matrix starting at (row0, col0) into dense F32.
template <class T>
void PackTile(const T *src, const MatrixLayout &layout, size_t row0, size_t col0, size_t rows, size_t cols,
              float *dst) {
  ParallelFor(rows, std::max<size_t>(1, 4096 / std::max<size_t>(cols, 1)), [&](size_t begin, size_t end) {
    for (size_t r = begin; r < end; ++r) {
      const T *row = src + static_cast<ptrdiff_t>(row0 + r) * layout.row_stride +
                     static_cast<ptrdiff_t>(col0) * layout.col_stride;
      float *out = dst + r * cols;
      for (size_t j = 0; j < cols; ++j) out[j] = Num<T>::Load(row[static_cast<ptrdiff_t>(j) * layout.col_stride]);
    }
  });
}

// F16/BF16: tile by tile through F32 copies in the workspace.
template <class T>
void GemmHalf(const GemmPlan &plan, T *c, const T *a, const T *b, float alpha, float beta, void *workspace) {
  const size_t tm = std::min(plan.m, kTileM), tn = std::min(plan.n, kTileN), tk = std::min(plan.k, kTileK);
  float *tile_a = static_cast<float *>(AlignWorkspace(workspace));
  float *tile_b = tile_a + tm * tk;
  float *tile_c = tile_b + tk * tn;
  const MatrixLayout &lc = plan.c.matrix;
  for (size_t i0 = 0; i0 < plan.m; i0 += tm) {
    const size_t mb = std::min(tm, plan.m - i0);
    for (size_t j0 = 0; j0 < plan.n; j0 += tn) {
      const size_t nb = std::min(tn, plan.n - j0);
      for (size_t k0 = 0; k0 < plan.k; k0 += tk) {
        const size_t kb = std::min(tk, plan.k - k0);
        PackTile(a, plan.a.matrix, i0, k0, mb, kb, tile_a);
        PackTile(b, plan.b.matrix, k0, j0, kb, nb, tile_b);
        BlasGemm(false, false, static_cast<int>(mb), static_cast<int>(nb), static_cast<int>(kb), 1.0f, tile_a,
                 static_cast<int>(kb), tile_b, static_cast<int>(nb), k0 == 0 ? 0.0f : 1.0f, tile_c,
                 static_cast<int>(nb));
      }
      ParallelFor(mb, 1, [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
          T *row = c + static_cast<ptrdiff_t>(i0 + r) * lc.row_stride + static_cast<ptrdiff_t>(j0) * lc.col_stride;
          for (size_t j = 0; j < nb; ++j) {
            T &out = row[static_cast<ptrdiff_t>(j) * lc.col_stride];
            const float product = alpha * tile_c[r * nb + j];
            out = Num<T>::Store(beta == 0 ? product : product + beta * Num<T>::Load(out));
          }
        }
      });
    }
  }
}

template <class T>
void RunGemm(const GemmPlan &plan, void *c, const void *a, const void *b, float alpha, float beta, void *workspace) {
  if (plan.m == 0 || plan.n == 0) return;
  for (size_t i = 0; i < plan.batch; ++i) {
    T *ci = At<T>(c, plan.c, i);
    if (plan.k == 0) {
      ScaleC(plan, ci, beta);
      continue;
    }
    const T *ai = At<T>(a, plan.a, i);
    const T *bi = At<T>(b, plan.b, i);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      GemmDirect(plan, ci, ai, bi, alpha, beta);
    } else {
      GemmHalf(plan, ci, ai, bi, alpha, beta, workspace);
    }
  }
}

class GemmDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kGemm;

  GemmDescriptor(const InfiniopHandle &handle, std::shared_ptr<const GemmPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {
    const bool half = plan_->dtype == INFINI_DTYPE_F16 || plan_->dtype == INFINI_DTYPE_BF16;
    const bool host = device_type != INFINI_DEVICE_NVIDIA;
    if (plan_->k == 0) {
      workspace_size = 0;
    } else if (host) {
      workspace_size = half ? WorkspaceWithSlack(HalfWorkspaceBytes(*plan_)) : 0;
    } else {
#ifdef INFINIOP_WITH_CUDA
      workspace_size = cuda::kGemmWorkspaceBytes;  // cuBLAS's, per call (cuda/gemm.h)
#endif
    }
  }

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *c, const void *a, const void *b,
                         float alpha, float beta, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const GemmPlan &p = *plan_;
    INFINIOP_RETURN_IF_ERROR(CheckData({{c, p.batch * p.m * p.n}, {a, p.m * p.k}, {b, p.k * p.n}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      const auto matrix = [](const GemmOperand &o) {
        return cuda::GemmMatrix{o.blas.column_major, o.blas.ld, static_cast<int64_t>(o.batch_stride)};
      };
      const cuda::GemmProblem problem{p.dtype, p.batch, p.m, p.n, p.k, matrix(p.a), matrix(p.b), matrix(p.c)};
      return cuda::Gemm(*this, problem, c, a, b, alpha, beta, workspace, stream);
    }
#endif
    std::shared_ptr<const GemmPlan> plan = plan_;
    return Launch(*this, stream, [plan, c, a, b, alpha, beta, workspace] {
      DispatchFloat(plan->dtype, [&](auto tag) {
        RunGemm<typename decltype(tag)::type>(*plan, c, a, b, alpha, beta, workspace);
      });
    });
  }

 private:
  std::shared_ptr<const GemmPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(Gemm)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateGemmDescriptor(infiniopHandle_t handle, infiniopGemmDescriptor_t *desc_ptr,
                                                       infiniopTensorDescriptor_t c_desc,
                                                       infiniopTensorDescriptor_t a_desc,
                                                       infiniopTensorDescriptor_t b_desc) {
  return CreateDescriptor(handle, desc_ptr, {c_desc, a_desc, b_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<GemmPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakeGemmPlan(*c_desc, *a_desc, *b_desc, plan.get()));
                            made->reset(new GemmDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetGemmWorkspaceSize(infiniopGemmDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<GemmDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopGemm(infiniopGemmDescriptor_t desc, void *workspace, size_t workspace_size, void *c,
                                       const void *a, const void *b, float alpha, float beta, void *stream) {
  GemmDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, c, a, b, alpha, beta, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyGemmDescriptor(infiniopGemmDescriptor_t desc) {
  return DestroyDescriptor<GemmDescriptor>(desc);
}
