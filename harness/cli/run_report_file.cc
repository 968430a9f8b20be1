#include "cli/run_report_file.h"

#include <cstdio>

#include "report/output_file.h"

namespace infinicts::cli {
namespace {

// The whole report is written again only this long after the last time, and only once the
// results have grown by half since then (or a minute has passed): the bytes written for a run
// stay a small multiple of the report's size however many cases it has.
constexpr std::chrono::seconds kRewriteInterval{5};
constexpr std::chrono::seconds kRewriteAnyway{60};
constexpr double kRewriteGrowth = 1.5;

}  // namespace

RunReportFile::RunReportFile(std::string path, report::Report *report)
    : path_(std::move(path)), report_(report), in_place_(report::KindOfOutput(path_) == report::OutputKind::kInPlace) {}

bool RunReportFile::WriteWhole(bool durable, std::string *error) {
  report_->run.finished = report::IsoTimeNowUtc();
  const std::string text = report_->Serialize();
  if (!report::WriteOutput(path_, text, report::WriteMode::kReplace, durable, error)) return false;
  bytes_written_ += text.size();
  last_write_ = std::chrono::steady_clock::now();
  results_at_last_write_ = report_->results().size();
  return true;
}

bool RunReportFile::Start(std::string *error) {
  if (in_place_) return true;
  return WriteWhole(false, error) && journal_.Open(path_, report_->run.started, error);
}

void RunReportFile::Warn(const std::string &error) {
  if (warned_) return;
  std::fprintf(stderr, "infinicts: warning: %s\n", error.c_str());
  warned_ = true;
}

void RunReportFile::RewriteWhenDue() {
  const auto since = std::chrono::steady_clock::now() - last_write_;
  const size_t results = report_->results().size();
  const bool grown = static_cast<double>(results) >= kRewriteGrowth * static_cast<double>(results_at_last_write_);
  if (since < kRewriteInterval || (!grown && since < kRewriteAnyway)) return;
  std::string error;
  if (!WriteWhole(false, &error)) Warn(error);
}

void RunReportFile::CaseEnded(const report::CaseResult &result) {
  if (in_place_) return;
  if (!journal_.AppendResult(result)) Warn("cannot append to " + report::JournalPath(path_));
  RewriteWhenDue();
}

void RunReportFile::RunFailed(const std::string &failure) {
  if (in_place_) return;
  if (!journal_.AppendFailure(failure)) Warn("cannot append to " + report::JournalPath(path_));
}

bool RunReportFile::Finish(std::string *error) {
  if (!WriteWhole(true, error)) return false;
  journal_.Remove();
  return true;
}

bool RunReportFile::FinishBeforeKill(const std::vector<report::CaseResult> &results,
                                     const std::vector<std::string> &failures, std::string *error) {
  if (!in_place_ && !journal_.AppendEnd(results, failures)) Warn("cannot append to " + report::JournalPath(path_));
  return Finish(error);
}

}  // namespace infinicts::cli
