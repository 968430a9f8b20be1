// InfiniCCL's dtypes, ops and statuses in NCCL's terms.
#ifndef INFINICTS_REF_CCL_NCCL_NCCL_TYPES_H
#define INFINICTS_REF_CCL_NCCL_NCCL_TYPES_H

#include <nccl.h>

#include <cstddef>

#include "infiniccl.h"

namespace infinicts::ref::ccl::nccl {

// NCCL's type for reducing a number dtype (its raw value, c_enum.h); false where NCCL has
// none (I16, U16).
bool ReductionType(int dtype, ncclDataType_t *type);

// The bytes of one element of an NCCL type.
size_t TypeSize(ncclDataType_t type);

// NCCL's op for an op in [SUM, AVG] (its raw value). AVG is ncclAvg: integers are summed
// and divided with truncation toward zero; floating values are multiplied by 1/nranks
// before they are summed.
ncclRedOp_t ReductionOp(int op);

// NCCL's result as a status: misuse NCCL detects is BAD_PARAM, anything else INTERNAL_ERROR.
infiniStatus_t ToStatus(ncclResult_t result);

}  // namespace infinicts::ref::ccl::nccl

#endif  // INFINICTS_REF_CCL_NCCL_NCCL_TYPES_H
