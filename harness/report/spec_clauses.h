// The clauses of the specification (docs/spec/*.md, syntax in docs/spec/README.md) and their
// strength. The runner reads the spec built into it: a case that checks SHOULD clauses alone
// records what it saw and never keeps a level from being reached, whatever its status.
#pragma once

#include <string>
#include <vector>

namespace infinicts::spec {

struct Clause {
  std::string id;  // "RT-DEV-3"
  bool must = false;
  int line = 0;
};

struct Spec {
  std::vector<Clause> clauses;
  std::vector<std::string> errors;  // malformed or duplicate clauses
};

// Reads the clause items ("- **ID** sentence with MUST or SHOULD") of a Markdown spec.
Spec ParseSpec(const std::string &markdown);

// The clauses of docs/spec/rt.md, op.md and ccl.md as this build has them.
const std::vector<Clause> &BuiltInClauses();

// Whether every clause of `clauses` is a SHOULD of the built-in spec (false for an empty list,
// and for any clause the spec does not have: an unknown clause is judged as a MUST).
bool ChecksShouldOnly(const std::vector<std::string> &clauses);

}  // namespace infinicts::spec
