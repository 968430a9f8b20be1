// C++ only: the elementwise operators of operators.def (shapes SAME_SHAPE, create-time
// attributes and run-time scalars none), for programs linked against libinfiniop.so (the
// bench, the CUDA smoke test), so that each of them covers a new elementwise row unedited.
// Every tensor of such an operator has the output's shape; the output comes first.
#ifndef INFINICTS_INFINIOP_SAME_SHAPE_OPERATORS_HPP
#define INFINICTS_INFINIOP_SAME_SHAPE_OPERATORS_HPP

#include <cstddef>
#include <utility>
#include <vector>

#include "../infiniop.h"

namespace infiniop_same_shape {

struct Operator {
  const char *subject;  // "add"
  size_t inputs;        // tensors after the output
  // tensors[0] is the output; the descriptors and data follow the create call's order.
  infiniStatus_t (*create)(infiniopHandle_t, InfiniopDescriptor **, const std::vector<infiniopTensorDescriptor_t> &);
  infiniStatus_t (*workspace_size)(InfiniopDescriptor *, size_t *);  // 0 bytes without workspace functions
  infiniStatus_t (*compute)(InfiniopDescriptor *, void *, size_t, const std::vector<void *> &, void *);
  infiniStatus_t (*destroy)(InfiniopDescriptor *);
};

namespace detail {

template <class... Ps, size_t... I>
infiniStatus_t Create(infiniStatus_t (*create)(infiniopHandle_t, InfiniopDescriptor **, Ps...), infiniopHandle_t handle,
                      InfiniopDescriptor **desc, const std::vector<infiniopTensorDescriptor_t> &tensors,
                      std::index_sequence<I...>) {
  return create(handle, desc, tensors.at(I)...);
}
template <class... Ps>
constexpr size_t Count(infiniStatus_t (*)(infiniopHandle_t, InfiniopDescriptor **, Ps...)) {
  return sizeof...(Ps);
}

// With workspace functions: compute(desc, workspace, size, data..., stream).
template <class... As, size_t... I>
infiniStatus_t ComputeWithWorkspace(infiniStatus_t (*compute)(InfiniopDescriptor *, void *, size_t, As...),
                                    InfiniopDescriptor *desc, void *workspace, size_t size,
                                    const std::vector<void *> &data, void *stream, std::index_sequence<I...>) {
  return compute(desc, workspace, size, data.at(I)..., stream);
}
// Without: compute(desc, data..., stream).
template <class... As, size_t... I>
infiniStatus_t ComputeWithoutWorkspace(infiniStatus_t (*compute)(InfiniopDescriptor *, As...), InfiniopDescriptor *desc,
                                       const std::vector<void *> &data, void *stream, std::index_sequence<I...>) {
  return compute(desc, data.at(I)..., stream);
}

inline infiniStatus_t NoWorkspace(InfiniopDescriptor *, size_t *size) {
  *size = 0;
  return INFINI_STATUS_SUCCESS;
}

#define INFINIOP_SAME_SHAPE_WORKSPACE_WORKSPACE(Name) &infiniopGet##Name##WorkspaceSize
#define INFINIOP_SAME_SHAPE_WORKSPACE_NO_WORKSPACE(Name) &detail::NoWorkspace
#define INFINIOP_SAME_SHAPE_COMPUTE_WORKSPACE(Name, tensors)                                                     \
  [](InfiniopDescriptor *desc, void *workspace, size_t size, const std::vector<void *> &data, void *stream) { \
    return detail::ComputeWithWorkspace(&infiniop##Name, desc, workspace, size, data, stream,              \
                                        std::make_index_sequence<tensors>());                              \
  }
#define INFINIOP_SAME_SHAPE_COMPUTE_NO_WORKSPACE(Name, tensors)                                    \
  [](InfiniopDescriptor *desc, void *, size_t, const std::vector<void *> &data, void *stream) { \
    return detail::ComputeWithoutWorkspace(&infiniop##Name, desc, data, stream,                 \
                                           std::make_index_sequence<tensors>());                \
  }
#define INFINIOP_SAME_SHAPE_ROW_OWN_SHAPES(Name, subject, workspace)
#define INFINIOP_SAME_SHAPE_ROW_SAME_SHAPE(Name, subject, workspace)                                              \
  {#subject, detail::Count(&infiniopCreate##Name##Descriptor) - 1,                                                \
   [](infiniopHandle_t handle, InfiniopDescriptor **desc, const std::vector<infiniopTensorDescriptor_t> &tensors) { \
     return detail::Create(&infiniopCreate##Name##Descriptor, handle, desc, tensors,                              \
                           std::make_index_sequence<detail::Count(&infiniopCreate##Name##Descriptor)>());         \
   },                                                                                                             \
   INFINIOP_SAME_SHAPE_WORKSPACE_##workspace(Name),                                                               \
   INFINIOP_SAME_SHAPE_COMPUTE_##workspace(Name, detail::Count(&infiniopCreate##Name##Descriptor)),               \
   &infiniopDestroy##Name##Descriptor},

}  // namespace detail

// Every SAME_SHAPE row, in the table's order.
inline const std::vector<Operator> &Operators() {
  static const std::vector<Operator> operators = {
#define OPERATOR(Name, subject, shapes, workspace, ...) INFINIOP_SAME_SHAPE_ROW_##shapes(Name, subject, workspace)
#include "operators.def"
#undef OPERATOR
  };
  return operators;
}

#undef INFINIOP_SAME_SHAPE_ROW_SAME_SHAPE
#undef INFINIOP_SAME_SHAPE_ROW_OWN_SHAPES
#undef INFINIOP_SAME_SHAPE_COMPUTE_NO_WORKSPACE
#undef INFINIOP_SAME_SHAPE_COMPUTE_WORKSPACE
#undef INFINIOP_SAME_SHAPE_WORKSPACE_NO_WORKSPACE
#undef INFINIOP_SAME_SHAPE_WORKSPACE_WORKSPACE

}  // namespace infiniop_same_shape

#endif  // INFINICTS_INFINIOP_SAME_SHAPE_OPERATORS_HPP
