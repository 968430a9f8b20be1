/* infinicts: InfiniOP, the operator interface (handle, tensor descriptors, operator
 * descriptors and the operators). ABI-compatible with InfiniCore's public
 * include/infiniop.h for the operators listed in infiniop/operators.def, whose rows give
 * each operator's descriptor type and functions (their math: docs/spec/op.md). */
#ifndef INFINICTS_INFINIOP_H
#define INFINICTS_INFINIOP_H

#include "infiniop/handle.h"
#include "infiniop/operator_attributes.h"
#include "infiniop/operator_descriptor.h"
#include "infiniop/tensor_descriptor.h"

/* typedef struct InfiniopDescriptor *infiniop<Name>Descriptor_t; for every operator. */
#define OPERATOR(Name, ...) typedef struct InfiniopDescriptor *infiniop##Name##Descriptor_t;
#include "infiniop/operators.def"
#undef OPERATOR

/* __INFINI_C __export infiniStatus_t <function>(<parameters>); for every operator function. */
#define X(name, params, args) __INFINI_C __export infiniStatus_t name params;
#include "infiniop/operator_functions.def"
#undef X

#endif /* INFINICTS_INFINIOP_H */
