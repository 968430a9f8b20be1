// Pad: torch.nn.functional.pad (spec section OP-PAD): `pad` holds pad_size bytes of int (before,
// after) pairs from the last dim backwards; outside x, "constant" (or a NULL mode) writes value,
// "replicate" the nearest edge element, "reflect" the mirror image without the edge, "circular"
// the element wrapped around (any width). Each dim's output positions are mapped to x's once, at
// create; compute walks y's rows and copies through the last dim's map.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/api.h"
#include "core/dtype.h"
#include "core/parallel.h"
#include "infiniop.h"

namespace infinicts::ref::op {
namespace {

enum class PadMode { kConstant, kReflect, kReplicate, kCircular };

struct PadPlan {
  infiniDtype_t dtype;
  std::vector<size_t> y_shape;
  std::vector<ptrdiff_t> y_strides, x_strides;
  std::vector<std::vector<int64_t>> source;  // per dim, per output position: x's position or -1
  double value = 0;
  size_t x_count = 0, y_count = 0;
};

bool ParseMode(const char *text, PadMode *mode) {
  const std::string name = text == nullptr ? "constant" : text;
  if (name == "constant") *mode = PadMode::kConstant;
  else if (name == "reflect") *mode = PadMode::kReflect;
  else if (name == "replicate") *mode = PadMode::kReplicate;
  else if (name == "circular") *mode = PadMode::kCircular;
  else return false;
  return true;
}

int64_t SourceOf(int64_t i, int64_t n, PadMode mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case PadMode::kConstant: return -1;
    case PadMode::kReplicate: return i < 0 ? 0 : n - 1;
    case PadMode::kCircular: return ((i % n) + n) % n;
    case PadMode::kReflect: return i < 0 ? -i : 2 * (n - 1) - i;
  }
  return -1;
}

infiniStatus_t MakePlan(const TensorLayout &y, const TensorLayout &x, const void *pad, size_t pad_size,
                        const char *mode_text, double value, PadPlan *plan) {
  if (!IsFloatDtype(x.dtype) || y.dtype != x.dtype) return INFINI_STATUS_BAD_TENSOR_DTYPE;
  const size_t ndim = x.ndim();
  const size_t pair_bytes = 2 * sizeof(int);
  if (pad_size == 0 || pad_size % pair_bytes != 0 || pad_size / pair_bytes > ndim || pad == nullptr) {
    return INFINI_STATUS_BAD_PARAM;
  }
  PadMode mode;
  if (!ParseMode(mode_text, &mode)) return INFINI_STATUS_BAD_PARAM;
  std::vector<int> pads(pad_size / sizeof(int));
  std::memcpy(pads.data(), pad, pad_size);
  std::vector<int64_t> before(ndim, 0), after(ndim, 0);
  for (size_t j = 0; j < pads.size() / 2; ++j) {
    const size_t d = ndim - 1 - j;
    before[d] = pads[2 * j];
    after[d] = pads[2 * j + 1];
    const int64_t n = static_cast<int64_t>(x.shape[d]);
    if (before[d] < 0 || after[d] < 0) return INFINI_STATUS_BAD_PARAM;
    const bool padded = before[d] + after[d] > 0;
    if (padded && mode == PadMode::kReflect && (before[d] >= n || after[d] >= n)) return INFINI_STATUS_BAD_PARAM;
    if (padded && mode != PadMode::kConstant && n == 0) return INFINI_STATUS_BAD_PARAM;
  }
  if (y.ndim() != ndim) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  for (size_t d = 0; d < ndim; ++d) {
    if (y.shape[d] != x.shape[d] + static_cast<size_t>(before[d] + after[d])) return INFINI_STATUS_BAD_TENSOR_SHAPE;
  }
  if (OverlapsItself(y)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  plan->dtype = x.dtype;
  plan->y_shape = y.shape;
  plan->y_strides = y.strides;
  plan->x_strides = x.strides;
  plan->value = value;
  plan->x_count = Numel(x);
  plan->y_count = Numel(y);
  plan->source.resize(ndim);
  for (size_t d = 0; d < ndim; ++d) {
    for (size_t i = 0; i < y.shape[d]; ++i) {
      plan->source[d].push_back(SourceOf(static_cast<int64_t>(i) - before[d], static_cast<int64_t>(x.shape[d]), mode));
    }
  }
  return INFINI_STATUS_SUCCESS;
}

template <class T>
void RunTyped(const PadPlan &plan, void *y_data, const void *x_data) {
  const T fill = Num<T>::Store(static_cast<typename Num<T>::Compute>(plan.value));
  const T *x = static_cast<const T *>(x_data);
  T *y = static_cast<T *>(y_data);
  const size_t ndim = plan.y_shape.size();
  if (ndim == 0) {
    *y = *x;
    return;
  }
  const size_t last = ndim - 1, width = plan.y_shape[last];
  const size_t rows = width == 0 ? 0 : plan.y_count / width;
  const std::vector<int64_t> &columns = plan.source[last];
  ParallelFor(rows, std::max<size_t>(1, (size_t(1) << 14) / std::max<size_t>(1, width)), [&](size_t begin, size_t end) {
    for (size_t row = begin; row < end; ++row) {
      ptrdiff_t y_offset = 0, x_offset = 0;
      bool inside = true;
      size_t rest = row;
      for (size_t d = last; d-- > 0;) {
        const size_t i = rest % plan.y_shape[d];
        rest /= plan.y_shape[d];
        y_offset += static_cast<ptrdiff_t>(i) * plan.y_strides[d];
        const int64_t source = plan.source[d][i];
        inside = inside && source >= 0;
        x_offset += static_cast<ptrdiff_t>(source) * plan.x_strides[d];
      }
      T *out = y + y_offset;
      const ptrdiff_t y_step = plan.y_strides[last], x_step = plan.x_strides[last];
      for (size_t c = 0; c < width; ++c) {
        const int64_t source = columns[c];
        out[static_cast<ptrdiff_t>(c) * y_step] =
            inside && source >= 0 ? x[x_offset + static_cast<ptrdiff_t>(source) * x_step] : fill;
      }
    }
  });
}

void Run(const PadPlan &plan, void *y, const void *x) {
  DispatchFloat(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    RunTyped<T>(plan, y, x);
  });
}

class PadDescriptor final : public InfiniopDescriptor {
 public:
  static constexpr OpKind kKind = OpKind::kPad;

  PadDescriptor(const InfiniopHandle &handle, std::shared_ptr<const PadPlan> plan)
      : InfiniopDescriptor(kKind, handle), plan_(std::move(plan)) {}

  infiniStatus_t Compute(void *workspace, size_t workspace_size_given, void *y, const void *x, void *stream) const {
    INFINIOP_RETURN_IF_ERROR(CheckWorkspace(*this, workspace, workspace_size_given));
    INFINIOP_RETURN_IF_ERROR(CheckData({{y, plan_->y_count}, {x, plan_->y_count > 0 ? plan_->x_count : 0}}));
    std::shared_ptr<const PadPlan> plan = plan_;
    return Launch(*this, stream, [plan, y, x] { Run(*plan, y, x); });
  }

 private:
  std::shared_ptr<const PadPlan> plan_;
};

}  // namespace
}  // namespace infinicts::ref::op

using namespace infinicts::ref::op;

__INFINI_C infiniStatus_t infiniopCreatePadDescriptor(infiniopHandle_t handle, infiniopPadDescriptor_t *desc_ptr,
                                                      infiniopTensorDescriptor_t y, infiniopTensorDescriptor_t x,
                                                      void *pad, size_t pad_size, const char *mode, double value) {
  return CreateDescriptor(handle, desc_ptr, {y, x}, [&](const InfiniopHandle &h, std::unique_ptr<InfiniopDescriptor> *made) {
    auto plan = std::make_shared<PadPlan>();
    INFINIOP_RETURN_IF_ERROR(MakePlan(*y, *x, pad, pad_size, mode, value, plan.get()));
    made->reset(new PadDescriptor(h, std::move(plan)));
    return INFINI_STATUS_SUCCESS;
  });
}

__INFINI_C infiniStatus_t infiniopGetPadWorkspaceSize(infiniopPadDescriptor_t desc, size_t *size) {
  return GetWorkspaceSize<PadDescriptor>(desc, size);
}

__INFINI_C infiniStatus_t infiniopPad(infiniopPadDescriptor_t desc, void *workspace, size_t workspace_size, void *y,
                                      const void *x, void *stream) {
  PadDescriptor *self = nullptr;
  INFINIOP_RETURN_IF_ERROR(CastDescriptor(desc, &self));
  return self->Compute(workspace, workspace_size, y, x, stream);
}

__INFINI_C infiniStatus_t infiniopDestroyPadDescriptor(infiniopPadDescriptor_t desc) {
  return DestroyDescriptor<PadDescriptor>(desc);
}
