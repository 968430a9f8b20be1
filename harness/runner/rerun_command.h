// The command that reruns one case alone, appended to every failing case's message.
#pragma once

#include <string>
#include <vector>

#include "report/case_result.h"

namespace infinicts::runner {

struct RerunContext {
  // The command as the user started it (argv[0] when it names a path, so the line works where
  // `infinicts` is not on PATH); "infinicts" otherwise.
  std::string program = "infinicts";
  std::vector<std::string> backends;  // as the user gave them
  std::string device;                 // as the user gave it
  std::string device_ids;             // empty when not given
  std::string timeout;                // empty when the default
  // Perf settings, carried to the rerun of a perf case when they were given.
  std::string profile;         // empty or "quick" (the default): not carried
  std::string perf_budget_ms;  // empty: the default
  bool cold_cache = false;
  std::string iters, warmup;  // empty: not given
  // The run swept collectives (--coll): a collective perf case reruns as a sweep of its one
  // size, the only way its size exists outside the compiled-in ones.
  bool collective_sweep = false;
  std::vector<std::string> against;  // --against, as the user gave them (a side-by-side run)
  std::string against_device, against_device_ids;  // --against-device(-ids); empty when not given
};

// infinicts run --backend build/lib --device cpu --suite rt --mode conformance --filter 'rt.memory…'
// (--expect is never carried: the rerun shows the case as it is.)
std::string RerunCommand(const RerunContext &context, const report::CaseResult &result);

// Quotes a word for a POSIX shell where it needs quoting.
std::string ShellQuote(const std::string &word);

}  // namespace infinicts::runner
