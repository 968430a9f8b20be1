// The base of every operator descriptor: which operator it is (so that a descriptor
// handed to another operator's call is refused) and the device it was created for.
#ifndef INFINICTS_REF_OP_CORE_DESCRIPTOR_H
#define INFINICTS_REF_OP_CORE_DESCRIPTOR_H

#include <cstddef>

#include "core/handle.h"
#include "infiniop/operator_descriptor.h"

namespace infinicts::ref::op {

// One kind per operator of include/infiniop/operators.def: k<Name>.
enum class OpKind {
#define OPERATOR(Name, ...) k##Name,
#include "infiniop/operators.def"
#undef OPERATOR
};

}  // namespace infinicts::ref::op

struct InfiniopDescriptor {
  InfiniopDescriptor(infinicts::ref::op::OpKind kind_, const InfiniopHandle &handle)
      : kind(kind_), device_type(handle.device_type), device_id(handle.device_id) {}
  virtual ~InfiniopDescriptor() = default;
  InfiniopDescriptor(const InfiniopDescriptor &) = delete;
  InfiniopDescriptor &operator=(const InfiniopDescriptor &) = delete;

  const infinicts::ref::op::OpKind kind;
  const infiniDevice_t device_type;
  const int device_id;
  size_t workspace_size = 0;  // what Get<X>WorkspaceSize answers
};

#endif  // INFINICTS_REF_OP_CORE_DESCRIPTOR_H
