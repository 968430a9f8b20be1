#include "ccl/nccl/nccl_types.h"

#include "infinicts_ref/cuda_errors.h"

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

size_t TypeSize(ncclDataType_t type) {
  switch (type) {
    case ncclInt8:
    case ncclUint8:
      return 1;
    case ncclFloat16:
    case ncclBfloat16:
      return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32:
      return 4;
    default:
      return 8;
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
  // NCCL reports a lost CUDA context as ncclUnhandledCudaError (among others).
  if (result != ncclSuccess) AbortIfCudaContextLost("libinfiniccl, NCCL");
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
