// MRoPE (Qwen2-VL's multimodal rotary embedding), in double. q and q_out [tokens, n_q ·
// head_size], k and k_out [tokens, n_k · head_size] (each row the token's heads one after
// another), cos and sin [table_len, rotary_dim / 2], positions [3, tokens] (rows t, h, w) or
// [tokens] (one position for all three), I32 or I64. Rotary frequency i < half = rotary_dim / 2
// takes its position from row axis(i) (contiguous sections t, h, w; interleaved: i mod 3 = 1 → h
// while i < 3·section_h, i mod 3 = 2 → w while i < 3·section_w, else t); with p that position,
// c = cos[p, i], s = sin[p, i], the GPT-NeoX pair (i, i + half) of every head becomes
//   y[i] = x[i]·c − x[i + half]·s,   y[i + half] = x[i + half]·c + x[i]·s,
// and y[j] = x[j] for rotary_dim <= j < head_size. A token with a position outside
// [0, table_len) in any row is left unwritten. Every stride is honoured; y may be x (in place).
// Threads over tokens, each token's angles read once for all its heads. On NVIDIA:
// cuda/mrope.h.
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "infiniop.h"
#include "ops/mrope_axis.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/mrope.h"
#endif

namespace infinicts::ref::op {
namespace {

using Strides2 = std::array<ptrdiff_t, 2>;

struct MRoPEPlan {
  infiniDtype_t dtype = INFINI_DTYPE_F32, pos_dtype = INFINI_DTYPE_I64;
  size_t tokens = 0, q_heads = 0, k_heads = 0, head_size = 0, rotary_dim = 0, table_len = 0;
  std::vector<uint8_t> axis_of;  // per rotary frequency: the position row it takes (0 t, 1 h, 2 w)
  Strides2 q_out{}, k_out{}, q{}, k{}, cos{}, sin{};
  bool per_axis = false;                       // positions [3, tokens]
  ptrdiff_t pos_axis_step = 0, pos_token_step = 0;
#ifdef INFINIOP_WITH_CUDA
  cuda::MRoPEGeometry device{};  // the same, for the CUDA path
#endif
};

Strides2 StridesOf(const TensorLayout &t) { return {t.strides[0], t.strides[1]}; }

infiniStatus_t CheckParams(int head_size, int rotary_dim, int section_t, int section_h, int section_w) {
  if (head_size < 1 || rotary_dim < 1 || rotary_dim % 2 != 0 || rotary_dim > head_size) return INFINI_STATUS_BAD_PARAM;
  if (section_t < 1 || section_h < 1 || section_w < 1) return INFINI_STATUS_BAD_PARAM;
  const int64_t sum = int64_t{section_t} + section_h + section_w;
  return sum == rotary_dim / 2 ? INFINI_STATUS_SUCCESS : INFINI_STATUS_BAD_PARAM;
}

infiniStatus_t MakePlan(const TensorLayout &q_out, const TensorLayout &k_out, const TensorLayout &q,
                        const TensorLayout &k, const TensorLayout &cos, const TensorLayout &sin,
                        const TensorLayout &positions, size_t head_size, size_t rotary_dim, MRoPEPlan *plan) {
  const infiniDtype_t dtype = q.dtype;
  if (!IsFloatDtype(dtype)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  for (const TensorLayout *t : {&q_out, &k_out, &k, &cos, &sin}) {
    if (t->dtype != dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (positions.dtype != INFINI_DTYPE_I32 && positions.dtype != INFINI_DTYPE_I64) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  for (const TensorLayout *t : {&q_out, &k_out, &q, &k, &cos, &sin}) {
    if (t->ndim() != 2) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t tokens = q.shape[0];
  if (!SameShape(q_out, q) || !SameShape(k_out, k) || k.shape[0] != tokens || q.shape[1] % head_size != 0 ||
      k.shape[1] % head_size != 0) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (!SameShape(cos, sin) || cos.shape[1] != rotary_dim / 2) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  const bool per_axis = positions.ndim() == 2;
  if (!(positions.ndim() == 1 && positions.shape[0] == tokens) &&
      !(per_axis && positions.shape[0] == 3 && positions.shape[1] == tokens)) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(q_out) || OverlapsItself(k_out)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = dtype;
  plan->pos_dtype = positions.dtype;
  plan->tokens = tokens;
  plan->q_heads = q.shape[1] / head_size;
  plan->k_heads = k.shape[1] / head_size;
  plan->head_size = head_size;
  plan->rotary_dim = rotary_dim;
  plan->table_len = cos.shape[0];
  plan->q_out = StridesOf(q_out);
  plan->k_out = StridesOf(k_out);
  plan->q = StridesOf(q);
  plan->k = StridesOf(k);
  plan->cos = StridesOf(cos);
  plan->sin = StridesOf(sin);
  plan->per_axis = per_axis;
  plan->pos_axis_step = per_axis ? positions.strides[0] : 0;
  plan->pos_token_step = positions.strides[positions.ndim() - 1];
  return INFINI_STATUS_SUCCESS;
}

#ifdef INFINIOP_WITH_CUDA
cuda::MRoPEGeometry DeviceGeometry(const MRoPEPlan &p, const TensorLayout &positions, int section_t, int section_h,
                                   int section_w, bool interleaved) {
  cuda::MRoPEGeometry g{};
  g.tokens = static_cast<int64_t>(p.tokens), g.q_heads = static_cast<int64_t>(p.q_heads);
  g.k_heads = static_cast<int64_t>(p.k_heads), g.head_size = static_cast<int64_t>(p.head_size);
  g.rotary_dim = static_cast<int64_t>(p.rotary_dim), g.table_len = static_cast<int64_t>(p.table_len);
  g.section_t = section_t, g.section_h = section_h, g.section_w = section_w;
  const std::pair<int64_t *, const Strides2 *> strides[] = {{g.q_out, &p.q_out}, {g.k_out, &p.k_out}, {g.q, &p.q},
                                                             {g.k, &p.k},         {g.cos, &p.cos},     {g.sin, &p.sin}};
  for (const auto &[to, from] : strides) to[0] = (*from)[0], to[1] = (*from)[1];
  g.pos_axis_step = p.pos_axis_step, g.pos_token_step = p.pos_token_step;
  g.interleaved = interleaved ? 1 : 0, g.per_axis = p.per_axis ? 1 : 0;
  g.positions_64 = positions.dtype == INFINI_DTYPE_I64 ? 1 : 0;
  return g;
}
#endif

std::vector<uint8_t> AxesOf(size_t half, size_t section_t, size_t section_h, size_t section_w, bool interleaved) {
  std::vector<uint8_t> axes(half);
  for (size_t i = 0; i < half; ++i) {
    axes[i] = static_cast<uint8_t>(MRoPEAxisOf(static_cast<int64_t>(i), static_cast<int64_t>(section_t),
                                               static_cast<int64_t>(section_h), static_cast<int64_t>(section_w),
                                               interleaved));
  }
  return axes;
}

// One head of one token: head_size elements from `x` (element stride xs) into `y` (stride ys),
// with the token's angle of every frequency in c and s. Unit strides take the loop the compiler
// vectorizes.
template <bool kUnit, class T>
void RotateHead(const MRoPEPlan &plan, const double *c, const double *s, const T *x, ptrdiff_t xs, T *y,
                ptrdiff_t ys) {
  if constexpr (kUnit) xs = ys = 1;
  const size_t half = plan.rotary_dim / 2;
  const ptrdiff_t h = static_cast<ptrdiff_t>(half);
  for (size_t i = 0; i < half; ++i) {
    const ptrdiff_t first = static_cast<ptrdiff_t>(i);
    // Both read before either is written: y may be x.
    const double x0 = LoadDouble(x[first * xs]), x1 = LoadDouble(x[(first + h) * xs]);
    y[first * ys] = StoreDouble<T>(x0 * c[i] - x1 * s[i]);
    y[(first + h) * ys] = StoreDouble<T>(x1 * c[i] + x0 * s[i]);
  }
  for (size_t j = plan.rotary_dim; j < plan.head_size; ++j) {
    const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
    y[jj * ys] = x[jj * xs];
  }
}

// A unit-stride F16 head through the vector conversions (core/simd.h): the same values as
// RotateHead's (double arithmetic, rounded to F32 and then to F16), without its scalar F16
// conversions. The elements past rotary_dim are copied as they are.
void RotateHalfHead(const MRoPEPlan &plan, const double *c, const double *s, const f16_t *x, f16_t *y) {
  thread_local std::vector<float> buffer;
  const size_t half = plan.rotary_dim / 2;
  if (buffer.size() < 2 * plan.rotary_dim) buffer.resize(2 * plan.rotary_dim);
  float *in = buffer.data(), *out = buffer.data() + plan.rotary_dim;
  simd::F16ToF32(reinterpret_cast<const uint16_t *>(x), in, plan.rotary_dim);  // read all before writing: y may be x
  for (size_t i = 0; i < half; ++i) {
    const double x0 = in[i], x1 = in[i + half];
    out[i] = static_cast<float>(x0 * c[i] - x1 * s[i]);
    out[i + half] = static_cast<float>(x1 * c[i] + x0 * s[i]);
  }
  simd::F32ToF16(out, reinterpret_cast<uint16_t *>(y), plan.rotary_dim);
  for (size_t j = plan.rotary_dim; j < plan.head_size; ++j) y[j] = x[j];
}

// Every head of one tensor (q into q_out, or k into k_out) of token t.
template <class T>
void RotateHeads(const MRoPEPlan &plan, size_t heads, const Strides2 &xs, const T *x, const Strides2 &ys, T *y,
                 size_t t, const double *c, const double *s) {
  const ptrdiff_t tt = static_cast<ptrdiff_t>(t);
  const bool unit = xs[1] == 1 && ys[1] == 1;
  for (size_t h = 0; h < heads; ++h) {
    const ptrdiff_t first = static_cast<ptrdiff_t>(h * plan.head_size);  // head h's elements start at h·head_size
    const T *from = x + tt * xs[0] + first * xs[1];
    T *to = y + tt * ys[0] + first * ys[1];
    if constexpr (std::is_same_v<T, f16_t>) {
      if (unit && simd::Enabled()) {
        RotateHalfHead(plan, c, s, from, to);
        continue;
      }
    }
    if (unit) {
      RotateHead<true>(plan, c, s, from, 1, to, 1);
    } else {
      RotateHead<false>(plan, c, s, from, xs[1], to, ys[1]);
    }
  }
}

template <class T, class P>
void RunTyped(const MRoPEPlan &plan, T *q_out, T *k_out, const T *q, const T *k, const T *cos, const T *sin,
              const P *positions) {
  if (plan.tokens == 0) return;
  const size_t half = plan.rotary_dim / 2, width = (plan.q_heads + plan.k_heads) * plan.head_size;
  const size_t grain = std::max<size_t>(1, 8192 / std::max<size_t>(width, 1));
  ParallelFor(plan.tokens, grain, [&](size_t begin, size_t end) {
    thread_local std::vector<double> angles;  // the token's cos (first half) and sin per frequency
    if (angles.size() < 2 * half) angles.resize(2 * half);
    double *c = angles.data(), *s = angles.data() + half;
    for (size_t t = begin; t < end; ++t) {
      int64_t position[3];
      bool inside = true;
      for (size_t axis = 0; axis < 3; ++axis) {
        const ptrdiff_t at = static_cast<ptrdiff_t>(plan.per_axis ? axis : 0) * plan.pos_axis_step +
                             static_cast<ptrdiff_t>(t) * plan.pos_token_step;
        position[axis] = IndexValue(positions[at]);
        inside = inside && position[axis] >= 0 && static_cast<uint64_t>(position[axis]) < plan.table_len;
      }
      if (!inside) continue;
      for (size_t i = 0; i < half; ++i) {
        const ptrdiff_t p = static_cast<ptrdiff_t>(position[plan.axis_of[i]]), ii = static_cast<ptrdiff_t>(i);
        c[i] = LoadDouble(cos[p * plan.cos[0] + ii * plan.cos[1]]);
        s[i] = LoadDouble(sin[p * plan.sin[0] + ii * plan.sin[1]]);
      }
      RotateHeads(plan, plan.q_heads, plan.q, q, plan.q_out, q_out, t, c, s);
      RotateHeads(plan, plan.k_heads, plan.k, k, plan.k_out, k_out, t, c, s);
    }
  });
}

void Run(const MRoPEPlan &plan, void *q_out, void *k_out, const void *q, const void *k, const void *cos,
         const void *sin, const void *positions) {
  DispatchFloat(plan.dtype, [&](auto data_tag) {
    using T = typename decltype(data_tag)::type;
    DispatchInteger(plan.pos_dtype, [&](auto pos_tag) {
      using P = typename decltype(pos_tag)::type;
      RunTyped(plan, static_cast<T *>(q_out), static_cast<T *>(k_out), static_cast<const T *>(q),
               static_cast<const T *>(k), static_cast<const T *>(cos), static_cast<const T *>(sin),
               static_cast<const P *>(positions));
    });
  });
}

class MRoPEDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kMRoPE;

  MRoPEDescriptor(const InfiniopHandle &handle, std::shared_ptr<const MRoPEPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *q_out, void *k_out, const void *q,
                         const void *k, const void *cos, const void *sin, const void *positions, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const MRoPEPlan &p = *plan_;
    const size_t q_count = p.tokens * p.q_heads * p.head_size, k_count = p.tokens * p.k_heads * p.head_size;
    const size_t table = p.table_len * (p.rotary_dim / 2);
    INFINIOP_RETURN_IF_ERROR(CheckData({{q_out, q_count},
                                        {k_out, k_count},
                                        {q, q_count},
                                        {k, k_count},
                                        {cos, table},
                                        {sin, table},
                                        {positions, p.tokens * (p.per_axis ? 3 : 1)}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::MRoPE(*this, p.device, p.dtype, q_out, k_out, q, k, cos, sin, positions, stream);
    }
#endif
    std::shared_ptr<const MRoPEPlan> plan = plan_;
    return Launch(*this, stream, [=] { Run(*plan, q_out, k_out, q, k, cos, sin, positions); });
  }

 private:
  std::shared_ptr<const MRoPEPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(MRoPE)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateMRoPEDescriptor(infiniopHandle_t handle, infiniopMRoPEDescriptor_t *desc_ptr,
                                                        infiniopTensorDescriptor_t q_out,
                                                        infiniopTensorDescriptor_t k_out, infiniopTensorDescriptor_t q,
                                                        infiniopTensorDescriptor_t k, infiniopTensorDescriptor_t cos,
                                                        infiniopTensorDescriptor_t sin,
                                                        infiniopTensorDescriptor_t positions, int head_size,
                                                        int rotary_dim, int section_t, int section_h, int section_w,
                                                        bool interleaved) {
  return CreateDescriptor(handle, desc_ptr, {q_out, k_out, q, k, cos, sin, positions},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            INFINIOP_RETURN_IF_ERROR(CheckParams(head_size, rotary_dim, section_t, section_h, section_w));
                            auto plan = std::make_shared<MRoPEPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*q_out, *k_out, *q, *k, *cos, *sin, *positions,
                                                              static_cast<size_t>(head_size),
                                                              static_cast<size_t>(rotary_dim), plan.get()));
                            plan->axis_of = AxesOf(plan->rotary_dim / 2, static_cast<size_t>(section_t),
                                                   static_cast<size_t>(section_h), static_cast<size_t>(section_w),
                                                   interleaved);
#ifdef INFINIOP_WITH_CUDA
                            plan->device = DeviceGeometry(*plan, *positions, section_t, section_h, section_w,
                                                          interleaved);
#endif
                            made->reset(new MRoPEDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetMRoPEWorkspaceSize(infiniopMRoPEDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<MRoPEDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopMRoPE(infiniopMRoPEDescriptor_t desc, void *workspace, size_t workspace_size,
                                        void *q_out, void *k_out, const void *q, const void *k, const void *cos,
                                        const void *sin, const void *positions, void *stream) {
  MRoPEDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, q_out, k_out, q, k, cos, sin, positions, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyMRoPEDescriptor(infiniopMRoPEDescriptor_t desc) {
  return DestroyDescriptor<MRoPEDescriptor>(desc);
}
