// Rearrange: dst = src element by element, between two layouts of one shape and one
// dtype (any dtype: elements are copied as bytes).
#include <cstring>
#include <memory>

#include "core/api.h"
#include "core/dtype.h"
#include "core/strided_loop.h"
#include "infiniop/ops/rearrange.h"

namespace infinicts::ref::op {
namespace {

struct RearrangePlan {
  size_t element_size = 0;
  StridedLoop<2> loop;  // operand 0: dst, operand 1: src (strides in elements)
};

template <size_t Bytes>
struct Element {
  unsigned char bytes[Bytes];
};

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
