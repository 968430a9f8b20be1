// The link between a specification file (docs/spec/*.md) and a suite's cases: every
// case cites clauses the spec has, and every MUST clause is cited by some case.
// Clause syntax: docs/spec/README.md.
#pragma once

#include <string>
#include <vector>

#include "report/spec_clauses.h"  // Clause, Spec, ParseSpec

namespace infinicts::spec {

struct CitingCase {
  std::string id;  // "rt.memory.conformance/memcpy/h2d/bytes_1"
  std::vector<std::string> clauses;
  std::string subject;  // "memory"; empty when the listing leaves it out
  std::string mode;     // "conformance", "accuracy" or "perf"; likewise
};

// Runs `<binary> --cts-list` and appends its output to *listing; false when it cannot run
// or exits non-zero.
bool ListSuite(const std::string &binary, std::string *listing);

// Reads `--cts-list` output: one JSON object a line with "id" and "clauses" (and, where
// given, "subject" and "mode").
std::vector<CitingCase> ParseCaseList(const std::string &json_lines, std::vector<std::string> *errors);

struct LinkReport {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};

LinkReport CheckLinks(const Spec &spec, const std::vector<CitingCase> &cases);

// The body rows of the first Markdown table of `text` whose header row starts with
// `header_prefix` ("| subject | flops per element"), each as its cells, trimmed; a `\|` inside
// a cell is not a separator. Empty when there is no such table.
std::vector<std::vector<std::string>> TableRows(const std::string &text, const std::string &header_prefix);

// A cell listing several names, "add, sub, mul" -> {"add", "sub", "mul"}.
std::vector<std::string> ListedNames(const std::string &cell);

}  // namespace infinicts::spec
