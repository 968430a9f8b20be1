// Attention of one sequence over its KV cache (InfiniCore's composition of Rearrange, Gemm and
// CausalSoftmax, here one kernel). q [n_q, seq, d], k and v [n_kv, seq, d], k_cache and v_cache
// [n_kv, capacity, d] (capacity >= pos + seq, in-out), out [seq, n_q, d]; one dtype of F16, BF16
// or F32. First k and v are copied bit for bit into the caches' rows pos .. pos + seq - 1; then,
// for q head h, its kv head g = h / (n_q / n_kv) and token i:
//   out[i, h, :] = Σ_j p_j · v_cache[g, j, :],  p = softmax_j(q[h, i, :] · k_cache[g, j, :] / sqrt(d)),
// over j = 0 .. pos + i (token i sits at position pos + i). Cache rows from pos + seq on are never
// read. Threads over kv heads; each takes its group's queries in blocks of tokens: one F32 product
// (OpenBLAS sgemm) of the block's queries with the keys its last token sees, a max-subtracted
// softmax over each row's own keys (the rest of the row zeroed), and a second product with the
// values. F16 and BF16 operands are widened to F32 first; each output is rounded once. Every
// stride is honoured. On NVIDIA: cuda/attention.h.
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/api.h"
#include "core/blas.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "core/simd.h"
#include "infiniop.h"
#include "ops/cache_rows.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/attention.h"
#endif

namespace infinicts::ref::op {
namespace {

using Strides3 = std::array<ptrdiff_t, 3>;

// Rows of the score matrix (queries × the group's heads) one block holds: enough for sgemm to
// run well, few enough that the block's scores stay in cache-sized scratch.
constexpr size_t kBlockRows = 128;

struct AttentionPlan {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  size_t n_q = 0, n_kv = 0, group = 0, seq = 0, dim = 0, pos = 0;
  size_t k_capacity = 0, v_capacity = 0;
  Strides3 out{}, q{}, k{}, v{}, k_cache{}, v_cache{};
#ifdef INFINIOP_WITH_CUDA
  cuda::AttentionGeometry device;  // the same, for the CUDA path
#endif
};

Strides3 StridesOf(const TensorLayout &layout) { return {layout.strides[0], layout.strides[1], layout.strides[2]}; }

bool Is3D(const TensorLayout &t, size_t d0, size_t d1, size_t d2) {
  return t.ndim() == 3 && t.shape[0] == d0 && t.shape[1] == d1 && t.shape[2] == d2;
}

infiniStatus_t MakePlan(const TensorLayout &out, const TensorLayout &q, const TensorLayout &k, const TensorLayout &v,
                        const TensorLayout &k_cache, const TensorLayout &v_cache, size_t pos, AttentionPlan *plan) {
  const infiniDtype_t dtype = q.dtype;
  if (!IsCacheDtype(dtype)) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  for (const TensorLayout *t : {&out, &k, &v, &k_cache, &v_cache}) {
    if (t->dtype != dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  for (const TensorLayout *t : {&out, &q, &k, &v, &k_cache, &v_cache}) {
    if (t->ndim() != 3) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  const size_t n_q = q.shape[0], seq = q.shape[1], dim = q.shape[2], n_kv = k.shape[0];
  if (n_kv == 0 || n_q % n_kv != 0 || !Is3D(k, n_kv, seq, dim) || !Is3D(v, n_kv, seq, dim) ||
      !Is3D(out, seq, n_q, dim)) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  for (const TensorLayout *cache : {&k_cache, &v_cache}) {
    // capacity >= pos + seq, written so that a huge pos cannot wrap around.
    if (cache->shape[0] != n_kv || cache->shape[2] != dim || cache->shape[1] < seq || cache->shape[1] - seq < pos) {
      return INFINI_STATUS_BAD_TENSOR_SHAPE;
    }
  }
  // The products' sizes travel to BLAS as int.
  const size_t limit = static_cast<size_t>(INT_MAX);
  if (dim > limit || pos + seq > limit) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (OverlapsItself(out) || OverlapsItself(k_cache) || OverlapsItself(v_cache)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = dtype;
  plan->n_q = n_q;
  plan->n_kv = n_kv;
  plan->group = n_q / n_kv;
  plan->seq = seq;
  plan->dim = dim;
  plan->pos = pos;
  plan->k_capacity = k_cache.shape[1];
  plan->v_capacity = v_cache.shape[1];
  plan->out = StridesOf(out);
  plan->q = StridesOf(q);
  plan->k = StridesOf(k);
  plan->v = StridesOf(v);
  plan->k_cache = StridesOf(k_cache);
  plan->v_cache = StridesOf(v_cache);
#ifdef INFINIOP_WITH_CUDA
  cuda::AttentionGeometry &g = plan->device;
  g = {static_cast<int64_t>(n_q), static_cast<int64_t>(n_kv), static_cast<int64_t>(plan->group),
       static_cast<int64_t>(seq), static_cast<int64_t>(dim), static_cast<int64_t>(pos), {}, {}, {}, {}, {}, {}};
  for (int d = 0; d < 3; ++d) {
    g.out[d] = plan->out[d], g.q[d] = plan->q[d], g.k[d] = plan->k[d], g.v[d] = plan->v[d];
    g.k_cache[d] = plan->k_cache[d], g.v_cache[d] = plan->v_cache[d];
  }
#endif
  return INFINI_STATUS_SUCCESS;
}

// k and v into rows pos .. pos + seq - 1 of their caches, bit for bit, threads over (kv head, token) rows.
void WriteCaches(const AttentionPlan &plan, void *k_cache, void *v_cache, const void *k, const void *v) {
  const size_t rows = plan.n_kv * plan.seq, element = DtypeSize(plan.dtype);
  if (rows == 0 || plan.dim == 0) return;
  const auto copy = [&](const Strides3 &cache, void *cache_data, const Strides3 &entry, const void *entry_data,
                        size_t h, size_t s, size_t count) {
    const ptrdiff_t hh = static_cast<ptrdiff_t>(h), ss = static_cast<ptrdiff_t>(s);
    const ptrdiff_t row = static_cast<ptrdiff_t>(plan.pos) + ss;
    const RowRun run{ElementAt(cache_data, hh * cache[0] + row * cache[1], element), cache[1], cache[2],
                     ElementAt(entry_data, hh * entry[0] + ss * entry[1], element), entry[1], entry[2]};
    CopyRows(run, count, plan.dim, element);
  };
  const size_t grain = std::max<size_t>(1, (size_t(1) << 14) / plan.dim);
  ParallelFor(rows, grain, [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end;) {
      const size_t h = row / plan.seq, s = row % plan.seq;
      const size_t count = std::min(end - row, plan.seq - s);  // this chunk's rows of kv head h
      copy(plan.k_cache, k_cache, plan.k, k, h, s, count);
      copy(plan.v_cache, v_cache, plan.v, v, h, s, count);
      row += count;
    }
  });
}

// Per-thread F32 scratch, reused across blocks and calls.
struct Scratch {
  std::vector<float> keys, values, queries, scores, results;
};
Scratch &ThreadScratch() {
  thread_local Scratch scratch;
  return scratch;
}

float *Grown(std::vector<float> &buffer, size_t n) {
  if (buffer.size() < n) buffer.resize(n);
  return buffer.data();
}

// Rows 0 .. rows - 1 of one kv head's cache as BLAS reads them: the cache itself when it is
// F32 with unit stride along d and rows a whole row apart, else widened into `buffer` as
// dense [rows, d].
template <class T>
const float *CacheRows(const T *head, const Strides3 &strides, size_t rows, size_t dim, std::vector<float> &buffer,
                       int *ld) {
  if constexpr (std::is_same_v<T, float>) {
    if (strides[2] == 1 && strides[1] >= static_cast<ptrdiff_t>(dim) && strides[1] <= INT_MAX) {
      *ld = static_cast<int>(strides[1]);
      return head;
    }
  }
  float *dense = Grown(buffer, rows * dim);
  ParallelFor(rows, std::max<size_t>(1, 4096 / std::max<size_t>(dim, 1)), [&](size_t begin, size_t end) {
    for (size_t j = begin; j < end; ++j) {
      const T *row = head + static_cast<ptrdiff_t>(j) * strides[1];
      float *to = dense + j * dim;
      if constexpr (std::is_same_v<T, f16_t>) {
        if (strides[2] == 1 && simd::Enabled()) {
          simd::F16ToF32(reinterpret_cast<const uint16_t *>(row), to, dim);
          continue;
        }
      }
      for (size_t c = 0; c < dim; ++c) to[c] = Num<T>::Load(row[static_cast<ptrdiff_t>(c) * strides[2]]);
    }
  });
  *ld = static_cast<int>(dim);
  return dense;
}

// Softmax of row[0 .. valid) in place, max subtracted; row[valid .. length) = 0.
void SoftmaxPrefix(float *row, size_t valid, size_t length) {
  if (simd::Enabled()) {
    const float max = simd::RowMax(row, valid);
    const double sum = simd::ExpShiftedSum(row, max, row, valid);
    simd::ScaleInto(row, static_cast<float>(1.0 / sum), row, valid, /*streaming=*/false);
  } else {
    float max = row[0];
    for (size_t j = 1; j < valid; ++j) max = std::max(max, row[j]);
    double sum = 0;
    for (size_t j = 0; j < valid; ++j) {
      row[j] = std::exp(row[j] - max);
      sum += row[j];
    }
    const float inverse = static_cast<float>(1.0 / sum);
    for (size_t j = 0; j < valid; ++j) row[j] *= inverse;
  }
  std::fill(row + valid, row + length, 0.0f);
}

// Every q head of kv head g's group, for every token.
template <class T>
void AttendKvHead(const AttentionPlan &plan, size_t g, T *out, const T *q, const T *k_cache, const T *v_cache) {
  Scratch &scratch = ThreadScratch();
  const size_t dim = plan.dim, group = plan.group, total = plan.pos + plan.seq;
  const ptrdiff_t gg = static_cast<ptrdiff_t>(g);
  int ld_keys = 0, ld_values = 0;
  const float *keys = CacheRows(k_cache + gg * plan.k_cache[0], plan.k_cache, total, dim, scratch.keys, &ld_keys);
  const float *values =
      CacheRows(v_cache + gg * plan.v_cache[0], plan.v_cache, total, dim, scratch.values, &ld_values);
  const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dim)));
  const size_t block_tokens = std::max<size_t>(1, kBlockRows / group);
  for (size_t i0 = 0; i0 < plan.seq; i0 += block_tokens) {
    const size_t tokens = std::min(block_tokens, plan.seq - i0);
    const size_t rows = group * tokens;  // row r: q head g·group + r / tokens, token i0 + r % tokens
    const size_t seen = plan.pos + i0 + tokens;  // the keys the block's last token sees
    float *queries = Grown(scratch.queries, rows * dim);
    for (size_t r = 0; r < rows; ++r) {
      const size_t h = g * group + r / tokens, i = i0 + r % tokens;
      const T *query = q + static_cast<ptrdiff_t>(h) * plan.q[0] + static_cast<ptrdiff_t>(i) * plan.q[1];
      for (size_t c = 0; c < dim; ++c) queries[r * dim + c] = Num<T>::Load(query[static_cast<ptrdiff_t>(c) * plan.q[2]]);
    }
    float *scores = Grown(scratch.scores, rows * seen);
    BlasGemm(false, true, static_cast<int>(rows), static_cast<int>(seen), static_cast<int>(dim), scale, queries,
             static_cast<int>(dim), keys, ld_keys, 0.0f, scores, static_cast<int>(seen));
    for (size_t r = 0; r < rows; ++r) {
      const size_t i = i0 + r % tokens;
      SoftmaxPrefix(scores + r * seen, plan.pos + i + 1, seen);  // token i sees keys 0 .. pos + i
    }
    float *results = Grown(scratch.results, rows * dim);
    BlasGemm(false, false, static_cast<int>(rows), static_cast<int>(dim), static_cast<int>(seen), 1.0f, scores,
             static_cast<int>(seen), values, ld_values, 0.0f, results, static_cast<int>(dim));
    for (size_t r = 0; r < rows; ++r) {
      const size_t h = g * group + r / tokens, i = i0 + r % tokens;
      T *to = out + static_cast<ptrdiff_t>(i) * plan.out[0] + static_cast<ptrdiff_t>(h) * plan.out[1];
      for (size_t c = 0; c < dim; ++c) to[static_cast<ptrdiff_t>(c) * plan.out[2]] = Num<T>::Store(results[r * dim + c]);
    }
  }
}

void Run(const AttentionPlan &plan, void *out, const void *q, const void *k, const void *v, void *k_cache,
         void *v_cache) {
  WriteCaches(plan, k_cache, v_cache, k, v);
  if (plan.n_q == 0 || plan.seq == 0 || plan.dim == 0) return;
  DispatchFloat(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, double>) {
      ParallelFor(plan.n_kv, 1, [&](size_t begin, size_t end) {
        for (size_t g = begin; g < end; ++g) {
          AttendKvHead(plan, g, static_cast<T *>(out), static_cast<const T *>(q), static_cast<const T *>(k_cache),
                       static_cast<const T *>(v_cache));
        }
      });
    }
  });
}

class AttentionDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kAttention;

  AttentionDescriptor(const InfiniopHandle &handle, std::shared_ptr<const AttentionPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {
#ifdef INFINIOP_WITH_CUDA
    // The CUDA path keeps its F32 score rows in the workspace.
    if (device_type == INFINI_DEVICE_NVIDIA) workspace_size = cuda::AttentionWorkspaceBytes(plan_->device);
#endif
  }

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *out, const void *q, const void *k,
                         const void *v, void *k_cache, void *v_cache, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const AttentionPlan &p = *plan_;
    const size_t queries = p.n_q * p.seq * p.dim, entries = p.n_kv * p.seq * p.dim;
    INFINIOP_RETURN_IF_ERROR(CheckData({{out, queries},
                                        {q, queries},
                                        {k, entries},
                                        {v, entries},
                                        {k_cache, p.n_kv * p.k_capacity * p.dim},
                                        {v_cache, p.n_kv * p.v_capacity * p.dim}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::Attention(*this, p.device, p.dtype, out, q, k, v, k_cache, v_cache, workspace, stream);
    }
#endif
    std::shared_ptr<const AttentionPlan> plan = plan_;
    return Launch(*this, stream, [=] { Run(*plan, out, q, k, v, k_cache, v_cache); });
  }

 private:
  std::shared_ptr<const AttentionPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(Attention)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateAttentionDescriptor(infiniopHandle_t handle,
                                                            infiniopAttentionDescriptor_t *desc_ptr,
                                                            infiniopTensorDescriptor_t out_desc,
                                                            infiniopTensorDescriptor_t q_desc,
                                                            infiniopTensorDescriptor_t k_desc,
                                                            infiniopTensorDescriptor_t v_desc,
                                                            infiniopTensorDescriptor_t k_cache_desc,
                                                            infiniopTensorDescriptor_t v_cache_desc, size_t pos) {
  return CreateDescriptor(handle, desc_ptr, {out_desc, q_desc, k_desc, v_desc, k_cache_desc, v_cache_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<AttentionPlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*out_desc, *q_desc, *k_desc, *v_desc, *k_cache_desc,
                                                              *v_cache_desc, pos, plan.get()));
                            made->reset(new AttentionDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetAttentionWorkspaceSize(infiniopAttentionDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<AttentionDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopAttention(infiniopAttentionDescriptor_t desc, void *workspace, size_t workspace_size,
                                            void *out, const void *q, const void *k, const void *v, void *k_cache,
                                            void *v_cache, void *stream) {
  AttentionDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, out, q, k, v, k_cache, v_cache, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyAttentionDescriptor(infiniopAttentionDescriptor_t desc) {
  return DestroyDescriptor<AttentionDescriptor>(desc);
}
