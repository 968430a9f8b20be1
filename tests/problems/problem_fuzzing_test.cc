// Drawing and shrinking problems (suites/op/common/problem_fuzzing.h) on a toy operator:
// draws are deterministic, valid, inside the declared bounds and keep the corpus's dtypes;
// every shrinking step is valid, simpler and keeps the dtype. fuzz_test.py runs the real ones.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "common/layouts.h"
#include "common/problem_fuzzing.h"
#include "common/problem_grammar.h"

namespace infinicts::op_cases {
namespace {

struct ToyProblem {
  infiniDtype_t dtype = INFINI_DTYPE_F32;
  Shape shape = {4, 5};
  LayoutKind x_layout = LayoutKind::kContiguous;
  int heads = 2;
  double eps = 1e-5;
  bool flag = false;

  template <class Field>
  void Fields(Field &field) {
    field.Bare("dtype", dtype);
    field.Bare("shape", shape);
    field("x", x_layout);
    field("heads", heads).Min(1).Max(8);
    field("eps", eps);
    field("flag", flag);
  }
};

ToyProblem Make(infiniDtype_t dtype, Shape shape) {
  ToyProblem p;
  p.dtype = dtype;
  p.shape = std::move(shape);
  return p;
}

FuzzedOperator Toy() {
  FuzzedOperator op;
  for (const ToyProblem &p : {Make(INFINI_DTYPE_F16, {7, 31}), Make(INFINI_DTYPE_F32, {3, 4096}), Make(INFINI_DTYPE_F32, {13})})
    op.corpus.push_back(FieldTextsOf(p));
  op.plain = FieldTextsOf(Make(INFINI_DTYPE_F32, {4, 5}));
  op.check = [](const std::string &line) -> std::optional<CheckedProblem> {
    try {
      const ToyProblem p = ParseProblemLine(line, ToyProblem{});
      if (p.x_layout == LayoutKind::kBroadcastAll) return std::nullopt;  // a layout the toy refuses
      CheckedProblem checked;
      checked.fields = FieldTextsOf(p);
      checked.line = ProblemLine(p);
      checked.bytes = NumElements(p.shape) * 4;
      return checked;
    } catch (const std::exception &) {
      return std::nullopt;
    }
  };
  return op;
}

TEST(ProblemFuzzing, DrawsAreTheSameForASeedAndValid) {
  const FuzzedOperator op = Toy();
  const std::vector<std::string> lines = DrawProblemLines(op, 7, 40);
  EXPECT_EQ(lines.size(), 40u);
  EXPECT_EQ(lines, DrawProblemLines(op, 7, 40));
  EXPECT_NE(lines, DrawProblemLines(op, 8, 40));
  std::set<std::string> distinct(lines.begin(), lines.end());
  EXPECT_EQ(distinct.size(), lines.size());
  std::set<std::string> dtypes;
  for (const std::string &line : lines) {
    const ToyProblem p = ParseProblemLine(line, ToyProblem{});
    EXPECT_TRUE(op.check(line)) << line;
    EXPECT_GE(p.heads, 1) << line;
    EXPECT_LE(p.heads, 8) << line;
    EXPECT_LE(NumElements(p.shape) * 4, kMaxFuzzedBytes) << line;
    dtypes.insert(DtypeName(p.dtype));
  }
  EXPECT_EQ(dtypes, (std::set<std::string>{"f16", "f32"}));  // the corpus's, and only those
}

TEST(ProblemFuzzing, DrawsReachEmptyUnitOddAndLongExtents) {
  bool empty = false, unit = false, odd = false, long_row = false;
  for (const std::string &line : DrawProblemLines(Toy(), 3, 200)) {
    for (const size_t extent : ParseProblemLine(line, ToyProblem{}).shape) {
      empty |= extent == 0;
      unit |= extent == 1;
      odd |= extent > 1 && extent % 2 == 1;
      long_row |= extent > 1000;
    }
  }
  EXPECT_TRUE(empty && unit && odd && long_row);
}

TEST(ProblemFuzzing, ShrinkingStepsAreSimplerAndKeepTheDtype) {
  const FuzzedOperator op = Toy();
  const std::string start = "f16 3x33x65 x=trans heads=7 eps=0.5 flag=true";
  const std::vector<std::string> steps = SimplerProblemLines(op, start);
  ASSERT_FALSE(steps.empty());
  const ToyProblem from = ParseProblemLine(start, ToyProblem{});
  for (const std::string &line : steps) {
    const ToyProblem p = ParseProblemLine(line, ToyProblem{});
    EXPECT_EQ(p.dtype, INFINI_DTYPE_F16) << line;
    EXPECT_NE(line, start);
    EXPECT_LE(NumElements(p.shape), NumElements(from.shape)) << line;
  }
  // Simplest first: the first step has the fewest bytes.
  EXPECT_LE(NumElements(ParseProblemLine(steps.front(), ToyProblem{}).shape),
            NumElements(ParseProblemLine(steps.back(), ToyProblem{}).shape));
  // Following the first step each time ends at a problem with nothing simpler.
  std::string line = start;
  for (int i = 0; i < 100; ++i) {
    const std::vector<std::string> next = SimplerProblemLines(op, line);
    if (next.empty()) break;
    line = next.front();
  }
  EXPECT_TRUE(SimplerProblemLines(op, line).empty()) << line;
  EXPECT_EQ(line.rfind("f16", 0), 0u) << line;
}

TEST(ProblemFuzzing, AnInvalidLineHasNoSimplerOne) {
  EXPECT_TRUE(SimplerProblemLines(Toy(), "f16 4x5 heads=9").empty());
}

}  // namespace
}  // namespace infinicts::op_cases
