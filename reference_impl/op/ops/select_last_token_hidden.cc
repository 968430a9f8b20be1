// SelectLastTokenHidden: for each request r of a packed batch, output[0, r, :] = the hidden
// state of its last token, hidden_states' token t = input_offsets[r + 1] − 1 (tokens counted
// over batch · seq). Rows are copied whole (memcpy) when the hidden dim is contiguous in
// both tensors, else element by element; requests spread over the pool. An offset outside
// the tokens (a caller's broken promise) leaves that output row untouched. On NVIDIA:
// cuda/select_last_token_hidden.h.
#include <cstring>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"
#ifdef INFINIOP_WITH_CUDA
#include "cuda/select_last_token_hidden.h"
#endif

namespace infinicts::ref::op {
namespace {

struct SelectLastTokenHiddenPlan {
  size_t element_bytes = 0;
  infiniDtype_t offsets_dtype = INFINI_DTYPE_I32;
  size_t requests = 0, seq = 0, tokens = 0, hidden = 0;
  ptrdiff_t out_request_step = 0, out_hidden_step = 0;          // output [1, requests, hidden]
  ptrdiff_t in_batch_step = 0, in_seq_step = 0, in_hidden_step = 0;  // hidden_states [batch, seq, hidden]
  ptrdiff_t offsets_step = 1;
#ifdef INFINIOP_WITH_CUDA
  cuda::SelectLastTokenGeometry device;  // the same, for the CUDA path
#endif
};

infiniStatus_t MakePlan(const TensorLayout &output, const TensorLayout &hidden, const TensorLayout &offsets,
                        SelectLastTokenHiddenPlan *plan) {
  if (!IsFloatDtype(hidden.dtype) || output.dtype != hidden.dtype ||
      (offsets.dtype != INFINI_DTYPE_I32 && offsets.dtype != INFINI_DTYPE_I64)) {
    return INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  if (output.ndim() != 3 || hidden.ndim() != 3 || offsets.ndim() != 1 || offsets.shape[0] < 2 ||
      output.shape[0] != 1 || output.shape[1] != offsets.shape[0] - 1 || output.shape[2] != hidden.shape[2]) {
    return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(output)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->element_bytes = DtypeSize(hidden.dtype);
  plan->offsets_dtype = offsets.dtype;
  plan->requests = output.shape[1];
  plan->seq = hidden.shape[1];
  plan->tokens = hidden.shape[0] * hidden.shape[1];
  plan->hidden = hidden.shape[2];
  plan->out_request_step = output.strides[1];
  plan->out_hidden_step = output.strides[2];
  plan->in_batch_step = hidden.strides[0];
  plan->in_seq_step = hidden.strides[1];
  plan->in_hidden_step = hidden.strides[2];
  plan->offsets_step = offsets.strides[0];
#ifdef INFINIOP_WITH_CUDA
  cuda::SelectLastTokenGeometry &g = plan->device;
  g.requests = static_cast<int64_t>(plan->requests), g.seq = static_cast<int64_t>(plan->seq);
  g.tokens = static_cast<int64_t>(plan->tokens), g.hidden = static_cast<int64_t>(plan->hidden);
  g.out_request = plan->out_request_step, g.out_hidden = plan->out_hidden_step;
  g.in_batch = plan->in_batch_step, g.in_seq = plan->in_seq_step, g.in_hidden = plan->in_hidden_step;
  g.offsets_step = plan->offsets_step, g.offsets_64 = offsets.dtype == INFINI_DTYPE_I64 ? 1 : 0;
#endif
  return INFINI_STATUS_SUCCESS;
}

template <class I>
void Run(const SelectLastTokenHiddenPlan &plan, void *output, const void *hidden_states, const I *offsets) {
  const size_t bytes = plan.element_bytes;
  const bool whole_rows = plan.out_hidden_step == 1 && plan.in_hidden_step == 1;
  ParallelFor(plan.requests, 1, [&](size_t first, size_t last) {
    for (size_t r = first; r < last; ++r) {
      const int64_t token = IndexValue(offsets[static_cast<ptrdiff_t>(r + 1) * plan.offsets_step]) - 1;
      if (token < 0 || static_cast<size_t>(token) >= plan.tokens) continue;
      const size_t t = static_cast<size_t>(token);
      const ptrdiff_t from = static_cast<ptrdiff_t>(t / plan.seq) * plan.in_batch_step +
                             static_cast<ptrdiff_t>(t % plan.seq) * plan.in_seq_step;
      const ptrdiff_t to = static_cast<ptrdiff_t>(r) * plan.out_request_step;
      const auto *source = static_cast<const unsigned char *>(hidden_states) + from * static_cast<ptrdiff_t>(bytes);
      auto *target = static_cast<unsigned char *>(output) + to * static_cast<ptrdiff_t>(bytes);
      if (whole_rows) {
        std::memcpy(target, source, plan.hidden * bytes);
        continue;
      }
      for (size_t j = 0; j < plan.hidden; ++j) {
        const ptrdiff_t jj = static_cast<ptrdiff_t>(j);
        std::memcpy(target + jj * plan.out_hidden_step * static_cast<ptrdiff_t>(bytes),
                    source + jj * plan.in_hidden_step * static_cast<ptrdiff_t>(bytes), bytes);
      }
    }
  });
}

class SelectLastTokenHiddenDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kSelectLastTokenHidden;

  SelectLastTokenHiddenDescriptor(const InfiniopHandle &handle, std::shared_ptr<const SelectLastTokenHiddenPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *output, const void *hidden_states, const void *offsets, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckData({{output, plan_->requests * plan_->hidden},
                                        {hidden_states, plan_->tokens * plan_->hidden},
                                        {offsets, plan_->requests + 1}}));
#ifdef INFINIOP_WITH_CUDA
    if (device_type == INFINI_DEVICE_NVIDIA) {
      return cuda::SelectLastTokenHidden(*this, plan_->device, plan_->element_bytes, output, hidden_states, offsets,
                                         stream);
    }
#endif
    std::shared_ptr<const SelectLastTokenHiddenPlan> plan = plan_;
    return Launch(*this, stream, [plan, output, hidden_states, offsets] {
      if (plan->offsets_dtype == INFINI_DTYPE_I32) {
        Run(*plan, output, hidden_states, static_cast<const int32_t *>(offsets));
      } else {
        Run(*plan, output, hidden_states, static_cast<const int64_t *>(offsets));
      }
    });
  }

 private:
  std::shared_ptr<const SelectLastTokenHiddenPlan> plan_;
};

#ifdef INFINIOP_WITH_CUDA
INFINIOP_CUDA_PATH(SelectLastTokenHidden)
#endif

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreateSelectLastTokenHiddenDescriptor(
    infiniopHandle_t handle, infiniopSelectLastTokenHiddenDescriptor_t *desc_ptr, infiniopTensorDescriptor_t output_desc,
    infiniopTensorDescriptor_t hidden_states_desc, infiniopTensorDescriptor_t input_offsets_desc) {
  return CreateDescriptor(handle, desc_ptr, {output_desc, hidden_states_desc, input_offsets_desc},
                          [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
                            auto plan = std::make_shared<SelectLastTokenHiddenPlan>();
                            INFINIOP_RETURN_IF_ERROR(
                                MakePlan(*output_desc, *hidden_states_desc, *input_offsets_desc, plan.get()));
                            made->reset(new SelectLastTokenHiddenDescriptor(h, std::move(plan)));
                            return INFINI_STATUS_SUCCESS;
                          });
}

__INFINI_C infiniStatus_t infiniopSelectLastTokenHidden(infiniopSelectLastTokenHiddenDescriptor_t desc, void *output,
                                                        const void *hidden_states, const void *input_offsets,
                                                        void *stream) {
  SelectLastTokenHiddenDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(output, hidden_states, input_offsets, stream);
}

__INFINI_C infiniStatus_t infiniopDestroySelectLastTokenHiddenDescriptor(infiniopSelectLastTokenHiddenDescriptor_t desc) {
  return DestroyDescriptor<SelectLastTokenHiddenDescriptor>(desc);
}
