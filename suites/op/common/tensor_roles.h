// The bad descriptors that follow from an operator's tensor roles (docs/spec/op.md OP-DESC-11,
// OP-DESC-12, OP-DESC-13), generated rather than listed by hand. An operator's traits declare
// the roles as one line over the tensors of its probe problem's specs, in their order:
//
//   static constexpr const char *kTensorRoles = "y[rows,d]=x x[rows,d] w[d]";
//
// Each tensor is its spec's name, then optionally:
// - [a,b,...]: a symbol per dim. Dims sharing a symbol must be equal, so each occurrence made
//   alone one shorter (one longer where it is 1) is a shape the create call must refuse:
//   `<tensor>_<symbol>_<extent>` (BAD_TENSOR_SHAPE). `~name` names a dim tied to nothing the line can say (a product, a
//   range, a free extent), `_` one without a name. An output's dim of extent > 1 given stride 0
//   overlaps the output: `<tensor>_<symbol>_stride_0` (BAD_TENSOR_STRIDES), `dim<i>` for `_`.
// - =other: its dtype must be other's: `<tensor>_<dtype>_<other>_<dtype>` (BAD_TENSOR_DTYPE),
//   the dtype another of the same kind (F16 for a float, F32 for F16; I32 for an integer, I64
//   for I32), so no promotion rule excuses it.
// - :int or :float: it must be of that kind: `<tensor>_f32` or `<tensor>_i32` (BAD_TENSOR_DTYPE).
// A tensor without dims (one the create call does not describe) gets no shape or stride probe.
// docs/adding-an-operator.md walks through a line.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "common/op_case.h"

namespace infinicts::op_cases {

struct RoleProbe {
  std::string name;
  infiniStatus_t expected = INFINI_STATUS_BAD_TENSOR_SHAPE;
  std::function<void(std::vector<TensorSpec> &)> mutate;
};

// The probes of `roles` over `specs` (a valid problem's). Throws std::invalid_argument naming
// what does not fit: a tensor out of order, a dim count unlike the spec's rank, a symbol whose
// extents differ, an unknown tensor after `=`, a malformed token.
std::vector<RoleProbe> TensorRoleProbes(const std::vector<TensorSpec> &specs, const std::string &roles);

}  // namespace infinicts::op_cases
