// nccl-tests' sweep flags on `infinicts run` and `list` (docs/usage.md "Collective sweeps"):
//   --coll all_reduce --min-bytes 8 --max-bytes 8G --step-factor 2 --dtype f32 --reduce sum
// The collective perf cases of the sweep replace the compiled-in ones; the ccl suite reads the
// sweep from $INFINICTS_CCL_SWEEP (suites/ccl/perf_params.h).
#pragma once

#include <string>
#include <vector>

namespace infinicts::cli {

struct CollectiveSweepOptions {
  std::string collective;  // --coll: a collective's subject, or "all"
  std::string min_bytes;   // --min-bytes (nccl-tests -b), with K, M or G
  std::string max_bytes;   // --max-bytes (-e)
  std::string step_factor;  // --step-factor (-f)
  std::string dtype;       // --dtype (-d)
  std::string reduce;      // --reduce (-o), reductions only
  bool Given() const {
    return !collective.empty() || !min_bytes.empty() || !max_bytes.empty() || !step_factor.empty() ||
           !dtype.empty() || !reduce.empty();
  }
};

// "8", "1K", "64M", "8G" (powers of 1024, as nccl-tests reads them); false for anything else.
bool ParseByteCount(const std::string &text, size_t *bytes);

// Checks the flags against the suites and modes asked for (only ccl's perf cases sweep; none
// asked means those), sets $INFINICTS_CCL_SWEEP, and sets *suites = {"ccl"}, *modes =
// {"perf"} and *subjects to the swept collectives.
bool ApplyCollectiveSweep(const CollectiveSweepOptions &options, std::vector<std::string> *suites,
                          std::vector<std::string> *modes, std::vector<std::string> *subjects, std::string *error);

}  // namespace infinicts::cli
