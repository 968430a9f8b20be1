#include "oracle/common.h"

#include <stdexcept>

#include "tensor/dtype.h"

namespace infinicts::oracle {

void Require(bool condition, const char *op, const std::string &message) {
  if (!condition) throw std::invalid_argument(std::string(op) + ": " + message);
}

void RequireSameShape(const HostTensor &a, const HostTensor &b, const char *op, const char *a_name,
                      const char *b_name) {
  Require(a.shape() == b.shape(), op,
          std::string(a_name) + " " + ShapeText(a.shape()) + " and " + b_name + " " + ShapeText(b.shape()) +
              " differ in shape");
}

size_t NormalizeAxis(int axis, size_t ndim, const char *op) {
  const int rank = static_cast<int>(ndim);
  Require(axis >= -rank && axis < rank, op, "axis " + std::to_string(axis) + " out of range for rank " +
                                                std::to_string(rank));
  return static_cast<size_t>(axis < 0 ? axis + rank : axis);
}

HostTensor F64Tensor(const Shape &shape, const std::vector<double> &values) {
  return HostTensor::FromValues(INFINI_DTYPE_F64, shape, values);
}

HostTensor I64Tensor(const Shape &shape, const std::vector<int64_t> &values) {
  HostTensor tensor(INFINI_DTYPE_I64, shape);
  for (size_t i = 0; i < values.size(); ++i) tensor.SetAt(i, static_cast<double>(values[i]));
  return tensor;
}

HostTensor MapUnary(const HostTensor &x, const std::function<double(double)> &f) {
  std::vector<double> values = x.ToDoubles();
  for (double &value : values) value = f(value);
  return F64Tensor(x.shape(), values);
}

HostTensor MapBinary(const HostTensor &a, const HostTensor &b, const std::function<double(double, double)> &f,
                     const char *op) {
  RequireSameShape(a, b, op, "a", "b");
  std::vector<double> values = a.ToDoubles();
  const std::vector<double> b_values = b.ToDoubles();
  for (size_t i = 0; i < values.size(); ++i) values[i] = f(values[i], b_values[i]);
  return F64Tensor(a.shape(), values);
}

int64_t IntegerAt(const HostTensor &tensor, size_t row_major_index) {
  return tensor.GetInt(UnravelIndex(row_major_index, tensor.shape()));
}

}  // namespace infinicts::oracle
