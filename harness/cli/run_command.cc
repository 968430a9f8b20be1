// `infinicts run`: probe the backend, select the cases, run them suite by suite in
// child processes, rewrite the report after every case, print the summary.
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <sstream>

#include "backend/names.h"
#include "cli/case_selection.h"
#include "cli/commands.h"
#include "cli/terminal.h"
#include "report/atomic_file.h"
#include "report/report.h"
#include "runner/interrupt.h"
#include "runner/probe.h"
#include "runner/rerun_command.h"
#include "runner/suite_runner.h"

namespace infinicts::cli {
namespace {

constexpr double kMinimumProbeSeconds = 60;  // loading a real driver stack can take a while

std::string DefaultReportPath(const std::string &device) {
  const std::time_t now = std::time(nullptr);
  std::tm local {};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &local);
  return "reports/out/" + device + "-" + stamp + ".json";
}

// "0,1" -> {0, 1}; false for anything but non-negative integers.
bool ParseDeviceIds(const std::string &text, std::vector<int> *ids) {
  std::istringstream parts(text);
  std::string part;
  while (std::getline(parts, part, ',')) {
    if (part.empty() || part.size() > 6 || part.find_first_not_of("0123456789") != std::string::npos) return false;
    ids->push_back(std::stoi(part));
  }
  return !ids->empty();
}

// Rewrites the report after every case; warns once if the disk refuses.
class ReportFile {
 public:
  ReportFile(std::string path, report::Report *report) : path_(std::move(path)), report_(report) {}
  bool Write(bool durable, std::string *error) {
    report_->run.finished = report::IsoTimeNowUtc();
    return report::WriteFileAtomically(path_, report_->Serialize(), durable, error);
  }
  void Update() {
    std::string error;
    if (!Write(false, &error) && !warned_) {
      std::fprintf(stderr, "infinicts: warning: %s\n", error.c_str());
      warned_ = true;
    }
  }
  const std::string &path() const { return path_; }

 private:
  std::string path_;
  report::Report *report_;
  bool warned_ = false;
};

}  // namespace

int RunCommand(const RunOptions &options) {
  const auto device_type = ParseDeviceType(options.device);
  if (!device_type) {
    return UsageError("unknown device '" + options.device + "'; expected cpu, nvidia, another device type name "
                      "or its number");
  }
  const std::string device_name = DeviceTypeName(*device_type);
  std::vector<int> requested_ids;
  if (!options.device_ids.empty() && !ParseDeviceIds(options.device_ids, &requested_ids)) {
    return UsageError("--device-ids wants device numbers separated by commas (0,1), not '" + options.device_ids + "'");
  }

  runner::BackendProbe probe;
  std::string error;
  if (!runner::ProbeBackend(options.backends, std::max(options.timeout_s, kMinimumProbeSeconds), &probe, &error)) {
    return UsageError(error);
  }
  runner::Selection selection;
  selection.modes = ModesOrDefault(options.modes);
  selection.filter = runner::CaseFilter(options.filters);
  selection.level = options.level;
  std::vector<SuiteCases> suites;
  if (!CollectCases(options.suites, selection, &suites, &error)) return UsageError(error);
  size_t total = 0;
  for (const SuiteCases &suite : suites) total += suite.cases.size();
  if (total == 0) return UsageError("no case matches the selected suites, modes, level and filter");

  const int device_count = probe.device_counts.at(*device_type);
  for (int id : requested_ids) {
    if (device_count > 0 && id >= device_count) {
      return UsageError("--device-ids names device " + std::to_string(id) + " but the backend has " +
                        std::to_string(device_count) + " " + device_name + " device(s)");
    }
  }

  report::Report report;
  report.host = report::HostInfo::ThisMachine();
  report.backend.libraries = probe.libraries;
  report.backend.device_type = device_name;
  report.backend.device_count = device_count;
  report.backend.exported = probe.exported;
  report.backend.missing = probe.missing;
  if (!requested_ids.empty()) {
    report.backend.device_ids = requested_ids;
  } else {
    for (int id = 0; id < device_count; ++id) report.backend.device_ids.push_back(id);
  }
  report.run.started = report::IsoTimeNowUtc();
  report.run.argv = options.argv;
  for (const SuiteCases &suite : suites) report.run.suites.push_back(suite.suite);
  report.run.modes = selection.modes;
  ReportFile report_file(options.out.empty() ? DefaultReportPath(device_name) : options.out, &report);
  if (!report_file.Write(false, &error)) return UsageError("cannot write the report: " + error);

  runner::RerunContext rerun{options.backends, options.device, options.device_ids, options.timeout_text};
  RunDisplay display(static_cast<int>(total), options.quiet);
  auto on_result = [&](report::CaseResult result) {
    if (report::IsFailure(result.status)) {
      if (!result.message.empty()) result.message += "\n";
      result.message += "rerun: " + runner::RerunCommand(rerun, result);
    }
    display.OnResult(result);
    report.Add(std::move(result));
    report_file.Update();
  };

  bool finished = true;
  if (device_count == 0) {
    const std::string reason = "the backend has no " + device_name + " device";
    std::fprintf(stderr, "infinicts: warning: %s; every selected case is skipped\n", reason.c_str());
    for (const SuiteCases &suite : suites) {
      for (const cts::ListedCase &listed : suite.cases) {
        report::CaseResult result;
        result.id = listed.id;
        result.suite = listed.suite;
        result.subject = listed.subject;
        result.mode = listed.mode;
        result.clauses = listed.clauses;
        result.params = listed.params;
        result.status = report::Status::kSkip;
        result.message = reason;
        on_result(std::move(result));
      }
    }
  } else {
    runner::InstallInterruptHandlers();
    for (const SuiteCases &suite : suites) {
      if (suite.cases.empty()) continue;
      runner::SuiteRunSpec spec{suite.binary, options.backends, device_name, options.device_ids, options.timeout_s};
      runner::SuiteRunner suite_runner(spec, suite.cases);
      if (!suite_runner.Run(on_result, [&](const cts::ListedCase *running) { display.OnTick(running); })) {
        finished = false;
        break;
      }
    }
  }
  display.Finish();

  report.run.complete = finished;
  if (!report_file.Write(/*durable=*/true, &error)) {
    std::fprintf(stderr, "infinicts: cannot write the report: %s\n", error.c_str());
    return kExitFailed;
  }
  if (!finished) {
    std::fprintf(stderr, "infinicts: interrupted; %s holds the %zu cases that finished\n", report_file.path().c_str(),
                 report.results().size());
    runner::ReraiseInterrupt();
  }
  PrintSummary(stdout, report, report_file.path());
  std::fflush(stdout);

  if (device_count == 0) return kExitOk;
  const report::StatusCounts &counts = report.counts();
  const bool failed = counts[report::Status::kFail] + counts[report::Status::kCrash] + counts[report::Status::kTimeout] > 0;
  const report::LevelOutcomes levels = report.levels();
  const bool level_missed = options.level && !(*options.level == "minimal" ? levels.minimal : levels.advanced).reached;
  return failed || level_missed ? kExitFailed : kExitOk;
}

}  // namespace infinicts::cli
