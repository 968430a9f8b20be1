// Rearrange: dst = src element by element, between two layouts of one shape and one
// dtype (any dtype: elements are copied as bytes).
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "core/strided_loop.h"
#include "infiniop/ops/rearrange.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rearrange.h"
#endif

namespace infinicts::ref::op {
namespace {

template <size_t Bytes>
struct Element {
  unsigned char bytes[Bytes];
};

// A transpose: dst has unit stride along dim `dst_unit`, src along another dim `src_unit`.
// Walking dst's rows would read src a cache line per element, and both operands' rows
// (often power-of-two strides apart) fall into the same cache sets; instead each tile is
// read along src's rows into a small contiguous buffer and written out along dst's rows
// (4- and 2-byte elements through 8 x 8 vector transposes).
struct TransposePlan {
  bool active = false;
  size_t dst_unit = 0, src_unit = 0;
  std::vector<size_t> shape;
  std::vector<ptrdiff_t> dst_strides, src_strides;
  std::vector<size_t> outer_dims;  // every dim but the two unit ones, outermost first
  size_t outer_count = 1;
};

struct RearrangePlan {
  size_t element_size = 0;
  StridedLoop<2> loop;  // operand 0: dst, operand 1: src (strides in elements)
  TransposePlan transpose;
#ifdef INFINIOP_WITH_CUDA
  cuda::StridedOperands<2> device_layout;  // the same walk, for the CUDA path
#endif
};

TransposePlan MakeTransposePlan(const TensorLayout &dst, const TensorLayout &src) {
  TransposePlan plan;
  const size_t ndim = dst.ndim();
  size_t dst_unit = ndim, src_unit = ndim;
  for (size_t d = 0; d < ndim; ++d) {
    if (dst.shape[d] < 2) continue;
    if (dst.strides[d] == 1 && dst_unit == ndim) dst_unit = d;
    if (src.strides[d] == 1 && src_unit == ndim) src_unit = d;
  }
  if (dst_unit == ndim || src_unit == ndim || src.strides[dst_unit] == 1) return plan;
  plan.active = true;
  plan.dst_unit = dst_unit;
  plan.src_unit = src_unit;
  plan.shape = dst.shape;
  plan.dst_strides = dst.strides;
  plan.src_strides = src.strides;
  for (size_t d = 0; d < ndim; ++d) {
    if (d == dst_unit || d == src_unit) continue;
    plan.outer_dims.push_back(d);
    plan.outer_count *= dst.shape[d];
  }
  return plan;
}

// Outputs of at least this many bytes leave through streaming stores (see ops/elementwise.h).
constexpr size_t kStreamingTransposeBytes = size_t(8) << 20;

template <size_t Bytes>
void CopyTransposed(const TransposePlan &plan, void *dst, const void *src) {
  using E = Element<Bytes>;
  // Tile edge: runs of 128 to 512 bytes on both sides, for the prefetchers and the
  // memory's parallelism; a buffer of at most 64 KiB, inside L2.
  constexpr size_t kEdge = Bytes <= 4 ? 128 : 32;
  constexpr bool kVectorElement = Bytes == 4 || Bytes == 2;
  constexpr size_t kOutEdge = kVectorElement ? kEdge : 1;  // the streaming buffer's edge
  size_t total = plan.outer_count * Bytes;
  for (size_t d : {plan.dst_unit, plan.src_unit}) total *= plan.shape[d];
  // Whole tiles of a large output are transposed into a second buffer and streamed out a
  // row at a time: no read for ownership of dst's lines, which a transpose's scattered
  // stores would otherwise pay.
  const bool streaming = kVectorElement && total >= kStreamingTransposeBytes && simd::Enabled();
  const size_t columns = plan.shape[plan.dst_unit], rows = plan.shape[plan.src_unit];
  const size_t column_tiles = (columns + kEdge - 1) / kEdge, row_tiles = (rows + kEdge - 1) / kEdge;
  const size_t per_outer = column_tiles * row_tiles;
  const ptrdiff_t src_column_stride = plan.src_strides[plan.dst_unit];
  const ptrdiff_t dst_row_stride = plan.dst_strides[plan.src_unit];
  ParallelFor(plan.outer_count * per_outer, 1, [&](size_t begin, size_t end) {
    E buffer[kEdge][kEdge];  // buffer[column][row]
    E rows_out[kOutEdge][kOutEdge];  // rows_out[row][column]: streaming
    for (size_t unit = begin; unit < end; ++unit) {
      ptrdiff_t dst_base = 0, src_base = 0;
      size_t rest = unit / per_outer;
      for (size_t k = plan.outer_dims.size(); k-- > 0;) {
        const size_t d = plan.outer_dims[k];
        const ptrdiff_t index = static_cast<ptrdiff_t>(rest % plan.shape[d]);
        rest /= plan.shape[d];
        dst_base += index * plan.dst_strides[d];
        src_base += index * plan.src_strides[d];
      }
      const size_t tile = unit % per_outer;
      const size_t row0 = tile / column_tiles * kEdge, column0 = tile % column_tiles * kEdge;
      const size_t row_count = std::min(kEdge, rows - row0), column_count = std::min(kEdge, columns - column0);
      const E *in = static_cast<const E *>(src) + src_base + static_cast<ptrdiff_t>(row0) +
                    static_cast<ptrdiff_t>(column0) * src_column_stride;
      for (size_t c = 0; c < column_count; ++c) {
        std::memcpy(buffer[c], in + static_cast<ptrdiff_t>(c) * src_column_stride, row_count * Bytes);
      }
      E *out = static_cast<E *>(dst) + dst_base + static_cast<ptrdiff_t>(column0) +
               static_cast<ptrdiff_t>(row0) * dst_row_stride;
      size_t vector_rows = 0, vector_columns = 0;  // the part done in 8 x 8 vector blocks
      if constexpr (kVectorElement) {
        if (streaming && row_count == kEdge && column_count == kEdge) {
          const auto transpose = Bytes == 4 ? simd::Transpose8x8Of32 : simd::Transpose8x8Of16;
          for (size_t r = 0; r < kEdge; r += 8) {
            for (size_t c = 0; c < kEdge; c += 8) transpose(&buffer[c][r], kEdge, &rows_out[r][c], kEdge);
          }
          for (size_t r = 0; r < kEdge; ++r) {
            simd::CopyStreaming(rows_out[r], out + static_cast<ptrdiff_t>(r) * dst_row_stride, kEdge * Bytes);
          }
          continue;
        }
        if (simd::Enabled()) {
          vector_rows = row_count / 8 * 8;
          vector_columns = column_count / 8 * 8;
          const auto transpose = Bytes == 4 ? simd::Transpose8x8Of32 : simd::Transpose8x8Of16;
          for (size_t r = 0; r < vector_rows; r += 8) {
            for (size_t c = 0; c < vector_columns; c += 8) {
              transpose(&buffer[c][r], static_cast<ptrdiff_t>(kEdge),
                        out + static_cast<ptrdiff_t>(r) * dst_row_stride + static_cast<ptrdiff_t>(c), dst_row_stride);
            }
          }
        }
      }
      for (size_t r = 0; r < row_count; ++r) {
        E *line = out + static_cast<ptrdiff_t>(r) * dst_row_stride;
        for (size_t c = r < vector_rows ? vector_columns : 0; c < column_count; ++c) line[c] = buffer[c][r];
      }
    }
    if (streaming) simd::StoreFence();
  });
}

template <size_t Bytes>
void Copy(const RearrangePlan &plan, void *dst, const void *src) {
  using E = Element<Bytes>;
  plan.loop.ParallelForEachTiled(size_t(1) << 15, [&](const Offsets<2> &offsets, const Offsets<2> &steps,
                                                      size_t count) {
    E *out = static_cast<E *>(dst) + offsets[0];
    const E *in = static_cast<const E *>(src) + offsets[1];
    if (steps[0] == 1 && steps[1] == 1) {
      std::memmove(out, in, count * Bytes);
      return;
    }
    for (size_t i = 0; i < count; ++i) {
      const ptrdiff_t j = static_cast<ptrdiff_t>(i);
      out[j * steps[0]] = in[j * steps[1]];
    }
  });
}

void Run(const RearrangePlan &plan, void *dst, const void *src) {
  if (plan.transpose.active) {
    switch (plan.element_size) {
      case 1: CopyTransposed<1>(plan.transpose, dst, src); return;
      case 2: CopyTransposed<2>(plan.transpose, dst, src); return;
      case 4: CopyTransposed<4>(plan.transpose, dst, src); return;
      case 8: CopyTransposed<8>(plan.transpose, dst, src); return;
      default: CopyTransposed<16>(plan.transpose, dst, src); return;
    }
  }
  switch (plan.element_size) {
    case 1: Copy<1>(plan, dst, src); break;
    case 2: Copy<2>(plan, dst, src); break;
    case 4: Copy<4>(plan, dst, src); break;
    case 8: Copy<8>(plan, dst, src); break;
    default: Copy<16>(plan, dst, src); break;
  }
}

class RearrangeDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kRearrange;

  RearrangeDescriptor(const InfiniopHandle &handle, std::shared_ptr<const RearrangePlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *dst, const void *src, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckData({{dst, plan_->loop.numel()}, {src, plan_->loop.numel()}}));
    std::shared_ptr<const RearrangePlan> plan = plan_;
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::Rearrange(*this, plan->element_size, plan->device_layout, dst, src, stream);
    }
#endif
    return Launch(*this, stream, [plan, dst, src] { Run(*plan, dst, src); });
  }

 private:
  std::shared_ptr<const RearrangePlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateRearrangeDescriptor(infiniopHandle_t handle,
                                                            infiniopRearrangeDescriptor_t *desc_ptr,
                                                            infiniopTensorDescriptor_t dst,
                                                            infiniopTensorDescriptor_t src) {
  return CreateDescriptor(handle, desc_ptr, {dst, src},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            if (src->dtype != dst->dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
                            if (!SameShape(*dst, *src)) return INFINI_STATUS_BAD_TENSOR_SHAPE;
                            if (OverlapsItself(*dst)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
                            auto plan = std::make_shared<RearrangePlan>();
                            plan->element_size = DtypeSize(dst->dtype);
                            plan->loop = StridedLoop<2>(dst->shape, {&dst->strides, &src->strides});
                            plan->transpose = MakeTransposePlan(*dst, *src);
#ifdef INFINIOP_WITH_CUDA
                            plan->device_layout = cuda::MergeOperands<2>(dst->shape, {&dst->strides, &src->strides});
#endif
                            made->reset(new RearrangeDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopRearrange(infiniopRearrangeDescriptor_t desc, void *dst, const void *src,
                                            void *stream) {
  RearrangeDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(dst, src, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyRearrangeDescriptor(infiniopRearrangeDescriptor_t desc) {
  return DestroyDescriptor<RearrangeDescriptor>(desc);
}
