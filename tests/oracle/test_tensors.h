// Small helpers for the oracle tests: literal tensors and value checks.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tensor/host_tensor.h"

namespace infinicts::testing_helpers {

inline HostTensor F32(const Shape &shape, const std::vector<double> &values) {
  return HostTensor::FromValues(INFINI_DTYPE_F32, shape, values);
}

inline HostTensor F64(const Shape &shape, const std::vector<double> &values) {
  return HostTensor::FromValues(INFINI_DTYPE_F64, shape, values);
}

// Every value within `tolerance` of the expected one (NaN matches NaN), and the result F64.
inline void ExpectValues(const HostTensor &tensor, const Shape &shape, const std::vector<double> &expected,
                         double tolerance = 1e-12) {
  EXPECT_EQ(tensor.dtype(), INFINI_DTYPE_F64);
  ASSERT_EQ(tensor.shape(), shape);
  const std::vector<double> got = tensor.ToDoubles();
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    } else {
      EXPECT_NEAR(got[i], expected[i], tolerance) << "element " << i;
    }
  }
}

}  // namespace infinicts::testing_helpers
