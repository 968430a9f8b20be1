#include "ccl/nccl/nccl_types.h"

namespace infinicts::ref::ccl::nccl {

bool ReductionType(int dtype, ncclDataType_t *type) {
  switch (dtype) {
    case INFINI_DTYPE_I8:
      *type = ncclInt8;
      return true;
    case INFINI_DTYPE_U8:
      *type = ncclUint8;
      return true;
    case INFINI_DTYPE_I32:
      *type = ncclInt32;
      return true;
    case INFINI_DTYPE_U32:
      *type = ncclUint32;
      return true;
    case INFINI_DTYPE_I64:
      *type = ncclInt64;
      return true;
    case INFINI_DTYPE_U64:
      *type = ncclUint64;
      return true;
    case INFINI_DTYPE_F16:
      *type = ncclFloat16;
      return true;
    case INFINI_DTYPE_BF16:
      *type = ncclBfloat16;
      return true;
    case INFINI_DTYPE_F32:
      *type = ncclFloat32;
      return true;
    case INFINI_DTYPE_F64:
      *type = ncclFloat64;
      return true;
    default:
      return false;
  }
}

ncclRedOp_t ReductionOp(int op) {
  switch (op) {
    case INFINICCL_PROD:
      return ncclProd;
    case INFINICCL_MAX:
      return ncclMax;
    case INFINICCL_MIN:
      return ncclMin;
    case INFINICCL_AVG:
      return ncclAvg;
    default:
      return ncclSum;
  }
}

infiniStatus_t ToStatus(ncclResult_t result) {
  switch (result) {
    case ncclSuccess:
      return INFINI_STATUS_SUCCESS;
    case ncclInvalidArgument:
    case ncclInvalidUsage:
      return INFINI_STATUS_BAD_PARAM;
    default:
      return INFINI_STATUS_INTERNAL_ERROR;
  }
}

}  // namespace infinicts::ref::ccl::nccl
