// The collective sweep of the command line (perf_params.h).
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "perf_params.h"

namespace infinicts::ccl_cases {
namespace {

constexpr PerfCollective kCollectives[] = {PerfCollective::kAllReduce,  PerfCollective::kAllGather,
                                           PerfCollective::kReduceScatter, PerfCollective::kBroadcast,
                                           PerfCollective::kAllGatherV, PerfCollective::kReduceScatterV};

size_t ParseCount(const std::string &key, const std::string &text) {
  size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-') throw std::invalid_argument(key + "=" + text + ": not a count");
  return static_cast<size_t>(value);
}

}  // namespace

const char *CollectiveSubject(PerfCollective collective) {
  switch (collective) {
    case PerfCollective::kAllReduce: return "all_reduce";
    case PerfCollective::kAllGather: return "all_gather";
    case PerfCollective::kReduceScatter: return "reduce_scatter";
    case PerfCollective::kBroadcast: return "broadcast";
    case PerfCollective::kAllGatherV: return "all_gather_v";
    case PerfCollective::kReduceScatterV: return "reduce_scatter_v";
  }
  return "collective";
}

CollectiveSweep ParseCollectiveSweep(const std::string &text) {
  CollectiveSweep sweep;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const size_t equals = word.find('=');
    if (equals == std::string::npos) throw std::invalid_argument("'" + word + "' is not key=value");
    const std::string key = word.substr(0, equals), value = word.substr(equals + 1);
    if (key == "coll") {
      bool known = value == "all";
      for (PerfCollective collective : kCollectives) known = known || value == CollectiveSubject(collective);
      if (!known) throw std::invalid_argument("coll=" + value + ": no such collective");
      sweep.collective = value;
    } else if (key == "min") {
      sweep.min_bytes = ParseCount(key, value);
    } else if (key == "max") {
      sweep.max_bytes = ParseCount(key, value);
    } else if (key == "factor") {
      sweep.step_factor = ParseCount(key, value);
    } else if (key == "dtype") {
      bool known = false;
      for (infiniDtype_t dtype : kNumberDtypes) {
        if (value == NumberDtypeName(dtype)) {
          sweep.dtype = dtype;
          known = true;
        }
      }
      if (!known) throw std::invalid_argument("dtype=" + value + ": no number dtype of that name");
    } else if (key == "op") {
      bool known = false;
      for (infinicclReduceOp_t op : kReduceOps) {
        if (value == OpName(op)) {
          sweep.op = op;
          known = true;
        }
      }
      if (!known) throw std::invalid_argument("op=" + value + ": no reduction of that name");
    } else {
      throw std::invalid_argument("no key " + key + " (coll, min, max, factor, dtype, op)");
    }
  }
  if (sweep.collective.empty()) throw std::invalid_argument("no coll=");
  if (sweep.min_bytes == 0 || sweep.max_bytes < sweep.min_bytes)
    throw std::invalid_argument("sizes from " + std::to_string(sweep.min_bytes) + " to " +
                                std::to_string(sweep.max_bytes) + " bytes: want 0 < min <= max");
  if (sweep.step_factor < 2) throw std::invalid_argument("factor=" + std::to_string(sweep.step_factor) + ": want 2 or more");
  return sweep;
}

const std::optional<CollectiveSweep> &SweepFromEnvironment() {
  static const std::optional<CollectiveSweep> sweep = []() -> std::optional<CollectiveSweep> {
    const char *text = std::getenv("INFINICTS_CCL_SWEEP");
    if (!text || !*text) return std::nullopt;
    try {
      return ParseCollectiveSweep(text);
    } catch (const std::invalid_argument &error) {
      std::fprintf(stderr, "infinicts suite ccl: INFINICTS_CCL_SWEEP=\"%s\": %s\n", text, error.what());
      std::exit(2);
    }
  }();
  return sweep;
}

std::vector<CollectivePerfParam> SweptParams(const CollectiveSweep &sweep, PerfCollective collective) {
  std::vector<CollectivePerfParam> params;
  if (sweep.collective != "all" && sweep.collective != CollectiveSubject(collective)) return params;
  // nccl-tests: min, min·f, min·f², ... up to max.
  for (size_t bytes = sweep.min_bytes; bytes <= sweep.max_bytes; bytes *= sweep.step_factor) {
    CollectivePerfParam param;
    param.collective = collective;
    param.dtype = sweep.dtype;
    param.op = sweep.op;
    param.ranks = kAllRanks;
    param.bytes = bytes;
    param.swept = true;
    params.push_back(param);
    if (bytes > sweep.max_bytes / sweep.step_factor) break;  // the next step would pass max (or overflow)
  }
  return params;
}

}  // namespace infinicts::ccl_cases
