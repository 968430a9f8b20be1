// Every operator of include/infiniop/operators.def has all its parts: its fp64 oracle (checked
// when this file compiles: infinicts::oracle::<Name> must exist), its CPU kernel
// (reference_impl/op/ops/<subject>.cc; an elementwise row's is its rule, rules::<Name> in
// reference_impl/op/rules/elementwise.h, which ops/elementwise_rows.cc does not compile
// without), its clauses (OP-<SUBJECT>-1 in docs/spec/op.md) and
// conformance, accuracy and perf cases in the operator suite's listing.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "oracle/oracles.h"
#include "spec_links.h"
#include "tolerance/tolerance.h"

namespace infinicts {
namespace {

// Naming each row's oracle is the compile-time part of the check: a row without one does
// not build.
#define OPERATOR(Name, subject, ...) \
  static_assert(sizeof(&::infinicts::oracle::Name) > 0, "operator " #Name " has no fp64 oracle");
#include "infiniop/operators.def"
#undef OPERATOR

struct OperatorRow {
  const char *name;
  const char *subject;
  bool elementwise;  // SAME_SHAPE
};

#define OPERATOR(Name, subject, shapes, ...) {#Name, #subject, std::string_view(#shapes) == "SAME_SHAPE"},
const OperatorRow kOperators[] = {
#include "infiniop/operators.def"
};
#undef OPERATOR

std::string ReadFile(const std::string &path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::string ClausePrefix(const std::string &subject) {
  std::string prefix = "OP-";
  for (char c : subject) {
    if (c != '_') prefix += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return prefix + "-";
}

TEST(OperatorParts, TheTableIsNotEmpty) { EXPECT_GE(std::size(kOperators), 20u); }

// ToleranceFor finds an override by subject and falls back to the dtype's default: a row
// whose subject names no operator would loosen or tighten nothing, silently.
TEST(OperatorParts, EveryToleranceOverrideNamesAnOperator) {
  std::set<std::string> subjects;
  for (const OperatorRow &row : kOperators) subjects.insert(row.subject);
  for (const infinicts::ToleranceOverride &entry : infinicts::ToleranceOverrides()) {
    EXPECT_TRUE(subjects.count(entry.op)) << "the tolerance override for '" << entry.op
                                          << "' names no operator of include/infiniop/operators.def";
  }
}

TEST(OperatorParts, EveryOperatorHasItsKernelClausesAndCases) {
  const std::string spec = ReadFile(INFINICTS_OP_SPEC);
  ASSERT_FALSE(spec.empty()) << "cannot read " << INFINICTS_OP_SPEC;
  std::string listing;
  ASSERT_TRUE(spec::ListSuite(INFINICTS_OP_SUITE, &listing)) << "cannot list " << INFINICTS_OP_SUITE;
  std::vector<std::string> errors;
  std::map<std::string, std::set<std::string>> modes_by_subject;
  for (const auto &listed : spec::ParseCaseList(listing, &errors)) modes_by_subject[listed.subject].insert(listed.mode);
  ASSERT_TRUE(errors.empty()) << errors.front();

  for (const OperatorRow &row : kOperators) {
    SCOPED_TRACE(std::string(row.name) + " (" + row.subject + ")");
    if (!row.elementwise) {
      const std::string kernel = std::string(INFINICTS_SOURCE_DIR) + "/reference_impl/op/ops/" + row.subject + ".cc";
      EXPECT_TRUE(std::filesystem::exists(kernel)) << "no CPU kernel " << kernel;
    }
    EXPECT_NE(spec.find("**" + ClausePrefix(row.subject) + "1**"), std::string::npos)
        << "no clause " << ClausePrefix(row.subject) << "1 in " << INFINICTS_OP_SPEC;
    const auto modes = modes_by_subject.find(row.subject);
    for (const char *mode : {"conformance", "accuracy", "perf"}) {
      EXPECT_TRUE(modes != modes_by_subject.end() && modes->second.count(mode))
          << "no " << mode << " case of op." << row.subject;
    }
  }
}

}  // namespace
}  // namespace infinicts
