#include "cli/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <utility>

namespace infinicts::cli {
namespace {

using Clock = std::chrono::steady_clock;
using report::Status;

constexpr auto kRedrawInterval = std::chrono::milliseconds(200);
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

}  // namespace

RunDisplay::RunDisplay(int total, bool quiet)
    : total_(total), progress_(!quiet && isatty(STDOUT_FILENO)), started_(Clock::now()), last_draw_(started_) {
  Redraw(true);
}

void RunDisplay::ClearLine() {
  if (drawn_) std::fputs("\r\033[K", stdout);
  drawn_ = false;
}

void RunDisplay::Redraw(bool force) {
  if (!progress_) return;
  const Clock::time_point now = Clock::now();
  if (!force && now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  std::string line = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] " +
                     std::to_string(failures_) + " failed, " + Clock_mm_ss(elapsed) + " elapsed";
  if (done_ > 0 && done_ < total_) line += ", ETA " + Clock_mm_ss(elapsed / done_ * (total_ - done_));
  if (!running_.empty()) line += "  " + running_;
  const size_t width = TerminalWidth() - 1;
  if (line.size() > width) line = line.substr(0, width);
  std::fputs("\r\033[K", stdout);
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
  drawn_ = true;
}

void RunDisplay::OnResult(const report::CaseResult &result) {
  ++done_;
  if (report::IsFailure(result.status)) {
    ++failures_;
    ClearLine();
    std::printf("%-8s %s: %s\n", Upper(report::StatusName(result.status)).c_str(), result.id.c_str(),
                FirstLine(result.message).c_str());
    std::fflush(stdout);
  }
  running_.clear();
  Redraw(report::IsFailure(result.status) || done_ == total_);
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
}

void RunDisplay::Finish() {
  ClearLine();
  std::fflush(stdout);
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
