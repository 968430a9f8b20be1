// An operator's backend calls (OpCalls), made from its row of include/infiniop/operators.def,
// so that no operator file spells out its create / workspace / compute / destroy calls:
//
//   OperatorCalls<api::RMSNorm>(std::make_tuple(epsilon))                   // create-time attributes
//   OperatorCalls<api::Gemm>(std::tuple<>(), std::make_tuple(alpha, beta))  // run-time scalars
//
// The create call gets the tensor descriptors in spec order where its signature takes one,
// and the attributes, in order, everywhere else; compute gets the data pointers in spec order
// where it takes `void *` or `const void *`, and the scalars, in order, everywhere else.
// The tuples must hold exactly as many values as the signature has such parameters.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/op_case.h"
#include "cts/case.h"

namespace infinicts::op_cases {

// One struct per operator row: api::<Name>, with its subject and its four (or three) calls
// in the loaded backend's table.
namespace api {
// A WORKSPACE_OF(Owner) row's query and destroy are Owner's.
#define INFINICTS_DROP_NAME(...)
#define INFINICTS_HAS_WORKSPACE true
#define INFINICTS_HAS_NO_WORKSPACE false
#define INFINICTS_HAS_WORKSPACE_OF(Owner) true
#define INFINICTS_WORKSPACE_QUERY_WORKSPACE(Name) \
  static auto WorkspaceSize() { return cts::op().infiniopGet##Name##WorkspaceSize; }
#define INFINICTS_WORKSPACE_QUERY_NO_WORKSPACE(Name)
#define INFINICTS_WORKSPACE_QUERY_WORKSPACE_OF(Owner) INFINICTS_WORKSPACE_QUERY_WORKSPACE(Owner) INFINICTS_DROP_NAME
#define INFINICTS_DESTROY_OF_WORKSPACE(Name) infiniopDestroy##Name##Descriptor
#define INFINICTS_DESTROY_OF_NO_WORKSPACE(Name) infiniopDestroy##Name##Descriptor
#define INFINICTS_DESTROY_OF_WORKSPACE_OF(Owner) INFINICTS_DESTROY_OF_WORKSPACE(Owner) INFINICTS_DROP_NAME
#define OPERATOR(Name, subject, shapes, workspace, optional_data, create_params, create_args, data_params, \
                 data_args)                                                                                    \
  struct Name {                                                               \
    static constexpr const char *kSubject = #subject;                         \
    static constexpr const char *kDataArguments = #data_args;                 \
    static constexpr bool kHasWorkspace = INFINICTS_HAS_##workspace;          \
    static auto Create() { return cts::op().infiniopCreate##Name##Descriptor; } \
    INFINICTS_WORKSPACE_QUERY_##workspace(Name)                               \
    static auto Compute() { return cts::op().infiniop##Name; }                \
    static auto Destroy() { return cts::op().INFINICTS_DESTROY_OF_##workspace(Name); } \
  };
#include "infiniop/operators.def"
#undef OPERATOR
#undef INFINICTS_DESTROY_OF_WORKSPACE_OF
#undef INFINICTS_DESTROY_OF_NO_WORKSPACE
#undef INFINICTS_DESTROY_OF_WORKSPACE
#undef INFINICTS_WORKSPACE_QUERY_WORKSPACE_OF
#undef INFINICTS_WORKSPACE_QUERY_NO_WORKSPACE
#undef INFINICTS_WORKSPACE_QUERY_WORKSPACE
#undef INFINICTS_HAS_WORKSPACE_OF
#undef INFINICTS_HAS_NO_WORKSPACE
#undef INFINICTS_HAS_WORKSPACE
#undef INFINICTS_DROP_NAME
}  // namespace api

// A create-time attribute passed as a pointer to an array (Conv's pads, strides and
// dilations): the values live as long as the calls do; an empty array passes NULL.
template <class T>
class AttributeArray {
 public:
  explicit AttributeArray(std::vector<T> values) : values_(std::make_shared<std::vector<T>>(std::move(values))) {}
  explicit operator void *() const { return values_->empty() ? nullptr : values_->data(); }
  // A typed array parameter (Sum's `size_t *dim`), at create or at compute.
  explicit operator T *() const { return values_->empty() ? nullptr : values_->data(); }

 private:
  std::shared_ptr<std::vector<T>> values_;
};

namespace calls_detail {

template <class T>
struct IsTensorDescriptor : std::is_same<T, infiniopTensorDescriptor_t> {};

template <class D, class... Ps>
constexpr bool TensorsOnly(infiniStatus_t (*)(infiniopHandle_t, D *, Ps...)) {
  return (IsTensorDescriptor<Ps>::value && ...);
}
// Whether Api's create call takes tensor descriptors only (no create-time attributes).
template <class Api>
constexpr bool TensorsOnlyCreate() {
  return TensorsOnly(decltype(Api::Create()){});
}
template <class T>
struct IsData : std::bool_constant<std::is_same_v<T, void *> || std::is_same_v<T, const void *>> {};

// How many of Ts[from, until) satisfy Is.
template <template <class> class Is, class... Ts>
constexpr size_t CountIn(size_t from, size_t until) {
  constexpr bool hits[] = {false, Is<Ts>::value...};
  size_t count = 0;
  for (size_t i = from; i < until; ++i) count += hits[i + 1] ? 1 : 0;
  return count;
}

template <size_t I, class... Ps, class Attributes>
auto CreateArgument(const TensorDescriptors &tensors, const Attributes &attributes) {
  using P = std::tuple_element_t<I, std::tuple<Ps...>>;
  constexpr size_t descriptors_before = CountIn<IsTensorDescriptor, Ps...>(0, I);
  if constexpr (IsTensorDescriptor<P>::value) {
    return tensors.at(descriptors_before);
  } else {
    return static_cast<P>(std::get<I - descriptors_before>(attributes));
  }
}

template <class... Ps, class Attributes, size_t... I>
infiniStatus_t Create(infiniStatus_t (*create)(infiniopHandle_t, OpDescriptor *, Ps...), infiniopHandle_t handle,
                      OpDescriptor *desc, const TensorDescriptors &tensors, const Attributes &attributes,
                      std::index_sequence<I...>) {
  constexpr size_t descriptors = CountIn<IsTensorDescriptor, Ps...>(0, sizeof...(Ps));
  static_assert(sizeof...(Ps) - descriptors == std::tuple_size_v<Attributes>,
                "one create-time attribute for every create parameter that is not a tensor descriptor");
  if (tensors.size() != descriptors) {
    throw std::logic_error("the create call takes " + std::to_string(descriptors) + " tensor descriptors, the specs give " +
                           std::to_string(tensors.size()));
  }
  return create(handle, desc, CreateArgument<I, Ps...>(tensors, attributes)...);
}

// Compute's parameters after desc: [workspace, workspace_size,] data and scalars, stream.
template <bool kWorkspace, size_t I, class... As, class Scalars>
auto ComputeArgument(void *workspace, size_t workspace_size, const std::vector<void *> &data, void *stream,
                     const Scalars &scalars) {
  using A = std::tuple_element_t<I, std::tuple<As...>>;
  constexpr size_t first = kWorkspace ? 2 : 0;
  if constexpr (I + 1 == sizeof...(As)) {
    return stream;
  } else if constexpr (kWorkspace && I == 0) {
    return workspace;
  } else if constexpr (kWorkspace && I == 1) {
    return workspace_size;
  } else {
    constexpr size_t data_before = CountIn<IsData, As...>(first, I);
    if constexpr (IsData<A>::value) {
      return static_cast<A>(data.at(data_before));
    } else {
      return static_cast<A>(std::get<I - first - data_before>(scalars));
    }
  }
}

template <bool kWorkspace, class... As, class Scalars, size_t... I>
infiniStatus_t Compute(infiniStatus_t (*compute)(OpDescriptor, As...), OpDescriptor desc, void *workspace,
                       size_t workspace_size, const std::vector<void *> &data, void *stream, const Scalars &scalars,
                       std::index_sequence<I...>) {
  constexpr size_t first = kWorkspace ? 2 : 0, last = sizeof...(As) - 1;
  constexpr size_t pointers = CountIn<IsData, As...>(first, last);
  static_assert(last - first - pointers == std::tuple_size_v<Scalars>,
                "one run-time scalar for every compute parameter that is not a data pointer");
  if (data.size() != pointers) {
    throw std::logic_error("the compute call takes " + std::to_string(pointers) + " data pointers, the specs give " +
                           std::to_string(data.size()));
  }
  return compute(desc, ComputeArgument<kWorkspace, I, As...>(workspace, workspace_size, data, stream, scalars)...);
}

template <class... Ps>
constexpr size_t CreateParameters(infiniStatus_t (*)(infiniopHandle_t, OpDescriptor *, Ps...)) {
  return sizeof...(Ps);
}
template <class... As>
constexpr size_t ComputeParameters(infiniStatus_t (*)(OpDescriptor, As...)) {
  return sizeof...(As);
}

}  // namespace calls_detail

template <class Op, class Attributes = std::tuple<>, class Scalars = std::tuple<>>
OpCalls OperatorCalls(Attributes attributes = {}, Scalars scalars = {}) {
  using calls_detail::ComputeParameters;
  using calls_detail::CreateParameters;
  constexpr size_t create_parameters = CreateParameters(decltype(Op::Create()){});
  constexpr size_t compute_parameters = ComputeParameters(decltype(Op::Compute()){});
  OpCalls calls;
  calls.create = [attributes](infiniopHandle_t handle, OpDescriptor *desc, const TensorDescriptors &tensors) {
    return calls_detail::Create(Op::Create(), handle, desc, tensors, attributes,
                                std::make_index_sequence<create_parameters>());
  };
  if constexpr (Op::kHasWorkspace) {
    calls.workspace_size = [](OpDescriptor desc, size_t *size) { return Op::WorkspaceSize()(desc, size); };
  }
  // Without workspace functions the workspace arguments are not part of the call.
  calls.compute = [scalars](OpDescriptor desc, void *workspace, size_t workspace_size, const std::vector<void *> &data,
                            void *stream) {
    return calls_detail::Compute<Op::kHasWorkspace>(Op::Compute(), desc, workspace, workspace_size, data, stream,
                                                    scalars, std::make_index_sequence<compute_parameters>());
  };
  calls.destroy = [](OpDescriptor desc) { return Op::Destroy()(desc); };
  return calls;
}

}  // namespace infinicts::op_cases
