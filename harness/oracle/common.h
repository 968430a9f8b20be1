// Argument checks and output construction shared by the oracles (no arithmetic of any operator).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tensor/host_tensor.h"

namespace infinicts::oracle {

// Throws std::invalid_argument("<op>: <message>") unless `condition`.
void Require(bool condition, const char *op, const std::string &message);
void RequireSameShape(const HostTensor &a, const HostTensor &b, const char *op, const char *a_name,
                      const char *b_name);
// Axis in [-ndim, ndim) to [0, ndim).
size_t NormalizeAxis(int axis, size_t ndim, const char *op);

// A contiguous F64 tensor of `shape` holding `values` in row-major order.
HostTensor F64Tensor(const Shape &shape, const std::vector<double> &values);
// A contiguous I64 tensor of `shape` holding `values` in row-major order (indices, counts).
HostTensor I64Tensor(const Shape &shape, const std::vector<int64_t> &values);

// out[i] = f(in[i]) / f(a[i], b[i]) over equal shapes.
HostTensor MapUnary(const HostTensor &x, const std::function<double(double)> &f);
HostTensor MapBinary(const HostTensor &a, const HostTensor &b, const std::function<double(double, double)> &f,
                     const char *op);

// The integer stored at row-major position i of an integer tensor (positions, indices).
int64_t IntegerAt(const HostTensor &tensor, size_t row_major_index);

}  // namespace infinicts::oracle
