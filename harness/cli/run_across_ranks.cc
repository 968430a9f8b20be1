#include "cli/run_across_ranks.h"

#include <algorithm>
#include <map>
#include <optional>

#include "backend/names.h"
#include "runner/expectations.h"
#include "runner/probe.h"
#include "runner/selection.h"
#include "runner/suite_runner.h"

namespace infinicts::cli {
namespace {

constexpr double kMinimumProbeSeconds = 60;  // as for the whole run: loading a driver stack takes a while
constexpr double kLostRankGraceSeconds = 60;

}  // namespace

bool RanksAllow(const RunOptions &options, std::string *error) {
  if (!options.shard.empty()) {
    *error = "--shard splits a run across machines; under mpirun the ranks already share each case: leave one out";
    return false;
  }
  return true;
}

bool KeepCasesAcrossRanks(const RunOptions &options, std::vector<SuiteCases> *suites,
                          std::vector<std::string> *narrowed, std::string *error) {
  for (const std::string &suite : options.suites) {
    if (suite != "ccl") {
      *error = "under mpirun only the ccl suite runs (one rank per process); run the " + suite +
               " suite without mpirun, or give --suite ccl";
      return false;
    }
  }
  size_t left_out = 0;
  std::vector<SuiteCases> kept;
  for (SuiteCases &suite : *suites) {
    if (suite.suite != "ccl") continue;  // every suite was selected: only the collectives spread
    std::vector<cts::ListedCase> across;
    for (cts::ListedCase &listed : suite.cases) {
      if (listed.across_processes) across.push_back(std::move(listed));
      else ++left_out;
    }
    suite.cases = std::move(across);
    kept.push_back(std::move(suite));
  }
  *suites = std::move(kept);
  if (left_out > 0) {
    narrowed->push_back("under mpirun, the " + std::to_string(left_out) +
                        " collective cases that drive every rank from one process were left out");
  }
  return true;
}

int RankDevice(const std::vector<int> &requested_ids, int device_count, int local_rank) {
  if (!requested_ids.empty()) return requested_ids[static_cast<size_t>(local_rank) % requested_ids.size()];
  return device_count > 0 ? local_rank % device_count : 0;
}

int RunRankPart(const RunOptions &options, runner::RankLink &link) {
  std::string error;
  const auto device_type = ParseDeviceType(options.device);
  if (!device_type) return UsageError("unknown device '" + options.device + "'");
  std::vector<int> requested_ids;
  for (size_t begin = 0; !options.device_ids.empty() && begin <= options.device_ids.size();) {
    const size_t comma = std::min(options.device_ids.find(',', begin), options.device_ids.size());
    requested_ids.push_back(std::atoi(options.device_ids.substr(begin, comma - begin).c_str()));
    begin = comma + 1;
  }
  std::optional<runner::Expectations> expectations;
  if (!options.expect_file.empty()) {
    runner::Expectations loaded;
    if (!runner::Expectations::Load(options.expect_file, &loaded, &error)) return UsageError(error);
    expectations = std::move(loaded);
  }
  if (!RanksAllow(options, &error)) return UsageError(error);
  runner::BackendProbe probe;
  if (!runner::ProbeBackend(options.backends, std::max(options.timeout_s, kMinimumProbeSeconds), &probe, &error)) {
    return UsageError("rank " + std::to_string(link.rank()) + ": " + error);
  }
  const int device_count = probe.device_counts.at(*device_type);
  if (device_count == 0) {
    return UsageError("rank " + std::to_string(link.rank()) + ": the backend has no " + DeviceTypeName(*device_type) +
                      " device");
  }
  runner::Selection selection;
  selection.modes = ModesOrDefault(options.modes);
  selection.filter = runner::CaseFilter(options.filters);
  selection.level = options.level;
  std::vector<std::string> suite_names, missing_libraries;
  if (!SuitesToRun(options.suites, probe.exported, probe.libraries, &suite_names, &missing_libraries, &error)) {
    return UsageError(error);
  }
  std::vector<SuiteCases> suites;
  if (!CollectCases(suite_names, selection, &suites, &error)) return UsageError(error);
  std::vector<std::string> narrowed;
  if (!KeepCasesAcrossRanks(options, &suites, &narrowed, &error)) return UsageError(error);

  const std::string device_id = std::to_string(RankDevice(requested_ids, device_count, link.layout().local_rank));
  for (const SuiteCases &suite : suites) {
    // The cases rank 0 runs: those the expectations file skips are left out on every rank.
    std::vector<cts::ListedCase> to_run;
    std::map<std::string, size_t> index_of;
    std::vector<std::string> ids;
    for (const cts::ListedCase &listed : suite.cases) {
      if (expectations && expectations->Find(runner::ExpectationKind::kSkip, listed.id)) continue;
      index_of[listed.id] = ids.size();
      ids.push_back(listed.id);
      to_run.push_back(listed);
    }
    if (to_run.empty()) continue;
    link.BeginCases(ids, nullptr);
    runner::SuiteRunSpec spec{suite.binary, suite.suite, options.backends, DeviceTypeName(*device_type), device_id,
                              options.timeout_s};
    spec.rank_link = &link;
    runner::SuiteRunner suite_runner(spec, to_run);
    const bool finished = suite_runner.Run(
        [&](report::CaseResult part) {
          const size_t index = index_of.at(part.id);
          link.PartEnded(index, std::move(part));
        },
        [](const cts::ListedCase *) {});
    if (!finished) link.AbortAll(kExitFailed);  // interrupted: mpirun is ending the job
    link.FinishCases(options.timeout_s + kLostRankGraceSeconds);
  }
  return link.AgreeExitCode(kExitOk);
}

}  // namespace infinicts::cli
