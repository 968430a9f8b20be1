// C++ only: the elementwise operators of operators.def (shapes SAME_SHAPE) that take no
// create-time attributes and no run-time scalars, for programs linked against libinfiniop.so (the
// bench, the CUDA smoke test), so that each of them covers a new elementwise row unedited.
// Every tensor of such an operator has the output's shape; the output comes first.
#ifndef INFINICTS_INFINIOP_SAME_SHAPE_OPERATORS_HPP
#define INFINICTS_INFINIOP_SAME_SHAPE_OPERATORS_HPP

#include <cstddef>
#include <type_traits>
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

template <class... Ps>
constexpr size_t Count(infiniStatus_t (*)(infiniopHandle_t, InfiniopDescriptor **, Ps...)) {
  return sizeof...(Ps);
}
// Whether every create parameter is a tensor descriptor (no create-time attributes).
template <class... Ps>
constexpr bool TensorsOnly(infiniStatus_t (*)(infiniopHandle_t, InfiniopDescriptor **, Ps...)) {
  return (std::is_same_v<Ps, infiniopTensorDescriptor_t> && ...);
}

template <auto kCreate, size_t... I>
infiniStatus_t Create(infiniopHandle_t handle, InfiniopDescriptor **desc,
                      const std::vector<infiniopTensorDescriptor_t> &tensors, std::index_sequence<I...>) {
  return kCreate(handle, desc, tensors.at(I)...);
}
template <auto kCreate>
infiniStatus_t CreateFrom(infiniopHandle_t handle, InfiniopDescriptor **desc,
                          const std::vector<infiniopTensorDescriptor_t> &tensors) {
  return Create<kCreate>(handle, desc, tensors, std::make_index_sequence<Count(kCreate)>());
}

// With workspace functions: compute(desc, workspace, size, data..., stream); without:
// compute(desc, data..., stream).
template <auto kCompute, bool kWorkspace, size_t... I>
infiniStatus_t Compute(InfiniopDescriptor *desc, void *workspace, size_t size, const std::vector<void *> &data,
                       void *stream, std::index_sequence<I...>) {
  if constexpr (kWorkspace) {
    return kCompute(desc, workspace, size, data.at(I)..., stream);
  } else {
    return kCompute(desc, data.at(I)..., stream);
  }
}
template <auto kCompute, bool kWorkspace, size_t kTensors>
infiniStatus_t ComputeOn(InfiniopDescriptor *desc, void *workspace, size_t size, const std::vector<void *> &data,
                         void *stream) {
  return Compute<kCompute, kWorkspace>(desc, workspace, size, data, stream, std::make_index_sequence<kTensors>());
}

inline infiniStatus_t NoWorkspace(InfiniopDescriptor *, size_t *size) {
  *size = 0;
  return INFINI_STATUS_SUCCESS;
}

// Adds the row unless its create call takes attributes (Softplus' beta and threshold): the
// callers know no values for them.
template <auto kCreate, auto kWorkspaceSize, auto kCompute, auto kDestroy, bool kWorkspace>
void AddWithoutAttributes(std::vector<Operator> &operators, const char *subject) {
  if constexpr (TensorsOnly(kCreate)) {
    operators.push_back({subject, Count(kCreate) - 1, &CreateFrom<kCreate>, kWorkspaceSize,
                         &ComputeOn<kCompute, kWorkspace, Count(kCreate)>, kDestroy});
  }
}

}  // namespace detail

// Every SAME_SHAPE row without create-time attributes, in the table's order.
inline const std::vector<Operator> &Operators() {
  static const std::vector<Operator> operators = [] {
    std::vector<Operator> rows;
#define INFINIOP_SAME_SHAPE_WORKSPACE_WORKSPACE(Name) &infiniopGet##Name##WorkspaceSize, &infiniop##Name, \
                                                      &infiniopDestroy##Name##Descriptor, true
#define INFINIOP_SAME_SHAPE_WORKSPACE_NO_WORKSPACE(Name) &detail::NoWorkspace, &infiniop##Name, \
                                                         &infiniopDestroy##Name##Descriptor, false
#define INFINIOP_SAME_SHAPE_ROW_OWN_SHAPES(Name, subject, workspace)
#define INFINIOP_SAME_SHAPE_ROW_SAME_SHAPE(Name, subject, workspace)                                       \
  detail::AddWithoutAttributes<&infiniopCreate##Name##Descriptor, INFINIOP_SAME_SHAPE_WORKSPACE_##workspace(Name)>( \
      rows, #subject);
#define OPERATOR(Name, subject, shapes, workspace, ...) INFINIOP_SAME_SHAPE_ROW_##shapes(Name, subject, workspace)
#include "operators.def"
#undef OPERATOR
#undef INFINIOP_SAME_SHAPE_ROW_SAME_SHAPE
#undef INFINIOP_SAME_SHAPE_ROW_OWN_SHAPES
#undef INFINIOP_SAME_SHAPE_WORKSPACE_NO_WORKSPACE
#undef INFINIOP_SAME_SHAPE_WORKSPACE_WORKSPACE
    return rows;
  }();
  return operators;
}

}  // namespace infiniop_same_shape

#endif  // INFINICTS_INFINIOP_SAME_SHAPE_OPERATORS_HPP
