// `infinicts run --expect FILE`: what a vendor already knows about its backend, in one
// file (the roles of deqp-runner's baseline, flakes and skips files). One entry a line:
//   xfail GLOB [# reason]   a known failure: fail/crash/timeout end `xfail`, a pass is
//                           reported as an unexpected pass
//   flaky GLOB [# reason]   a failing case is run again, alone, up to twice more
//   skip  GLOB [# reason]   the case is not run and ends `skip`
// GLOB is an fnmatch glob on case ids, as in --filter. Blank lines and lines starting
// with '#' are ignored. The first entry of a kind that matches a case applies.
#pragma once

#include <string>
#include <vector>

#include "cts/case_list.h"
#include "report/case_result.h"

namespace infinicts::runner {

enum class ExpectationKind { kXfail, kFlaky, kSkip };

struct Expectation {
  ExpectationKind kind = ExpectationKind::kXfail;
  std::string glob;
  std::string reason;  // text after '#', trimmed; may be empty
  int line = 0;        // 1-based line in the file
};

class Expectations {
 public:
  // Reads and parses a file. False with *error = "FILE:LINE: why" (or "FILE: cannot be read").
  static bool Load(const std::string &path, Expectations *expectations, std::string *error);
  // Parses text; file names it in error messages and in the "where" of every entry.
  static bool Parse(const std::string &text, const std::string &file, Expectations *expectations, std::string *error);

  const std::string &file() const { return file_; }
  const std::vector<Expectation> &entries() const { return entries_; }
  // The first entry of that kind whose glob matches id, or null.
  const Expectation *Find(ExpectationKind kind, const std::string &id) const;
  // "FILE:LINE" of an entry.
  std::string Where(const Expectation &entry) const;

 private:
  std::string file_;
  std::vector<Expectation> entries_;
};

// The result of a case the file asked to skip: status skip, "listed as skip in FILE:LINE (reason)".
report::CaseResult SkippedResult(const cts::ListedCase &listed, const Expectations &expectations,
                                 const Expectation &entry);

// Applies an xfail entry to a finished case: a fail, crash or timeout becomes `xfail`
// with its message prefixed "expected failure (FILE:LINE): "; a pass stays a pass with a
// note and the function returns true (an unexpected pass); other statuses are left alone.
bool ApplyXfail(const Expectations &expectations, const Expectation &entry, report::CaseResult *result);

}  // namespace infinicts::runner
