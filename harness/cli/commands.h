// The subcommands of `infinicts`, each taking its parsed options and returning the exit code:
// 0 nothing failed, 1 a failure, crash or timeout (or a --level not reached), 2 bad usage
// or a backend that cannot be loaded.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/collective_sweep.h"
#include "cli/problem_lines.h"
#include "report/run_facts.h"

namespace infinicts::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr double kDefaultTimeoutSeconds = 60;

struct ListOptions {
  std::vector<std::string> suites;  // empty: every suite binary present
  std::vector<std::string> modes;   // empty: conformance, accuracy
  std::vector<std::string> filters;
  std::string profile = "quick";
  bool long_format = false;  // --long: clauses and params after each id
  ProblemOptions problems;   // --op/--problem, --cases
  CollectiveSweepOptions sweep;  // --coll, --min-bytes, ...
};

struct ShowOptions {
  std::string id;      // a case id, or a glob of them
  std::string report;  // FILE.json
};

struct RunOptions {
  std::vector<std::string> backends;
  std::string device;
  std::string device_ids;  // "0,1" or empty
  std::vector<std::string> suites;
  std::vector<std::string> modes;
  std::optional<std::string> level;
  std::vector<std::string> filters;
  double timeout_s = kDefaultTimeoutSeconds;
  std::string timeout_text;  // as given, for rerun commands; empty when not given
  std::string out;
  bool quiet = false;
  std::string expect_file;       // --expect: known failures, flaky cases, skips
  std::string profile = "quick";  // --profile quick|full (perf sweeps)
  double perf_budget_ms = 0;     // --perf-budget-ms; 0: the timing default
  bool cold_cache = false;       // --cold-cache
  int repeat = 1;                // --repeat N: passes over the perf cases
  bool allow_no_device = false;  // --allow-no-device
  std::string shard;             // --shard K/N, or empty
  ProblemOptions problems;       // --op/--problem, --cases
  CollectiveSweepOptions sweep;  // --coll, --min-bytes, ...
  int iters = 0;                 // --iters: timed iterations of every perf case; 0: the budget decides
  int warmup = -1;               // --warmup: warm-up iterations; -1: the timing default
  std::vector<std::string> against;  // --against: the other backend, run side by side
  std::string against_device;        // --against-device: its device type; empty: --device's
  std::string against_device_ids;    // --against-device-ids; empty: every device of that type
  std::vector<std::string> argv;
  // Set by a side-by-side run (cli/side_by_side.h) for each of its two runs, never by a flag.
  enum class Side { kAlone, kOther, kUnderTest } side = Side::kAlone;
  std::map<std::string, double> other_medians_ms;  // kUnderTest: the other backend's perf medians by id
  std::optional<report::RunInfo::OtherSide> other_side;  // kUnderTest: the other backend's run
};

struct CompareOptions {
  std::vector<std::string> reports;  // BASE.json [BASE2.json ...] NEW.json: all but the last are baselines
  double threshold = 0.05; // a relative change smaller than this is noise
  std::string md, html;    // outputs; empty: not written
  std::string md_append;   // Markdown added at the end of this file
};

struct ReportOptions {
  std::string input;                  // FILE.json
  std::string html, md, junit;        // outputs; empty: not written
  std::string md_append;              // Markdown added at the end of this file
  std::vector<std::string> benchmarks;  // Google Benchmark JSON files to show with the report
};

struct MergeOptions {
  std::vector<std::string> inputs;  // SHARD.json...
  std::string out;                  // --out FILE.json
  bool allow_partial = false;       // --allow-partial: a missing shard does not fail the merge
  std::vector<std::string> argv;
};

struct InfoOptions {
  std::vector<std::string> backends;
  std::string device;
};

int ListCommand(const ListOptions &options);
int RunCommand(const RunOptions &options);
int InfoCommand(const InfoOptions &options);
int CompareCommand(const CompareOptions &options);
int ReportCommand(const ReportOptions &options);
int MergeCommand(const MergeOptions &options);
int ShowCommand(const ShowOptions &options);

}  // namespace infinicts::cli
