// The bad descriptors generated from tensor roles (suites/op/common/tensor_roles.h): which
// probes a line gives, what each changes, and the lines refused.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/tensor_roles.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

// y[4,5] (output) = f(x[4,5], w[5]); idx[4] of I64.
std::vector<TensorSpec> NormLikeSpecs() {
  return {{"y", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout({4, 5})},
          {"x", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({4, 5})},
          {"w", Role::kInput, INFINI_DTYPE_F16, ContiguousLayout({5})},
          {"idx", Role::kInput, INFINI_DTYPE_I64, ContiguousLayout({4})}};
}

std::vector<std::string> Names(const std::vector<RoleProbe> &probes) {
  std::vector<std::string> names;
  for (const RoleProbe &probe : probes) names.push_back(probe.name);
  return names;
}

const RoleProbe &Find(const std::vector<RoleProbe> &probes, const std::string &name) {
  for (const RoleProbe &probe : probes) {
    if (probe.name == name) return probe;
  }
  throw std::out_of_range("no probe " + name);
}

TEST(TensorRoles, EveryFamilyInLineOrder) {
  const auto probes = TensorRoleProbes(NormLikeSpecs(), "y[rows,d]=x x[rows,d] w[d] idx[rows]:int");
  const std::vector<std::string> expected = {"y_f16_x_f32",  "idx_f32",     "y_rows_3",         "x_rows_3",
                                             "idx_rows_3",   "y_d_4",       "x_d_4",            "w_d_4",
                                             "y_rows_stride_0", "y_d_stride_0"};
  EXPECT_EQ(Names(probes), expected);
}

TEST(TensorRoles, EachProbeChangesOneThing) {
  const auto probes = TensorRoleProbes(NormLikeSpecs(), "y[rows,d]=x x[rows,d] w[d] idx[rows]:int");
  std::vector<TensorSpec> specs = NormLikeSpecs();
  Find(probes, "y_f16_x_f32").mutate(specs);
  EXPECT_EQ(specs[0].dtype, INFINI_DTYPE_F16);
  EXPECT_EQ(specs[1].dtype, INFINI_DTYPE_F32);
  EXPECT_EQ(Find(probes, "y_f16_x_f32").expected, INFINI_STATUS_BAD_TENSOR_DTYPE);

  specs = NormLikeSpecs();
  Find(probes, "w_d_4").mutate(specs);
  EXPECT_EQ(specs[2].layout.shape, Shape({4}));
  EXPECT_EQ(specs[2].layout.strides, Strides({1}));
  EXPECT_EQ(specs[1].layout.shape, Shape({4, 5}));
  EXPECT_EQ(Find(probes, "w_d_4").expected, INFINI_STATUS_BAD_TENSOR_SHAPE);

  specs = NormLikeSpecs();
  Find(probes, "y_d_stride_0").mutate(specs);
  EXPECT_EQ(specs[0].layout.strides, Strides({5, 0}));
  EXPECT_EQ(Find(probes, "y_d_stride_0").expected, INFINI_STATUS_BAD_TENSOR_STRIDES);

  specs = NormLikeSpecs();
  Find(probes, "idx_f32").mutate(specs);
  EXPECT_EQ(specs[3].dtype, INFINI_DTYPE_F32);
}

TEST(TensorRoles, IntegerMismatchStaysInteger) {
  std::vector<TensorSpec> specs = {{"a", Role::kInput, INFINI_DTYPE_I64, ContiguousLayout({3})},
                                   {"b", Role::kInput, INFINI_DTYPE_I64, ContiguousLayout({3})}};
  EXPECT_EQ(Names(TensorRoleProbes(specs, "a[~n] b[~m]=a")), std::vector<std::string>{"b_i32_a_i64"});
}

TEST(TensorRoles, UntiedDimsGiveNoShapeProbeButNameOverlaps) {
  std::vector<TensorSpec> specs = {{"out", Role::kOutput, INFINI_DTYPE_F32, ContiguousLayout({2, 3, 1})},
                                   {"in", Role::kInput, INFINI_DTYPE_F32, ContiguousLayout({2, 7, 1})}};
  // A symbol used once ties nothing; a dim of extent 1 cannot overlap, and a tie of extent 1
  // moves to 2.
  EXPECT_EQ(Names(TensorRoleProbes(specs, "out[b,~rows,c] in[b,_,c]")),
            (std::vector<std::string>{"out_b_1", "in_b_1", "out_c_2", "in_c_2", "out_b_stride_0", "out_rows_stride_0"}));
}

TEST(TensorRoles, UndescribedTensorsTakeNoDims) {
  std::vector<TensorSpec> specs = NormLikeSpecs();
  specs[3].described = false;
  EXPECT_THROW(TensorRoleProbes(specs, "y[rows,d]=x x[rows,d] w[d] idx[rows]"), std::invalid_argument);
  EXPECT_EQ(TensorRoleProbes(specs, "y x w idx").size(), 0u);
}

TEST(TensorRoles, AbsentTensorsTakeNoRoles) {
  std::vector<TensorSpec> specs = NormLikeSpecs();
  specs[2].present = false;  // an optional tensor left out
  EXPECT_THROW(TensorRoleProbes(specs, "y[rows,d]=x x[rows,d] w[d] idx[rows]"), std::invalid_argument);
  EXPECT_THROW(TensorRoleProbes(specs, "y[rows,d]=x x[rows,d] w=x idx[rows]"), std::invalid_argument);
  EXPECT_EQ(TensorRoleProbes(specs, "y[rows,d]=x x[rows,d] w idx[rows]").size(), 8u);
}

TEST(TensorRoles, LinesThatDoNotFitTheSpecsAreRefused) {
  const std::vector<TensorSpec> specs = NormLikeSpecs();
  for (const char *line : {"y[rows,d] x[rows,d] w[d]",                  // a tensor short
                           "x[rows,d] y[rows,d] w[d] idx[rows]",          // out of order
                           "y[rows] x[rows,d] w[d] idx[rows]",            // a dim short
                           "y[rows,d] x[rows,e] w[e] idx[d]",             // e is 5, d 4 and 5
                           "y[rows,d]=z x[rows,d] w[d] idx[rows]",        // no tensor z
                           "y[rows,d]=w x[rows,d] w[d] idx[rows]",        // y's dtype is not w's
                           "y[rows,d] x[rows,d] w[d] idx[rows]:float",    // idx is no float
                           "y[rows,d x[rows,d] w[d] idx[rows]",           // [ not closed
                           "y[rows,d]+x x[rows,d] w[d] idx[rows]",        // an unknown suffix
                           "y[rows,2] x[rows,d] w[d] idx[rows]"}) {       // a dim that is no symbol
    EXPECT_THROW(TensorRoleProbes(specs, line), std::invalid_argument) << line;
  }
}

}  // namespace
}  // namespace infinicts::op_cases
