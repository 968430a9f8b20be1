// Rearrange: dst = src element by element, between two layouts of one shape and one
// dtype (any dtype: elements are copied as bytes).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/simd.h"
#include "core/strided_copy.h"
#include "core/strided_loop.h"
#include "infiniop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/rearrange.h"
#endif

namespace infinicts::ref::op {
namespace {

template <size_t Bytes>
using Element = strided_copy_detail::Element<Bytes>;

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

// A tile of a transpose: where it starts in src and in dst (elements) and its extent in
// rows (along src's unit dim) and columns (along dst's).
struct TransposeTile {
  ptrdiff_t src_offset = 0, dst_offset = 0;
  size_t row_count = 0, column_count = 0;
};

// The tiles of tile_rows x tile_columns covering a transpose, numbered by outer index,
// then row tile, then column tile (the units a ParallelFor hands out).
class TransposeTiling {
 public:
  TransposeTiling(const TransposePlan &plan, size_t tile_rows, size_t tile_columns)
      : plan_(plan),
        tile_rows_(tile_rows),
        tile_columns_(tile_columns),
        rows_(plan.shape[plan.src_unit]),
        columns_(plan.shape[plan.dst_unit]),
        column_tiles_((columns_ + tile_columns - 1) / tile_columns),
        per_outer_(column_tiles_ * ((rows_ + tile_rows - 1) / tile_rows)) {}

  size_t count() const { return plan_.outer_count * per_outer_; }

  TransposeTile At(size_t unit) const {
    TransposeTile tile;
    size_t rest = unit / per_outer_;
    for (size_t k = plan_.outer_dims.size(); k-- > 0;) {
      const size_t d = plan_.outer_dims[k];
      const ptrdiff_t index = static_cast<ptrdiff_t>(rest % plan_.shape[d]);
      rest /= plan_.shape[d];
      tile.dst_offset += index * plan_.dst_strides[d];
      tile.src_offset += index * plan_.src_strides[d];
    }
    const size_t within = unit % per_outer_;
    const size_t row0 = within / column_tiles_ * tile_rows_, column0 = within % column_tiles_ * tile_columns_;
    tile.row_count = std::min(tile_rows_, rows_ - row0);
    tile.column_count = std::min(tile_columns_, columns_ - column0);
    const ptrdiff_t r = static_cast<ptrdiff_t>(row0), c = static_cast<ptrdiff_t>(column0);
    tile.src_offset += r * plan_.src_strides[plan_.src_unit] + c * plan_.src_strides[plan_.dst_unit];
    tile.dst_offset += c * plan_.dst_strides[plan_.dst_unit] + r * plan_.dst_strides[plan_.src_unit];
    return tile;
  }

 private:
  const TransposePlan &plan_;
  size_t tile_rows_, tile_columns_, rows_, columns_, column_tiles_, per_outer_;
};

// Whether a transpose's output streams: 2- or 4-byte elements (the vector transposes),
// at least simd::kStreamingOutputBytes of them, and the vector kernels in use.
bool StreamsTranspose(const TransposePlan &plan, size_t element_size) {
  if ((element_size != 2 && element_size != 4) || !simd::Enabled()) return false;
  size_t total = plan.outer_count * element_size;
  for (size_t d : {plan.dst_unit, plan.src_unit}) total *= plan.shape[d];
  return total >= simd::kStreamingOutputBytes;
}

template <size_t Bytes>
void CopyTransposed(const TransposePlan &plan, void *dst, const void *src) {
  using E = Element<Bytes>;
  // Tile edge: runs of 128 to 512 bytes on both sides, for the prefetchers and the
  // memory's parallelism; a buffer of at most 64 KiB, inside L2.
  constexpr size_t kEdge = Bytes <= 4 ? 128 : 32;
  constexpr bool kVectorElement = Bytes == 4 || Bytes == 2;
  constexpr size_t kOutEdge = kVectorElement ? kEdge : 1;  // the streaming buffer's edge
  // Whole tiles of a large output are transposed into a second buffer and streamed out a
  // row at a time: no read for ownership of dst's lines, which a transpose's scattered
  // stores would otherwise pay.
  const bool streaming = StreamsTranspose(plan, Bytes);
  const TransposeTiling tiling(plan, kEdge, kEdge);
  const ptrdiff_t src_column_stride = plan.src_strides[plan.dst_unit];
  const ptrdiff_t dst_row_stride = plan.dst_strides[plan.src_unit];
  ParallelFor(tiling.count(), 1, [&](size_t begin, size_t end) {
    E buffer[kEdge][kEdge];  // buffer[column][row]
    E rows_out[kOutEdge][kOutEdge];  // rows_out[row][column]: streaming
    for (size_t unit = begin; unit < end; ++unit) {
      const TransposeTile tile = tiling.At(unit);
      const size_t row_count = tile.row_count, column_count = tile.column_count;
      const E *in = static_cast<const E *>(src) + tile.src_offset;
      E *out = static_cast<E *>(dst) + tile.dst_offset;
      for (size_t c = 0; c < column_count; ++c) {
        std::memcpy(buffer[c], in + static_cast<ptrdiff_t>(c) * src_column_stride, row_count * Bytes);
      }
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

// Whether CopyTransposedByLines can take this transpose: a streamed output, AVX-512's line
// transposes, and every dst row starting on a 64-byte line.
bool TakesLineTransposes(const TransposePlan &plan, size_t element_size, const void *dst) {
  if (!StreamsTranspose(plan, element_size) || !simd::HasLineTransposes()) return false;
  if (reinterpret_cast<uintptr_t>(dst) % 64 != 0) return false;
  for (size_t d = 0; d < plan.shape.size(); ++d) {
    if (d != plan.dst_unit && plan.shape[d] > 1 && (plan.dst_strides[d] * static_cast<ptrdiff_t>(element_size)) % 64 != 0) {
      return false;
    }
  }
  return true;
}

// A large transpose read straight from src into registers: each block of 16 dst rows by
// one 64-byte line leaves through one AVX-512 line transpose with streaming stores, so no
// staging buffer is written and read again. Long tiles along the source rows keep their
// runs long for the prefetchers. The ragged edges go element by element.
//
// A tile's columns are walked as stripes, each stripe starting its row blocks at a
// different place: with power-of-two row pitches (a 4096-wide F16 matrix's rows are 8 KiB
// apart) the blocks in flight at one time would otherwise all share their low address bits
// and crowd the same cache sets and memory channels (bench/README.md, "Rearrange's skewed
// stripes", has the measurements).
template <size_t Bytes>
void CopyTransposedByLines(const TransposePlan &plan, void *dst, const void *src) {
  using E = Element<Bytes>;
  constexpr size_t kBlockRows = 16, kBlockColumns = 64 / Bytes;
  // Tall tiles: 512 x 128 F32 tiles moved far more than 128 x 128 ones through the staging
  // buffers (bench/README.md, "Kernel choices"); F16 in two skewed stripes.
  constexpr size_t kTileRows = Bytes == 4 ? 512 : 1024, kTileColumns = 128;
  constexpr size_t kStripeColumns = Bytes == 4 ? kTileColumns : 64;
  const auto transpose = Bytes == 4 ? simd::TransposeLinesOf32 : simd::TransposeLinesOf16;
  const TransposeTiling tiling(plan, kTileRows, kTileColumns);
  const ptrdiff_t src_column_stride = plan.src_strides[plan.dst_unit];
  const ptrdiff_t dst_row_stride = plan.dst_strides[plan.src_unit];
  // Each thread takes one contiguous share of the tiles rather than chunks handed out in
  // turn: the threads then work in different row bands, so their reads differ in source
  // column as well (chunks in turn kept both threads in one band).
  const size_t tiles = tiling.count();
  const size_t shares = std::max<size_t>(1, std::min(tiles, ParallelThreadCount()));
  ParallelFor(shares, 1, [&](size_t first_share, size_t end_share) {
    for (size_t unit = first_share * tiles / shares; unit < end_share * tiles / shares; ++unit) {
      const TransposeTile tile = tiling.At(unit);
      const size_t row_count = tile.row_count, column_count = tile.column_count;
      const E *in = static_cast<const E *>(src) + tile.src_offset;
      E *out = static_cast<E *>(dst) + tile.dst_offset;
      const size_t block_rows = row_count / kBlockRows * kBlockRows;
      const size_t block_columns = column_count / kBlockColumns * kBlockColumns;
      // Across each stripe's source rows first: each source row is then read as a stream
      // that advances a line per step (column-first walks were slower: bench/README.md). Stripe k
      // starts k / stripes of the way down the tile's row blocks.
      const size_t row_steps = block_rows / kBlockRows;
      const size_t stripes = (block_columns + kStripeColumns - 1) / kStripeColumns;
      for (size_t step = 0; step < row_steps; ++step) {
        for (size_t stripe = 0; stripe < stripes; ++stripe) {
          const size_t r = (step + stripe * row_steps / stripes) % row_steps * kBlockRows;
          const size_t stripe_end = std::min(block_columns, (stripe + 1) * kStripeColumns);
          for (size_t c = stripe * kStripeColumns; c < stripe_end; c += kBlockColumns) {
            transpose(in + static_cast<ptrdiff_t>(c) * src_column_stride + static_cast<ptrdiff_t>(r), src_column_stride,
                      out + static_cast<ptrdiff_t>(r) * dst_row_stride + static_cast<ptrdiff_t>(c), dst_row_stride);
          }
        }
      }
      for (size_t r = 0; r < row_count; ++r) {
        E *line = out + static_cast<ptrdiff_t>(r) * dst_row_stride;
        for (size_t c = r < block_rows ? block_columns : 0; c < column_count; ++c) {
          line[c] = in[static_cast<ptrdiff_t>(c) * src_column_stride + static_cast<ptrdiff_t>(r)];
        }
      }
    }
    simd::StoreFence();
  });
}

void Run(const RearrangePlan &plan, void *dst, const void *src) {
  if (plan.transpose.active) {
    if (TakesLineTransposes(plan.transpose, plan.element_size, dst)) {
      if (plan.element_size == 4) return CopyTransposedByLines<4>(plan.transpose, dst, src);
      return CopyTransposedByLines<2>(plan.transpose, dst, src);
    }
    switch (plan.element_size) {
      case 1: CopyTransposed<1>(plan.transpose, dst, src); return;
      case 2: CopyTransposed<2>(plan.transpose, dst, src); return;
      case 4: CopyTransposed<4>(plan.transpose, dst, src); return;
      case 8: CopyTransposed<8>(plan.transpose, dst, src); return;
      default: CopyTransposed<16>(plan.transpose, dst, src); return;
    }
  }
  CopyStrided(plan.loop, plan.element_size, dst, src);
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

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(Rearrange)
#endif

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
