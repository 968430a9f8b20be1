// Take: output[i…] = input's element number indices[i…] in row-major order of input's shape,
// read through input's strides (spec section OP-TAKE). Elements are copied as bytes (every
// dtype of 1, 2, 4 or 8 bytes InfiniCore's kernels take); an index outside [0, numel(input))
// writes 0.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/strided_loop.h"
#include "infiniop.h"

namespace infinicts::ref::op {
namespace {

struct TakePlan {
  size_t element_size = 0;
  infiniDtype_t index_dtype;
  StridedLoop<2> loop;  // over indices' shape; operand 0: output, operand 1: indices
  size_t count = 0;     // input's elements
  bool input_row_major = false;
  std::vector<size_t> input_shape;
  std::vector<ptrdiff_t> input_strides;
};

bool TakesDtype(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_F16: case INFINI_DTYPE_BF16: case INFINI_DTYPE_F32: case INFINI_DTYPE_F64:
    case INFINI_DTYPE_I8: case INFINI_DTYPE_U8: case INFINI_DTYPE_I16: case INFINI_DTYPE_U16:
    case INFINI_DTYPE_I32: case INFINI_DTYPE_U32: case INFINI_DTYPE_I64: case INFINI_DTYPE_U64:
      return true;
    default:
      return false;
  }
}

infiniStatus_t MakePlan(const TensorLayout &output, const TensorLayout &input, const TensorLayout &indices,
                        TakePlan *plan) {
  if (!TakesDtype(input.dtype) || output.dtype != input.dtype ||
      (indices.dtype != INFINI_DTYPE_I32 && indices.dtype != INFINI_DTYPE_I64)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (!SameShape(output, indices)) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  if (OverlapsItself(output)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->element_size = DtypeSize(input.dtype);
  plan->index_dtype = indices.dtype;
  plan->loop = StridedLoop<2>(indices.shape, {&output.strides, &indices.strides});
  plan->count = Numel(input);
  plan->input_shape = input.shape;
  plan->input_strides = input.strides;
  plan->input_row_major = IsRowMajor(input);
  return INFINI_STATUS_SUCCESS;
}

// The storage offset (in elements) of input's element number `index` in row-major order.
ptrdiff_t InputOffset(const TakePlan &plan, uint64_t index) {
  if (plan.input_row_major) return static_cast<ptrdiff_t>(index);
  ptrdiff_t offset = 0;
  for (size_t d = plan.input_shape.size(); d-- > 0;) {
    const uint64_t extent = plan.input_shape[d];
    offset += static_cast<ptrdiff_t>(index % extent) * plan.input_strides[d];
    index /= extent;
  }
  return offset;
}

template <class Word, class I>
void RunTyped(const TakePlan &plan, Word *output, const Word *input, const I *indices) {
  plan.loop.ParallelForEach(size_t(1) << 14, [&](size_t, const Offsets<2> &offsets, const Offsets<2> &steps, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const ptrdiff_t at = static_cast<ptrdiff_t>(i);
      const int64_t index = IndexValue(indices[offsets[1] + at * steps[1]]);
      Word *out = output + offsets[0] + at * steps[0];
      if (index < 0 || static_cast<uint64_t>(index) >= plan.count) {
        *out = Word{0};
        continue;
      }
      *out = input[InputOffset(plan, static_cast<uint64_t>(index))];
    }
  });
}

template <class Word>
void RunWords(const TakePlan &plan, void *output, const void *input, const void *indices) {
  if (plan.index_dtype == INFINI_DTYPE_I32) {
    RunTyped(plan, static_cast<Word *>(output), static_cast<const Word *>(input), static_cast<const int32_t *>(indices));
  } else {
    RunTyped(plan, static_cast<Word *>(output), static_cast<const Word *>(input), static_cast<const int64_t *>(indices));
  }
}

void Run(const TakePlan &plan, void *output, const void *input, const void *indices) {
  switch (plan.element_size) {
    case 1: RunWords<uint8_t>(plan, output, input, indices); break;
    case 2: RunWords<uint16_t>(plan, output, input, indices); break;
    case 4: RunWords<uint32_t>(plan, output, input, indices); break;
    default: RunWords<uint64_t>(plan, output, input, indices); break;
  }
}

class TakeDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kTake;

  TakeDescriptor(const InfiniopHandle &handle, std::shared_ptr<const TakePlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *output, const void *input,
                         const void *indices, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    const size_t taken = plan_->loop.numel();
    INFINIOP_RETURN_IF_ERROR(CheckData({{output, taken}, {indices, taken}, {input, taken > 0 ? plan_->count : 0}}));
    std::shared_ptr<const TakePlan> plan = plan_;
    return Launch(*this, stream, [=] { Run(*plan, output, input, indices); });
  }

 private:
  std::shared_ptr<const TakePlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateTakeDescriptor(infiniopHandle_t handle, infiniopTakeDescriptor_t *desc_ptr,
                                                       infiniopTensorDescriptor_t output,
                                                       infiniopTensorDescriptor_t input,
                                                       infiniopTensorDescriptor_t indices) {
  return CreateDescriptor(handle, desc_ptr, {output, input, indices},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<TakePlan>();
                            INFINIOP_RETURN_IF_ERROR(MakePlan(*output, *input, *indices, plan.get()));
                            made->reset(new TakeDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopGetTakeWorkspaceSize(infiniopTakeDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<TakeDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopTake(infiniopTakeDescriptor_t desc, void *workspace, size_t workspace_size,
                                       void *output, const void *input, const void *indices, void *stream) {
  TakeDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, output, input, indices, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyTakeDescriptor(infiniopTakeDescriptor_t desc) {
  return DestroyDescriptor<TakeDescriptor>(desc);
}
