// Problems a run names instead of the compiled-in ones (infinicts run --op NAME --problem
// LINE, --cases FILE; docs/usage.md "Problem lines"). The runner writes them to a file, one
// "<subject> <problem line>" per line, and names it in $INFINICTS_PROBLEMS. While it is set,
// each operator's cases come from its lines alone (none where the file names it not), and
// the cases that take no problem (bad descriptors, dtype probes) are not declared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace infinicts::cts {

struct AdHocProblem {
  std::string subject;
  std::string line;
  std::string where;  // "FILE:N", for messages
};

// Whether $INFINICTS_PROBLEMS names a file (read once, on first use).
bool AdHocProblemsActive();
// The file's lines for one subject, in file order.
std::vector<AdHocProblem> AdHocProblemsFor(const std::string &subject);

// How `infinicts fuzz` varies a subject's problems (the op suite's common/problem_fuzzing.h):
// `draw` gives up to `count` valid problem lines drawn from the seed; `shrink` the valid lines
// simpler than a given one, simplest first.
struct ProblemFuzzing {
  std::function<std::vector<std::string>(uint64_t seed, size_t count)> draw;
  std::function<std::vector<std::string>(const std::string &line)> shrink;
};

// A subject whose problems parse from lines; a line for any other is an error.
bool RegisterProblemSubject(const std::string &subject, ProblemFuzzing fuzzing = {});
// The registered subjects, by name, and how each one's problems are varied.
const std::map<std::string, ProblemFuzzing> &ProblemSubjects();
// A line that does not parse: where it is and why.
void RecordAdHocProblemError(const AdHocProblem &problem, const std::string &why);
// Any other error of problem lines (a compiled-in case file's): the suite exits 2 naming it.
void RecordProblemLinesError(const std::string &error);
// Every error so far (unreadable file, unknown subject, a line that does not parse), each once.
std::vector<std::string> AdHocProblemErrors();

// Parses the text of a problems file; `name` is what messages call it. Lines: blank or
// starting with '#' are skipped; else "<subject> <problem line>". Appends to *errors what
// is not a problem line. A comment "#@ WHERE" names where the next line came from (the
// runner's copy of a --cases file keeps the user's file and line number in messages).
inline constexpr const char *kWhereDirective = "#@ ";
std::vector<AdHocProblem> ParseAdHocProblems(const std::string &text, const std::string &name,
                                             std::vector<std::string> *errors);

}  // namespace infinicts::cts
