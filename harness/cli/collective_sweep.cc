#include "cli/collective_sweep.h"

#include <algorithm>
#include <cstdlib>

namespace infinicts::cli {
namespace {

const std::vector<std::string> kCollectives = {"all_reduce", "all_gather",   "reduce_scatter",
                                               "broadcast",  "all_gather_v", "reduce_scatter_v"};
const std::vector<std::string> kReducing = {"all_reduce", "reduce_scatter", "reduce_scatter_v"};
// The collectives' number dtypes and reductions (docs/spec/ccl.md).
const std::vector<std::string> kDtypes = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64"};
const std::vector<std::string> kReductions = {"sum", "prod", "max", "min", "avg"};

bool Among(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string Listed(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

bool ParseByteCount(const std::string &text, size_t *bytes) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  char *end = nullptr;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  unsigned shift = 0;
  const std::string unit = end;
  if (unit == "K" || unit == "k") shift = 10;
  else if (unit == "M" || unit == "m") shift = 20;
  else if (unit == "G" || unit == "g") shift = 30;
  else if (!unit.empty()) return false;
  if (value == 0 || value > (~0ull >> 1 >> shift)) return false;
  *bytes = static_cast<size_t>(value << shift);
  return true;
}

bool ApplyCollectiveSweep(const CollectiveSweepOptions &options, std::vector<std::string> *suites,
                          std::vector<std::string> *modes, std::vector<std::string> *subjects, std::string *error) {
  if (options.collective.empty()) {
    *error = "the sweep flags need --coll NAME (" + Listed(kCollectives) + ", or all)";
    return false;
  }
  if (options.collective != "all" && !Among(kCollectives, options.collective)) {
    *error = "--coll " + options.collective + ": no such collective (" + Listed(kCollectives) + ", or all)";
    return false;
  }
  if (!suites->empty() && *suites != std::vector<std::string>{"ccl"}) {
    *error = "--coll sweeps collectives, which only the ccl suite has; leave out --suite or write --suite ccl";
    return false;
  }
  if (!modes->empty() && *modes != std::vector<std::string>{"perf"}) {
    *error = "--coll sweeps the perf cases of the collectives; leave out --mode or write --mode perf";
    return false;
  }
  size_t min_bytes = 8, max_bytes = size_t{64} << 20;
  if (!options.min_bytes.empty() && !ParseByteCount(options.min_bytes, &min_bytes)) {
    *error = "--min-bytes " + options.min_bytes + ": want a positive count of bytes (8, 1K, 64M, 8G)";
    return false;
  }
  if (!options.max_bytes.empty() && !ParseByteCount(options.max_bytes, &max_bytes)) {
    *error = "--max-bytes " + options.max_bytes + ": want a positive count of bytes (8, 1K, 64M, 8G)";
    return false;
  }
  if (options.max_bytes.empty()) max_bytes = std::max(max_bytes, min_bytes);
  if (max_bytes < min_bytes) {
    *error = "--max-bytes " + options.max_bytes + " is below --min-bytes " + options.min_bytes;
    return false;
  }
  std::string factor = options.step_factor.empty() ? "2" : options.step_factor;
  char *end = nullptr;
  const long parsed_factor = std::strtol(factor.c_str(), &end, 10);
  if (*end != '\0' || parsed_factor < 2 || parsed_factor > 1024) {
    *error = "--step-factor " + factor + ": want a whole factor from 2 to 1024";
    return false;
  }
  const std::string dtype = options.dtype.empty() ? "f32" : options.dtype;
  if (!Among(kDtypes, dtype)) {
    *error = "--dtype " + dtype + ": the collectives take " + Listed(kDtypes);
    return false;
  }
  const std::string reduce = options.reduce.empty() ? "sum" : options.reduce;
  if (!Among(kReductions, reduce)) {
    *error = "--reduce " + reduce + ": the reductions are " + Listed(kReductions);
    return false;
  }
  if (!options.reduce.empty() && options.collective != "all" && !Among(kReducing, options.collective)) {
    *error = "--reduce applies to " + Listed(kReducing) + ", and " + options.collective + " reduces nothing";
    return false;
  }
  const std::string sweep = "coll=" + options.collective + " min=" + std::to_string(min_bytes) +
                            " max=" + std::to_string(max_bytes) + " factor=" + factor + " dtype=" + dtype +
                            " op=" + reduce;
  setenv("INFINICTS_CCL_SWEEP", sweep.c_str(), 1);
  *suites = {"ccl"};
  *modes = {"perf"};
  *subjects = options.collective == "all" ? kCollectives : std::vector<std::string>{options.collective};
  return true;
}

}  // namespace infinicts::cli
