// Subjects `handle` and `tensor_descriptor`: the objects every operator is built from
// (spec section OP-DESC). The operator-specific descriptor checks live with the operators
// (common/op_cases.h).
#include <cstdint>
#include <limits>

#include "common/api_objects.h"
#include "common/op_case.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

using cts::op;

class HandleCase : public cts::CaseBase {};

CTS_PROBE_F(HandleCase, create_null, "conformance", "handle", "OP-DESC-1") {
  CTS_ASSERT_STATUS(op().infiniopCreateHandle(nullptr), INFINI_STATUS_NULL_POINTER);
}

CTS_PROBE_F(HandleCase, destroy_null, "conformance", "handle", "OP-DESC-24") {
  CTS_SHOULD_ANSWER(op().infiniopDestroyHandle(nullptr), "destroy_null_as_recommended", INFINI_STATUS_NULL_POINTER,
                    INFINI_STATUS_SUCCESS);
}

CTS_TEST_F(HandleCase, create_on_every_device, "conformance", "handle", "OP-DESC-2") {
  for (int id : cts::device_ids()) {
    SCOPED_TRACE("device " + std::to_string(id));
    CTS_ASSERT_OK(cts::rt().infinirtSetDevice(cts::device_type(), id));
    infiniopHandle_t handle = nullptr;
    CTS_ASSERT_OK(op().infiniopCreateHandle(&handle));
    if (handle == nullptr) OP_ADD_FAILURE("infiniopCreateHandle answered SUCCESS with a NULL handle");
    CTS_ASSERT_OK(op().infiniopDestroyHandle(handle));
  }
}

// A tensor descriptor made and destroyed; the status of the creation.
infiniStatus_t MakeAndDrop(size_t ndim, const size_t *shape, const ptrdiff_t *strides, infiniDtype_t dtype) {
  infiniopTensorDescriptor_t desc = nullptr;
  const infiniStatus_t status = op().infiniopCreateTensorDescriptor(&desc, ndim, shape, strides, dtype);
  if (status == INFINI_STATUS_SUCCESS && desc != nullptr) op().infiniopDestroyTensorDescriptor(desc);
  return status;
}

class TensorDescriptorCase : public cts::CaseBase {};

CTS_PROBE_F(TensorDescriptorCase, create_null_pointers, "conformance", "tensor_descriptor", "OP-DESC-4") {
  const size_t shape[] = {2, 3};
  CTS_ASSERT_STATUS(op().infiniopCreateTensorDescriptor(nullptr, 2, shape, nullptr, INFINI_DTYPE_F32),
                    INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(MakeAndDrop(2, nullptr, nullptr, INFINI_DTYPE_F32), INFINI_STATUS_NULL_POINTER);
}

// A descriptor only describes: refusing what no operator accepts is recommended, and the operators
// refuse it at their create calls anyway (the bad_dtype cases).
CTS_PROBE_F(TensorDescriptorCase, rejects_unknown_dtypes, "conformance", "tensor_descriptor", "OP-DESC-5") {
  const size_t shape[] = {2, 3};
  bool refused_all = true;
  for (int dtype : {static_cast<int>(INFINI_DTYPE_INVALID), 20, 255, -1}) {
    const int status = cts::ProbeInvalidInput("infiniopCreateTensorDescriptor of an unknown dtype", [&] {
      return MakeAndDrop(2, shape, nullptr, static_cast<infiniDtype_t>(dtype));
    });
    refused_all = refused_all && status == INFINI_STATUS_BAD_TENSOR_DTYPE;
  }
  cts::RecordMetric("unknown_dtypes_refused", refused_all ? 1 : 0);
}

CTS_TEST_F(TensorDescriptorCase, accepts_every_dtype, "conformance", "tensor_descriptor", "OP-DESC-6") {
  const size_t shape[] = {2, 3};
  for (int dtype = INFINI_DTYPE_BYTE; dtype <= INFINI_DTYPE_BF16; ++dtype) {
    SCOPED_TRACE(DtypeName(static_cast<infiniDtype_t>(dtype)));
    CTS_ASSERT_OK(MakeAndDrop(2, shape, nullptr, static_cast<infiniDtype_t>(dtype)));
  }
}

CTS_TEST_F(TensorDescriptorCase, accepts_any_layout, "conformance", "tensor_descriptor", "OP-DESC-6") {
  const size_t matrix[] = {4, 5};
  const ptrdiff_t transposed[] = {1, 4}, broadcast[] = {0, 1}, negative[] = {-5, 1}, overlapping[] = {1, 1},
                  padded[] = {8, 1};
  for (const ptrdiff_t *strides : {transposed, broadcast, negative, overlapping, padded}) {
    SCOPED_TRACE("strides [" + std::to_string(strides[0]) + ", " + std::to_string(strides[1]) + "]");
    CTS_ASSERT_OK(MakeAndDrop(2, matrix, strides, INFINI_DTYPE_F32));
  }
  SCOPED_TRACE("a scalar (ndim 0, shape NULL), an empty tensor, 32 dims");
  CTS_ASSERT_OK(MakeAndDrop(0, nullptr, nullptr, INFINI_DTYPE_F32));
  const size_t empty[] = {3, 0, 2};
  CTS_ASSERT_OK(MakeAndDrop(3, empty, nullptr, INFINI_DTYPE_F16));
  const std::vector<size_t> ones(32, 1);
  CTS_ASSERT_OK(MakeAndDrop(ones.size(), ones.data(), nullptr, INFINI_DTYPE_F32));
}

CTS_PROBE_F(TensorDescriptorCase, rejects_impossible_shapes, "conformance", "tensor_descriptor", "OP-DESC-23") {
  const std::vector<size_t> many(33, 1);
  const size_t huge = size_t{1} << 40;
  const size_t overflowing[] = {huge, huge};
  const int too_many_dims = cts::ProbeInvalidInput("infiniopCreateTensorDescriptor of 33 dims", [&] {
    return MakeAndDrop(many.size(), many.data(), nullptr, INFINI_DTYPE_F32);
  });
  const int overflow = cts::ProbeInvalidInput("infiniopCreateTensorDescriptor of 2^80 elements", [&] {
    return MakeAndDrop(2, overflowing, nullptr, INFINI_DTYPE_F32);
  });
  cts::RecordMetric("impossible_shapes_refused",
                    too_many_dims == INFINI_STATUS_BAD_TENSOR_SHAPE && overflow == INFINI_STATUS_BAD_TENSOR_SHAPE ? 1 : 0);
}

CTS_PROBE_F(TensorDescriptorCase, destroy_null, "conformance", "tensor_descriptor", "OP-DESC-7") {
  CTS_SHOULD_ANSWER(op().infiniopDestroyTensorDescriptor(nullptr), "destroy_null_as_recommended",
                    INFINI_STATUS_NULL_POINTER, INFINI_STATUS_SUCCESS);
}

}  // namespace
}  // namespace infinicts::op_cases
