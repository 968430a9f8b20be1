#include "cli/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <utility>

#include "render/number_format.h"
#include "report/noisy.h"

namespace infinicts::cli {
namespace {

using Clock = std::chrono::steady_clock;
using report::Status;

constexpr auto kRedrawInterval = std::chrono::milliseconds(200);
constexpr double kHeartbeatSeconds = 30;

// INFINICTS_HEARTBEAT_SECONDS, when a positive number, else kHeartbeatSeconds.
std::chrono::duration<double> HeartbeatInterval() {
  if (const char *text = std::getenv("INFINICTS_HEARTBEAT_SECONDS")) {
    char *end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (end != text && *end == '\0' && seconds > 0 && seconds < 1e6) return std::chrono::duration<double>(seconds);
  }
  return std::chrono::duration<double>(kHeartbeatSeconds);
}
constexpr size_t kRootCausesShown = 10;

std::string Clock_mm_ss(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  char text[32];
  if (total >= 3600) std::snprintf(text, sizeof(text), "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  else std::snprintf(text, sizeof(text), "%ld:%02ld", total / 60, total % 60);
  return text;
}

size_t TerminalWidth() {
  struct winsize size {};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 20) return size.ws_col;
  return 80;
}

std::string Upper(const char *text) {
  std::string upper = text;
  for (char &c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

std::optional<double> Metric(const report::CaseResult &result, const char *name) {
  const auto found = result.metrics.find(name);
  if (found == result.metrics.end() || !found->is_number()) return std::nullopt;
  return found->get<double>();
}

// One perf case as nccl-tests prints a size: median time, the rate that matters for it (bus
// bandwidth for a collective, GFLOP/s where the case counts flops, else GB/s), and the
// spread; a spread too wide to trust is flagged.
std::string PerfLine(const report::CaseResult &result) {
  const std::string time = Metric(result, "time_ms_median") ? render::FormatMilliseconds(*Metric(result, "time_ms_median")) : "-";
  std::string rate = "-";
  if (auto busbw = Metric(result, "busbw_gbytes_per_s")) rate = render::FormatNumber(*busbw) + " GB/s bus";
  else if (auto gflops = Metric(result, "gflops")) rate = render::FormatNumber(*gflops) + " GFLOP/s";
  else if (auto gbytes = Metric(result, "gbytes_per_s")) rate = render::FormatNumber(*gbytes) + " GB/s";
  const std::optional<double> cv = Metric(result, "time_cv");
  const std::string cv_text = cv ? render::FormatNumber(*cv * 100, 2) + "%" : "-";
  char line[512];
  std::snprintf(line, sizeof(line), "%-10s %-23s %6s  %s%s", time.c_str(), rate.c_str(), cv_text.c_str(),
                result.id.c_str(), cv && report::IsNoisy(*cv) ? "  NOISY: the times spread too wide to compare" : "");
  return line;
}

}  // namespace

RunDisplay::RunDisplay(int total, bool quiet)
    : total_(total),
      progress_(!quiet && isatty(STDOUT_FILENO)),
      heartbeat_(!quiet && !isatty(STDOUT_FILENO)),
      started_(Clock::now()),
      last_result_(started_),
      last_draw_(started_),
      last_heartbeat_(started_) {
  Redraw(true);
}

void RunDisplay::ExpectDurations(std::map<std::string, double> expected_ms) {
  for (const auto &[id, ms] : expected_ms) eta_.Expect(id, ms);
}

void RunDisplay::ClearLine() {
  if (drawn_) std::fputs("\r\033[K", stdout);
  drawn_ = false;
}

std::string RunDisplay::ProgressText() const {
  const double elapsed = std::chrono::duration<double>(Clock::now() - started_).count();
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " +
                     std::to_string(failures_) + " failed, " + Clock_mm_ss(elapsed) + " elapsed";
  if (done_ > 0 && done_ < total_) {
    double remaining_s = elapsed / done_ * (total_ - done_);
    if (const std::optional<double> estimate = eta_.RemainingSeconds()) remaining_s = *estimate;
    line += ", ETA " + Clock_mm_ss(remaining_s);
  }
  return line;
}

void RunDisplay::Redraw(bool force) {
  if (!progress_) return;
  const Clock::time_point now = Clock::now();
  if (!force && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  std::string line = ProgressText();
  if (!running_.empty()) line += "  " + running_;
  const size_t width = TerminalWidth() - 1;
  if (line.size() > width) line = line.substr(0, width);
  std::fputs("\r\033[K", stdout);
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
  drawn_ = true;
}

void RunDisplay::Heartbeat(bool force) {
  if (!heartbeat_) return;
  const Clock::time_point now = Clock::now();
  static const std::chrono::duration<double> interval = HeartbeatInterval();
  if (!force && now - last_heartbeat_ < interval) return;
  last_heartbeat_ = now;
  std::string line = ProgressText();
  if (!running_.empty()) line += "; running " + running_;
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

void RunDisplay::OnResult(const report::CaseResult &result) {
  ++done_;
  const Clock::time_point now = Clock::now();
  eta_.CaseEnded(result.id, std::chrono::duration<double>(now - last_result_).count());
  last_result_ = now;
  if (report::IsFailure(result.status)) {
    ++failures_;
    ClearLine();
    std::printf("%-8s %s: %s\n", Upper(report::StatusName(result.status)).c_str(), result.id.c_str(),
                FirstLine(result.message).c_str());
    // The rerun line is the message's last: printed too, ready to paste.
    const size_t rerun = result.message.rfind("rerun: ");
    if (rerun != std::string::npos && (rerun == 0 || result.message[rerun - 1] == '\n')) {
      std::printf("         %s\n", FirstLine(result.message.substr(rerun)).c_str());
    }
    std::fflush(stdout);
  } else if ((progress_ || heartbeat_) && result.mode == "perf" && result.status == Status::kPass &&
             result.metrics.is_object()) {
    ClearLine();
    if (!perf_header_shown_) {
      std::printf("%-10s %-23s %6s  %s\n", "time", "rate", "cv", "case");
      perf_header_shown_ = true;
    }
    std::printf("%s\n", PerfLine(result).c_str());
    std::fflush(stdout);
  }
  running_.clear();
  Redraw(report::IsFailure(result.status) || done_ == total_);
  Heartbeat(false);
}

void RunDisplay::OnRunFailure(const std::string &message) {
  ++failures_;
  ClearLine();
  std::printf("RUN FAILURE %s\n", message.c_str());
  std::fflush(stdout);
  Redraw(true);
}

void RunDisplay::OnTick(const cts::ListedCase *running) {
  running_ = running ? running->id : "";
  Redraw(false);
  Heartbeat(false);
}

void RunDisplay::Finish() {
  ClearLine();
  std::fflush(stdout);
}

void PrintRunHeader(std::FILE *out, const report::Report &report, size_t cases, const std::string &report_path) {
  auto joined = [](const std::vector<std::string> &words) {
    std::string text;
    for (const std::string &word : words) text += (text.empty() ? "" : ", ") + word;
    return text;
  };
  std::fprintf(out, "infinicts %s: backend %s\n", report.tool.version.c_str(), joined(report.backend.libraries).c_str());
  if (!report.backend.missing_libraries.empty()) {
    std::fprintf(out, "  missing %s: %s not run\n", joined(report.backend.missing_libraries).c_str(),
                 report.backend.missing_libraries.size() == 1 ? "its suite is" : "their suites are");
  }
  std::string ids;
  for (int id : report.backend.device_ids) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  std::fprintf(out, "  %d %s device%s (using %s); suites %s; modes %s; %zu case%s\n", report.backend.device_count,
               report.backend.device_type.c_str(), report.backend.device_count == 1 ? "" : "s",
               ids.empty() ? "none" : ids.c_str(), joined(report.run.suites).c_str(), joined(report.run.modes).c_str(),
               cases, cases == 1 ? "" : "s");
  std::fprintf(out, "  report %s\n", report_path.c_str());
  std::fflush(out);
}

void PrintSummary(std::FILE *out, const report::Report &report, const std::string &report_path) {
  std::map<std::pair<std::string, std::string>, report::StatusCounts> rows;
  for (const report::CaseResult &result : report.results()) rows[{result.suite, result.mode}].Add(result.status);

  std::fprintf(out, "\n%-5s %-12s %6s", "suite", "mode", "total");
  // Each status column as wide as its name: the table fits 80 columns.
  for (Status status : report::kAllStatuses) std::fprintf(out, " %s", report::StatusName(status));
  std::fprintf(out, "\n");
  auto print_row = [&](const std::string &suite, const std::string &mode, const report::StatusCounts &counts) {
    std::fprintf(out, "%-5s %-12s %6d", suite.c_str(), mode.c_str(), counts.total);
    for (Status status : report::kAllStatuses) {
      std::fprintf(out, " %*d", static_cast<int>(std::strlen(report::StatusName(status))), counts[status]);
    }
    std::fprintf(out, "\n");
  };
  for (const char *suite : {"rt", "op", "ccl"}) {
    for (const char *mode : {"conformance", "accuracy", "perf"}) {
      auto row = rows.find({suite, mode});
      if (row != rows.end()) print_row(suite, mode, row->second);
    }
  }
  print_row("all", "", report.counts());
  if (const int crashes = report.counts()[Status::kCrash]; crashes > 0) {
    const int invalid = report.crashes_on_invalid_input();
    std::fprintf(out, "crashes: %d on valid input, %d on invalid input (a NULL or bad argument the backend did not refuse)\n",
                 crashes - invalid, invalid);
  }

  for (const report::PartVerdict &part : report.parts()) {
    if (part.verdict != "skipped") continue;
    std::fprintf(out, "%s skipped: %d of its %d cases need more than this run has (up to %s)\n", part.part.c_str(),
                 part.skipped_for_capacity, part.counts.total, part.needs.c_str());
  }
  for (const std::string &library : report.backend.missing_libraries) {
    std::fprintf(out, "not run: the backend has no %s\n", library.c_str());
  }
  for (const std::string &failure : report.run.failures) {
    std::fprintf(out, "\nrun failure (no case owns it): %s\n", FirstLine(failure).c_str());
  }
  const std::vector<report::RootCauseGroup> causes = report.root_causes();
  if (!causes.empty()) {
    std::fprintf(out, "\nfailures by root cause (%zu):", causes.size());
    for (size_t i = 0; i < causes.size() && i < kRootCausesShown; ++i) {
      std::fprintf(out, "\n  %s", report::DescribeGroup(causes[i]).c_str());
    }
    if (causes.size() > kRootCausesShown) std::fprintf(out, "\n  … %zu more in the report", causes.size() - kRootCausesShown);
    std::fprintf(out, "\n");
  }

  const std::vector<std::string> &modes = report.run.modes;
  const bool judged = std::any_of(modes.begin(), modes.end(), [](const std::string &mode) { return mode != "perf"; });
  if (!judged) {
    // Levels are a conformance verdict; a perf-only run has nothing to say about them.
    std::fprintf(out, "\nlevels not judged: the run had no conformance or accuracy cases");
  } else {
    const report::LevelOutcomes levels = report.levels();
    for (const auto &[name, outcome] : {std::pair{"minimal", levels.minimal}, std::pair{"advanced", levels.advanced}}) {
      std::fprintf(out, "\nlevel %-9s %s", name, outcome.Verdict());
      if (outcome.reached) std::fprintf(out, " on %zu %s device(s)", report.backend.device_ids.size(), report.backend.device_type.c_str());
      for (const std::string &reason : outcome.reasons) std::fprintf(out, "\n  - %s", reason.c_str());
    }
  }
  std::fprintf(out, "\n\nreport: %s\n", report_path.c_str());
}

}  // namespace infinicts::cli
