// The four C functions of every SAME_SHAPE row of operators.def, over the row's rule
// (rules/elementwise.h): an elementwise operator is its row and its rule, and needs no kernel
// file of its own. A row without a rule does not compile.
#include "infiniop.h"
#include "ops/elementwise.h"
#include "rules/elementwise.h"

#define INFINIOP_ROW_UNPAREN(...) __VA_ARGS__
#define INFINIOP_ROW_OWN_SHAPES(...)
// Every elementwise row has a workspace query; another workspace token has no functions here.
#define INFINIOP_ROW_SAME_SHAPE(Name, workspace, create_params, create_args, data_params, data_args) \
  INFINIOP_ELEMENTWISE_FUNCTIONS_##workspace(Name, create_params, create_args, data_params, data_args)
#define INFINIOP_ELEMENTWISE_FUNCTIONS_WORKSPACE(Name, create_params, create_args, data_params, data_args)          \
  __INFINI_C infiniStatus_t infiniopCreate##Name##Descriptor(                                                      \
      infiniopHandle_t handle, infiniop##Name##Descriptor_t *desc_ptr, INFINIOP_ROW_UNPAREN create_params) {        \
    return ::infinicts::ref::op::CreateElementwise<::infinicts::ref::op::OpKind::k##Name,                          \
                                                   ::infinicts::ref::op::rules::Name>(                             \
        handle, desc_ptr, INFINIOP_ROW_UNPAREN create_args);                                                       \
  }                                                                                                                \
  __INFINI_C infiniStatus_t infiniopGet##Name##WorkspaceSize(infiniop##Name##Descriptor_t desc, size_t *size) {    \
    return ::infinicts::ref::op::GetWorkspaceSize<::infinicts::ref::op::ElementwiseDescriptorOf<                   \
        ::infinicts::ref::op::OpKind::k##Name, ::infinicts::ref::op::rules::Name>>(desc, size);                    \
  }                                                                                                                \
  __INFINI_C infiniStatus_t infiniop##Name(infiniop##Name##Descriptor_t desc, void *workspace,                     \
                                           size_t workspace_size, INFINIOP_ROW_UNPAREN data_params, void *stream) { \
    return ::infinicts::ref::op::ComputeElementwise<::infinicts::ref::op::OpKind::k##Name,                         \
                                                    ::infinicts::ref::op::rules::Name>(                            \
        desc, workspace, workspace_size, stream, INFINIOP_ROW_UNPAREN data_args);                                  \
  }                                                                                                                \
  __INFINI_C infiniStatus_t infiniopDestroy##Name##Descriptor(infiniop##Name##Descriptor_t desc) {                 \
    return ::infinicts::ref::op::DestroyDescriptor<::infinicts::ref::op::ElementwiseDescriptorOf<                  \
        ::infinicts::ref::op::OpKind::k##Name, ::infinicts::ref::op::rules::Name>>(desc);                          \
  }
#define OPERATOR(Name, subject, shapes, workspace, optional_data, create_params, create_args, data_params, \
                 data_args)                                                                                    \
  INFINIOP_ROW_##shapes(Name, workspace, create_params, create_args, data_params, data_args)
#include "infiniop/operators.def"
#undef OPERATOR
#undef INFINIOP_ELEMENTWISE_FUNCTIONS_WORKSPACE
#undef INFINIOP_ROW_SAME_SHAPE
#undef INFINIOP_ROW_OWN_SHAPES
#undef INFINIOP_ROW_UNPAREN
