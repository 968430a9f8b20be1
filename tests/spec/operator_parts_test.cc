// Every operator of include/infiniop/operators.def has all its parts: its fp64 oracle (checked
// when this file compiles: infinicts::oracle::<Name> must exist), its CPU kernel
// (reference_impl/op/ops/<subject>.cc; an elementwise row's is its rule, rules::<Name> in
// reference_impl/op/rules/elementwise.h, which ops/elementwise_rows.cc does not compile
// without), its clauses (OP-<SUBJECT>-1 in docs/spec/op.md) and
// conformance, accuracy and perf cases in the operator suite's listing.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "cts/clause_ids.h"
#include "infiniop/optional_data.hpp"
#include "oracle/oracles.h"
#include "spec_links.h"
#include "tensor/dtype.h"
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

// The optional_data column: names in any order and position, none, and blanks as rows write them.
static_assert(infiniop_rows::OptionalDataMask("(a, b, c)", "(c, a)") == 0b101);
static_assert(infiniop_rows::OptionalDataMask("(a, b, c)", "()") == 0);
static_assert(infiniop_rows::OptionalDataMask("(x_packed, x_scale, x_zero, x)", "(x_zero)") == 0b100);
static_assert(infiniop_rows::PositionIn("(a, bb, b)", "b") == 2);

struct OptionalDataRow {
  const char *name;
  uint64_t mask;              // bit i: the i-th data argument may be NULL
  std::string_view creates;  // the create call's parameters after (handle, desc_ptr)
};
#define OPERATOR(Name, subject, shapes, workspace, optional_data, create_params, create_args, data_params, \
                 data_args)                                                                                \
  {#Name, INFINIOP_OPTIONAL_DATA_MASK(optional_data, data_args), #create_params},
const OptionalDataRow kOptionalData[] = {
#include "infiniop/operators.def"
};
#undef OPERATOR

// The i-th parameter of a parenthesised list.
std::string ParameterAt(std::string_view list, size_t i) {
  list = infiniop_rows::TrimName(list);
  for (size_t k = 0; k < i; ++k) {
    const size_t comma = list.find(',');
    if (comma == std::string_view::npos) return "";
    list.remove_prefix(comma + 1);
  }
  return std::string(list.substr(0, list.find(',')));
}

// How many of the create call's parameters are tensor descriptors.
size_t DescriptorCount(std::string_view creates) {
  size_t count = 0;
  for (size_t i = 0; !ParameterAt(creates, i).empty(); ++i) {
    if (ParameterAt(creates, i).find("infiniopTensorDescriptor_t") != std::string::npos) ++count;
  }
  return count;
}

// An optional data argument is left out with its tensor: the create call takes, at its
// position, a tensor descriptor that may be NULL; or it is a raw buffer past the create call's
// descriptors, which no descriptor describes (MoeAlign's expert_map).
TEST(OperatorParts, EveryOptionalDataArgumentHasItsTensorDescriptor) {
  for (const OptionalDataRow &row : kOptionalData) {
    const size_t descriptors = DescriptorCount(row.creates);
    for (size_t i = 0; i < 64; ++i) {
      if (((row.mask >> i) & 1) == 0 || i >= descriptors) continue;
      EXPECT_NE(ParameterAt(row.creates, i).find("infiniopTensorDescriptor_t"), std::string::npos)
          << row.name << ": optional data argument " << i << " faces " << ParameterAt(row.creates, i)
          << " in the create call";
    }
  }
}

TEST(OperatorParts, OptionalDataPositionsAreTheRowsOwn) {
  std::map<std::string, uint64_t> masks;
  for (const OptionalDataRow &row : kOptionalData) masks[row.name] = row.mask;
  EXPECT_EQ(masks.at("Gemm"), 0u);
  EXPECT_EQ(masks.at("LayerNorm"), uint64_t{1} << 5);  // bias, the last of six
  EXPECT_EQ(masks.at("PerChannelQuantI8"), uint64_t{1} << 2);  // x_zero, third of four
  EXPECT_EQ(masks.at("PerTensorDequantI8"), uint64_t{1} << 3);
  EXPECT_EQ(masks.at("MoeAlign"), uint64_t{1} << 4);          // expert_map, a raw buffer
  EXPECT_EQ(masks.at("PrepareMoeInput"), uint64_t{1} << 1);  // blockscale_offsets, second of seven
}

std::string ReadFile(const std::string &path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
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

// "2^-17", "1e-5", "0" -> the number; NaN where the cell is none of those.
double TableNumber(const std::string &cell) {
  const size_t power = cell.find("^");
  try {
    if (power != std::string::npos) return std::ldexp(1.0, std::stoi(cell.substr(power + 1)));
    return std::stod(cell);
  } catch (const std::exception &) {
    return std::nan("");
  }
}

// The spec's table of tolerance overrides (OP-ACC-1) and the one the suite applies (written
// from it by cmake/op_tolerance_table.cmake) name the same operators, dtypes, atol and rtol:
// a row lost or misread by the generator is a verdict the spec does not promise.
TEST(OperatorParts, TheSpecToleranceOverridesAreTheSuites) {
  std::map<std::string, std::pair<double, double>> in_spec;  // "gemm f16" -> (atol, rtol)
  for (const std::vector<std::string> &cells :
       spec::TableRows(ReadFile(INFINICTS_OP_SPEC), "| operator | dtype | atol | rtol |")) {
    if (cells.size() < 4) continue;
    std::string dtype = cells[1];
    for (char &c : dtype) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const std::string &subject : spec::ListedNames(cells[0])) {
      in_spec[subject + " " + dtype] = {TableNumber(cells[2]), TableNumber(cells[3])};
    }
  }
  ASSERT_FALSE(in_spec.empty()) << "the spec's overrides table is empty";
  std::map<std::string, std::pair<double, double>> in_suite;
  for (const ToleranceOverride &entry : ToleranceOverrides()) {
    const std::string dtype = entry.dtype == INFINI_DTYPE_INVALID ? "all" : DtypeName(entry.dtype);
    in_suite[std::string(entry.op) + " " + dtype] = {entry.atol, entry.rtol};
  }
  for (const auto &[key, tolerance] : in_spec) {
    const auto found = in_suite.find(key);
    if (found == in_suite.end()) {
      ADD_FAILURE() << "docs/spec/op.md overrides " << key << "; the suite's table (cmake/op_tolerance_table.cmake) does not";
      continue;
    }
    // The spec writes 1e-12 and 2^-17 where the code computes them: equal to a part in 1e9.
    for (const auto &[spec_value, suite_value, what] :
         {std::tuple{tolerance.first, found->second.first, "atol"},
          std::tuple{tolerance.second, found->second.second, "rtol"}}) {
      EXPECT_LE(std::fabs(spec_value - suite_value), 1e-9 * std::fabs(suite_value))
          << key << " " << what << ": the spec says " << spec_value << ", the suite applies " << suite_value;
    }
  }
  for (const auto &[key, tolerance] : in_suite) {
    EXPECT_TRUE(in_spec.count(key)) << "the suite's table overrides " << key
                                    << "; docs/spec/op.md's table does not say so";
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
    EXPECT_NE(spec.find("**" + cts::OperatorClausePrefix(row.subject) + "1**"), std::string::npos)
        << "no clause " << cts::OperatorClausePrefix(row.subject) << "1 in " << INFINICTS_OP_SPEC;
    const auto modes = modes_by_subject.find(row.subject);
    for (const char *mode : {"conformance", "accuracy", "perf"}) {
      EXPECT_TRUE(modes != modes_by_subject.end() && modes->second.count(mode))
          << "no " << mode << " case of op." << row.subject;
    }
  }
}

}  // namespace
}  // namespace infinicts
