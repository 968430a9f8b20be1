// The problem grammar on its own (suites/op/common/problem_grammar.h): every kind of field
// writes a line that reads back to the same value, defaults stay out of lines, and a bad
// line says what is wrong. problem_lines_test.py holds it to every compiled-in problem.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/layouts.h"
#include "common/problem_grammar.h"

namespace infinicts::op_cases {
namespace {

struct ToyProblem {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape = {4, 5};
  infiniDtype_t w_dtype = INFINI_DTYPE_F32;
  LayoutKind x_layout = LayoutKind::kContiguous;
  double eps = 1e-5;
  float scale = 0.5f;
  int axis = -1;
  size_t topk = 8;
  bool flag = false;
  std::string scenario = "plain";
  std::vector<int64_t> keys = {3, 9};
  std::vector<size_t> pads;
  int heads = 2;

  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("w", w_dtype);
    field("x", x_layout);
    field("eps", eps);
    field("scale", scale);
    field("axis", axis);
    field("topk", topk);
    field("flag", flag);
    field("scenario", scenario);
    field("keys", keys);
    field("pads", pads);
    field("heads", heads).Min(1).Max(64);
  }
  std::string Line() const { return ProblemLine(*this); }
};

ToyProblem Parse(const std::string &line) { return ParseProblemLine(line, ToyProblem{}); }

std::string ErrorOf(const std::string &line) {
  try {
    Parse(line);
  } catch (const std::invalid_argument &error) {
    return error.what();
  }
  return "";
}

TEST(ProblemGrammar, DefaultsStayOutOfTheLine) {
  EXPECT_EQ(ToyProblem{}.Line(), "f32 4x5");
  ToyProblem p;
  p.w_dtype = INFINI_DTYPE_F16;
  p.pads = {1, 1};
  EXPECT_EQ(p.Line(), "f32 4x5 w=f16 pads=1x1");
}

TEST(ProblemGrammar, EveryKindOfFieldReadsBack) {
  ToyProblem p;
  p.dtype = INFINI_DTYPE_BF16;
  p.shape = {};
  p.w_dtype = INFINI_DTYPE_F64;
  p.x_layout = LayoutKind::kTransposedPadded;
  p.axis = -3;
  p.topk = 0;
  p.flag = true;
  p.scenario = "long_tail";
  p.keys = {-1, 0, 1000000000000};
  p.pads = {0, 7};
  for (double eps : {0.1, 1.0 / 3, 1e-300, std::numeric_limits<double>::denorm_min(), -2.5, 0.0}) {
    for (float scale : {0.1f, 1.0f / 3, std::numeric_limits<float>::max(), -0.0f}) {
      p.eps = eps;
      p.scale = scale;
      const ToyProblem back = Parse(p.Line());
      EXPECT_EQ(back.Line(), p.Line());
      EXPECT_EQ(back.eps, eps) << p.Line();
      EXPECT_EQ(back.scale, scale) << p.Line();
      EXPECT_EQ(back.dtype, p.dtype);
      EXPECT_TRUE(back.shape.empty()) << p.Line();
      EXPECT_EQ(back.x_layout, p.x_layout);
      EXPECT_EQ(back.axis, -3);
      EXPECT_EQ(back.topk, 0u);
      EXPECT_TRUE(back.flag);
      EXPECT_EQ(back.scenario, "long_tail");
      EXPECT_EQ(back.keys, p.keys);
      EXPECT_EQ(back.pads, p.pads);
    }
  }
  EXPECT_NE(p.Line().find("bf16 scalar"), std::string::npos) << p.Line();
}

TEST(ProblemGrammar, BareTokensInAnyOrderAndLongLayoutNames) {
  const ToyProblem p = Parse("7x31 f16 x=padded eps=1e-6");
  EXPECT_EQ(p.dtype, INFINI_DTYPE_F16);
  EXPECT_EQ(p.shape, (Shape{7, 31}));
  EXPECT_EQ(p.x_layout, LayoutKind::kPadded);
  EXPECT_EQ(p.eps, 1e-6);
  EXPECT_EQ(p.Line(), "f16 7x31 x=pad eps=1e-06");
}

TEST(ProblemGrammar, ALeftOutFieldTakesItsDefaultNotTheSeeds) {
  ToyProblem seed;
  seed.eps = 0.25;
  EXPECT_EQ(ParseProblemLine("f32 2x2", seed).eps, 1e-5);
}

TEST(ProblemGrammar, ANumberOutsideItsBoundsIsRefused) {
  EXPECT_NE(ErrorOf("f32 4x5 heads=0").find("'heads=0': outside [1, 64]"), std::string::npos) << ErrorOf("f32 4x5 heads=0");
  EXPECT_NE(ErrorOf("f32 4x5 heads=65").find("outside [1, 64]"), std::string::npos);
  EXPECT_EQ(ErrorOf("f32 4x5 heads=1"), "");
  EXPECT_EQ(Parse("f32 4x5 heads=64").heads, 64);
  // The declaration's bounds travel with its fields, for the fuzzer.
  for (const FieldText &field : FieldTextsOf(ToyProblem{})) {
    if (field.key == "heads") {
      EXPECT_EQ(field.low, 1);
      EXPECT_EQ(field.high, 64);
      EXPECT_EQ(field.kind, FieldKind::kInteger);
    } else {
      EXPECT_EQ(field.low, -HUGE_VAL) << field.key;
      EXPECT_EQ(field.high, HUGE_VAL) << field.key;
    }
  }
}

TEST(ProblemGrammar, BadLinesSayWhatIsWrong) {
  EXPECT_NE(ErrorOf("f32 4x5 colour=red").find("no field colour (the fields: dtype, shape, w, x"), std::string::npos);
  EXPECT_NE(ErrorOf("f32 4x5 eps=small").find("'eps=small': not a value of eps"), std::string::npos);
  EXPECT_NE(ErrorOf("f32 4x5 eps=1 eps=2").find("field eps given twice"), std::string::npos);
  EXPECT_NE(ErrorOf("f32 4x5 sideways").find("'sideways' is no value a field takes"), std::string::npos);
  EXPECT_NE(ErrorOf("f32 4x5 =3").find("a value without its field's name"), std::string::npos);
  EXPECT_NE(ErrorOf("f32 4x5 topk=-1").find("topk=-1"), std::string::npos);
  EXPECT_NE(ErrorOf("f32 4x5 axis=99999999999").find("axis="), std::string::npos);
  EXPECT_NE(ErrorOf("f32 4x5 x=sideways").find("x=sideways"), std::string::npos);
  EXPECT_NE(ErrorOf("f32 4x5 f16").find("'f16' is no value"), std::string::npos);
  EXPECT_EQ(ErrorOf("f32 4x5 keys=none pads=none"), "");
}

}  // namespace
}  // namespace infinicts::op_cases
