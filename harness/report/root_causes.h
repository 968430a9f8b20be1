// Failures grouped by root cause (docs/usage.md "Root causes"): one bug, one group, however many
// dtypes, shapes, layouts and clauses it shows in; two bugs, two groups. A group is what the
// failure is, never its digits:
//   - a crash on invalid input: the call and the NULL arguments it was probed with, whatever the
//     operator ("infiniopCreate<X>Descriptor(handle = NULL)");
//   - a blocked case: the clause and case that show the root cause;
//   - any other failure of a case that probes invalid input: its test and clause, whatever the
//     operator (a create call that accepts mixed dtypes, in every operator that does);
//   - a failure, a timeout or a crash on valid input: its subject (a crash: the call it died in,
//     over every subject), and what triggers it, found by comparing the failing cases with the
//     passing ones of the same test: a parameter whose values fail wherever they occur
//     ("x_layout ∈ {broadcast, transposed}", "dtype = f64"), or every case of a test. The same
//     trigger in several tests of a subject is one group.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "report/case_result.h"

namespace infinicts::report {

inline constexpr size_t kRootCauseExamples = 3;

struct RootCauseGroup {
  Status status = Status::kFail;
  std::string clause;   // the first clause the first case's first line names ("" when none)
  std::string message;  // the first line of the first case in the group
  int count = 0;
  std::vector<std::string> examples;  // the first kRootCauseExamples ids
  std::vector<std::string> subjects;  // "op.softplus", in order of first failure
  std::string trigger;                // what the failing cases share that the passing lack; "" when unknown
  std::string rerun;                  // the command that reruns the first case alone, when its message has one
};

// The first line with each number other than a clause's replaced by "#", and each bracketed
// list of numbers by "[…]": "output y [7, 31]: 3 of 217 elements" and "output y [2, 3, 5]: 5 of 30
// elements" have one shape.
std::string MessageShape(const std::string &first_line);
// The first clause id in a line ("RT-MEM-2"), or "".
std::string FirstClauseIn(const std::string &line);
// An interface function with its operator abstracted: "infiniopCreateGemmDescriptor" ->
// "infiniopCreate<X>Descriptor", "infiniopGemm" -> "infiniop<X>"; others stay as they are.
std::string WithOperatorAbstracted(const std::string &call);

class RootCauses {
 public:
  // Every result (passing ones tell a failure's trigger from what all cases share).
  void Add(const CaseResult &result);
  // Largest groups first (then in order of appearance).
  std::vector<RootCauseGroup> Groups() const;
  bool empty() const { return failures_ == 0; }

  // What grouping keeps of a result.
  struct Facts {
    size_t order = 0;
    std::string id, subject_key, test, first_line, rerun;
    Status status = Status::kPass;
    bool invalid_input = false;  // of a case that probes invalid input
    bool crash_on_invalid_input = false;
    std::map<std::string, std::string> params;  // each parameter as text
  };
  // A group inside one subject, before groups of several subjects merge.
  struct Partial {
    std::string key;  // groups of equal keys are one
    std::string trigger;
    std::vector<const Facts *> cases;
  };

 private:
  std::vector<Partial> PartialsOf(const std::vector<Facts> &facts) const;

  std::map<std::string, std::vector<Facts>> by_subject_;  // "suite.subject" -> its results, in order
  mutable std::map<std::string, std::vector<Partial>> partials_;  // cached per subject
  mutable std::set<std::string> stale_;                           // subjects whose partials need redoing
  size_t added_ = 0;
  size_t failures_ = 0;
};

// "4 blocked in op.gemm, op.add: RT-STREAM-2 … (e.g. a, b, c)", the message cut to `width`
// characters; the trigger follows the subjects ("on dtype = f64").
std::string DescribeGroup(const RootCauseGroup &group, size_t width = 160);

}  // namespace infinicts::report
