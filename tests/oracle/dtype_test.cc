#include <gtest/gtest.h>

#include "tensor/dtype.h"

namespace infinicts {
namespace {

TEST(Dtype, SizesMatchInfiniCore) {
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_INVALID), 0u);
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_BOOL), 1u);
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_I16), 2u);
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_I64), 8u);
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_U32), 4u);
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_F16), 2u);
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_BF16), 2u);
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_F32), 4u);
  EXPECT_EQ(DtypeSize(INFINI_DTYPE_C128), 16u);
}

TEST(Dtype, NamesParseBack) {
  for (int value = 1; value <= INFINI_DTYPE_BF16; ++value) {
    const auto dtype = static_cast<infiniDtype_t>(value);
    EXPECT_EQ(ParseDtype(DtypeName(dtype)), dtype) << DtypeName(dtype);
  }
  EXPECT_EQ(ParseDtype("BF16"), INFINI_DTYPE_BF16);
  EXPECT_FALSE(ParseDtype("f12").has_value());
  EXPECT_STREQ(DtypeName(static_cast<infiniDtype_t>(99)), "invalid");
}

TEST(Dtype, Kinds) {
  EXPECT_TRUE(IsFloat(INFINI_DTYPE_BF16));
  EXPECT_FALSE(IsFloat(INFINI_DTYPE_I32));
  EXPECT_TRUE(IsSignedInt(INFINI_DTYPE_I8));
  EXPECT_TRUE(IsUnsignedInt(INFINI_DTYPE_U64));
  EXPECT_TRUE(IsInteger(INFINI_DTYPE_I64));
  EXPECT_FALSE(IsInteger(INFINI_DTYPE_BOOL));
  EXPECT_TRUE(IsComplex(INFINI_DTYPE_C32));
  EXPECT_TRUE(IsHostReadable(INFINI_DTYPE_F16));
  EXPECT_FALSE(IsHostReadable(INFINI_DTYPE_F8));
  EXPECT_FALSE(IsHostReadable(INFINI_DTYPE_C64));
  EXPECT_EQ(MantissaBits(INFINI_DTYPE_F16), 10);
  EXPECT_EQ(MantissaBits(INFINI_DTYPE_BF16), 7);
  EXPECT_EQ(MinNormalExponent(INFINI_DTYPE_F16), -14);
  EXPECT_EQ(MaxFinite(INFINI_DTYPE_F16), 65504.0);
}

}  // namespace
}  // namespace infinicts
