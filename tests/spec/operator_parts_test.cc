// Every operator of harness/backend/operators.def has all its parts: its fp64 oracle (checked
// when this file compiles: infinicts::oracle::<Name> must exist), its CPU kernel
// (reference_impl/op/ops/<subject>.cc), its clauses (OP-<SUBJECT>-1 in docs/spec/op.md) and
// conformance, accuracy and perf cases in the operator suite's listing.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "oracle/oracles.h"

namespace infinicts {
namespace {

struct OperatorRow {
  const char *name;
  const char *subject;
  bool has_oracle;
};

// The description table's rows; naming the oracle here is the compile-time part of the check.
#define OPERATOR(Name, subject, ...) {#Name, #subject, sizeof(&::infinicts::oracle::Name) > 0},
const OperatorRow kOperators[] = {
#include "backend/operators.def"
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

// subject -> the modes its cases run in, from the suite's own listing (`--cts-list`).
std::map<std::string, std::set<std::string>> ModesBySubject(const std::string &suite) {
  std::map<std::string, std::set<std::string>> modes;
  FILE *pipe = popen(("'" + suite + "' --cts-list").c_str(), "r");
  if (pipe == nullptr) return modes;
  std::string listing;
  char buffer[4096];
  for (size_t got; (got = fread(buffer, 1, sizeof buffer, pipe)) > 0;) listing.append(buffer, got);
  pclose(pipe);
  std::stringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    const auto entry = nlohmann::json::parse(line, nullptr, false);
    if (entry.is_object()) modes[entry.value("subject", "")].insert(entry.value("mode", ""));
  }
  return modes;
}

TEST(OperatorParts, TheTableIsNotEmpty) { EXPECT_GE(std::size(kOperators), 20u); }

TEST(OperatorParts, EveryOperatorHasItsKernelClausesAndCases) {
  const std::string spec = ReadFile(INFINICTS_OP_SPEC);
  ASSERT_FALSE(spec.empty()) << "cannot read " << INFINICTS_OP_SPEC;
  const auto modes = ModesBySubject(INFINICTS_OP_SUITE);
  ASSERT_FALSE(modes.empty()) << "no cases listed by " << INFINICTS_OP_SUITE << " --cts-list";
  for (const OperatorRow &row : kOperators) {
    SCOPED_TRACE(std::string(row.name) + " (" + row.subject + ")");
    EXPECT_TRUE(row.has_oracle);
    const std::string kernel = std::string(INFINICTS_SOURCE_DIR) + "/reference_impl/op/ops/" + row.subject + ".cc";
    EXPECT_TRUE(std::filesystem::exists(kernel)) << "no CPU kernel " << kernel;
    EXPECT_NE(spec.find("**" + ClausePrefix(row.subject) + "1**"), std::string::npos)
        << "no clause " << ClausePrefix(row.subject) << "1 in " << INFINICTS_OP_SPEC;
    const auto found = modes.find(row.subject);
    for (const char *mode : {"conformance", "accuracy", "perf"}) {
      EXPECT_TRUE(found != modes.end() && found->second.count(mode)) << "no " << mode << " case of op." << row.subject;
    }
  }
}

}  // namespace
}  // namespace infinicts
