#include "cli/side_by_side.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/names.h"
#include "cli/case_selection.h"
#include "cli/outputs.h"
#include "cts/against_outputs.h"
#include "report/load_report.h"
#include "runner/interrupt.h"

namespace infinicts::cli {
namespace {

std::string Names(const std::vector<std::string> &backends) {
  std::string names;
  for (const std::string &backend : backends) names += (names.empty() ? "" : " + ") + backend;
  return names;
}

// The perf medians of the other backend's passing cases, by id.
std::map<std::string, double> PassingMedians(const nlohmann::json &report) {
  std::map<std::string, double> medians;
  for (const nlohmann::json &result : report.at("results")) {
    if (result.value("mode", "") != "perf" || result.value("status", "") != "pass") continue;
    const auto median = result.at("metrics").find("time_ms_median");
    if (median != result.at("metrics").end() && median->is_number() && median->get<double>() > 0) {
      medians[result.at("id").get<std::string>()] = median->get<double>();
    }
  }
  return medians;
}

// The perf cases side by side, from the finished report.
void PrintPerfSideBySide(const nlohmann::json &report, const std::string &under_test, const std::string &other) {
  bool header = false;
  for (const nlohmann::json &result : report.at("results")) {
    const nlohmann::json &metrics = result.at("metrics");
    if (!metrics.contains("speedup_vs_against") || !metrics["speedup_vs_against"].is_number()) continue;
    if (!header) {
      std::printf("\nperf side by side (speedup: %s's median over %s's; above 1, %s is faster)\n", other.c_str(),
                  under_test.c_str(), under_test.c_str());
      std::printf("  %10s %10s %8s  case\n", "ms", "against", "speedup");
      header = true;
    }
    std::printf("  %10.4g %10.4g %8.3g  %s\n", metrics.value("time_ms_median", 0.0),
                metrics.value("against_time_ms_median", 0.0), metrics["speedup_vs_against"].get<double>(),
                result.at("id").get<std::string>().c_str());
  }
}

}  // namespace

bool HasTwoSides(const cts::ListedCase &listed) {
  return listed.mode == "perf" || listed.id.find(".accuracy/matches_against/") != std::string::npos;
}

void AddOtherSide(const std::map<std::string, double> &other_medians_ms, report::CaseResult *result) {
  if (result->mode != "perf" || result->status != report::Status::kPass) return;
  const auto theirs = other_medians_ms.find(result->id);
  const auto ours = result->metrics.find("time_ms_median");
  if (theirs == other_medians_ms.end() || ours == result->metrics.end() || !ours->is_number() || ours->get<double>() <= 0)
    return;
  result->metrics["against_time_ms_median"] = theirs->second;
  result->metrics["speedup_vs_against"] = theirs->second / ours->get<double>();
}

std::string OtherSideReportPath(const std::string &report_path) {
  const std::filesystem::path path(report_path);
  const std::string stem = path.extension() == ".json" ? path.stem().string() : path.filename().string();
  return (path.parent_path() / (stem + ".against.json")).string();
}

int RunSideBySide(const RunOptions &options, const std::function<int(const RunOptions &)> &run) {
  if (options.out == "-" || options.out == "/dev/stdout") {
    return UsageError("--against writes two reports, one for each backend: give --out a file, not standard output");
  }
  const std::vector<std::string> modes = ModesOrDefault(options.modes);
  bool two_sided_mode = false;
  for (const std::string &mode : modes) two_sided_mode = two_sided_mode || mode == "accuracy" || mode == "perf";
  if (!two_sided_mode) {
    return UsageError("--against compares accuracy and perf cases, and --mode " + modes.front() +
                      " runs neither; add --mode accuracy or perf");
  }
  const auto device_type = ParseDeviceType(options.device);
  if (!device_type) return UsageError("unknown device '" + options.device + "'; expected cpu, nvidia, another device "
                                      "type name or its number");
  const std::string under_test_out = options.out.empty() ? DefaultReportPath("", DeviceTypeName(*device_type)) : options.out;
  const std::string other_out = OtherSideReportPath(under_test_out);

  std::string error;
  const std::string dir = MakeWorkingDirectory("against", &error);
  if (dir.empty()) return UsageError(error);
  const runner::OwnedPath owned_dir(dir);  // an interrupted side of the run raises its signal again
  struct Cleanup {
    ~Cleanup() {
      unsetenv(cts::kAgainstVariable);
      unsetenv(cts::kAgainstNamesVariable);
    }
  } cleanup;
  const std::string under_test = Names(options.backends), other = Names(options.against);
  setenv(cts::kAgainstNamesVariable, (under_test + "\n" + other).c_str(), 1);

  RunOptions other_side = options;
  other_side.backends = options.against;
  other_side.against.clear();
  if (!options.against_device.empty()) {
    other_side.device = options.against_device;
    // Another device type's ids are its own.
    if (options.against_device != options.device) other_side.device_ids.clear();
  }
  if (!options.against_device_ids.empty()) other_side.device_ids = options.against_device_ids;
  other_side.side = RunOptions::Side::kOther;
  other_side.out = other_out;
  other_side.expect_file.clear();  // the known failures are those of the backend under test
  other_side.level.reset();
  std::printf("side by side, 1 of 2: the other backend, %s (its cases with two sides)\n", other.c_str());
  std::fflush(stdout);
  setenv(cts::kAgainstVariable, ("save:" + dir).c_str(), 1);
  const int other_code = run(other_side);
  if (other_code == kExitUsage) return kExitUsage;

  error.clear();
  nlohmann::json other_report;
  if (!report::LoadReportFile(other_out, &other_report, &error)) {
    return UsageError("the other backend's report does not read: " + error);
  }
  RunOptions under_test_side = options;
  under_test_side.side = RunOptions::Side::kUnderTest;
  under_test_side.out = under_test_out;
  under_test_side.other_medians_ms = PassingMedians(other_report);
  under_test_side.other_side =
      report::RunInfo::OtherSide{options.against, other_out, other_report.at("results").size(), other_code};
  std::printf("\nside by side, 2 of 2: %s, against %s\n", under_test.c_str(), other.c_str());
  std::fflush(stdout);
  setenv(cts::kAgainstVariable, ("compare:" + dir).c_str(), 1);
  const int code = run(under_test_side);
  if (code == kExitUsage) return kExitUsage;

  nlohmann::json under_test_report;
  if (report::LoadReportFile(under_test_out, &under_test_report, &error)) {
    PrintPerfSideBySide(under_test_report, under_test, other);
  } else {
    std::fprintf(stderr, "infinicts: %s\n", error.c_str());
  }
  std::printf("\nthe other backend's report: %s (exit %d)\nboth in one table: infinicts compare %s %s\n",
              other_out.c_str(), other_code, other_out.c_str(), under_test_out.c_str());
  return code;
}

}  // namespace infinicts::cli
