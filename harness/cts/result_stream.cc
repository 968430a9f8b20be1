#include "cts/result_stream.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cts/call_tracing.h"
#include "cts/case.h"
#include "cts/case_state.h"
#include "cts/failure_text.h"

namespace infinicts::cts {
namespace {

constexpr size_t kMaxMessageBytes = 8000;

std::string FullName(const testing::TestInfo &info) {
  return std::string(info.test_suite_name()) + "." + info.name();
}

std::string Basename(const char *path) {
  if (path == nullptr) return "";
  std::string text = path;
  auto slash = text.rfind('/');
  return slash == std::string::npos ? text : text.substr(slash + 1);
}

// The status and message GoogleTest's outcome means in infinicts' words. Each failure's
// first line names the clause and says what was expected and what came back; where in the
// suite it was found follows on a line of its own.
std::pair<std::string, std::string> Outcome(const testing::TestResult &result, const CaseMeta *meta,
                                            const std::string &how_it_ran) {
  std::string failures, skip_reason;
  for (int i = 0; i < result.total_part_count(); ++i) {
    const testing::TestPartResult &part = result.GetTestPartResult(i);
    std::string text = part.message();
    if (part.skipped()) {
      if (skip_reason.empty()) skip_reason = text;
    } else if (part.failed()) {
      if (!failures.empty()) failures += "\n";
      failures += WithClause(PlainFailure(text), meta ? meta->clauses : std::vector<std::string>{});
      if (part.file_name() != nullptr) {
        failures += "\n  at " + Basename(part.file_name()) + ":" + std::to_string(part.line_number());
      }
    }
  }
  if (result.Failed()) return {"fail", failures + (how_it_ran.empty() ? "" : "\n  (it " + how_it_ran + ")")};
  if (result.Skipped()) {
    for (const char *prefix : {kUnsupportedPrefix, kBlockedPrefix}) {
      if (skip_reason.rfind(prefix, 0) == 0) {
        const std::string status = std::string(prefix).substr(0, std::string(prefix).find(':'));
        return {status, skip_reason.substr(std::string(prefix).size())};
      }
    }
    return {"skip", skip_reason};
  }
  return {"pass", how_it_ran.empty() ? "" : "passed; it " + how_it_ran};
}

}  // namespace

void ResultStream::OnTestStart(const testing::TestInfo &info) {
  TakeMetrics();
  TakeTiming();
  TakeOptionalCapability();
  TakeHowItRan();
  ForgetProbes();
  std::fflush(stdout);
  std::fflush(stderr);
  for (int stream : {STDOUT_FILENO, STDERR_FILENO}) {
    [[maybe_unused]] const ssize_t written = ::write(stream, kCaseStartMarker, sizeof kCaseStartMarker - 1);
  }
  started_ = std::chrono::steady_clock::now();
  WriteLine(nlohmann::json{{"event", "start"}, {"test", FullName(info)}}.dump());
}

void ResultStream::OnTestEnd(const testing::TestInfo &info) {
  auto [status, message] = Outcome(*info.result(), CaseMetaOf(info), TakeHowItRan());
  if (message.size() > kMaxMessageBytes) message = message.substr(0, kMaxMessageBytes) + " …";
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto &[name, value] : TakeMetrics()) metrics[name] = value;
  nlohmann::json line{{"event", "end"},
                      {"test", FullName(info)},
                      {"status", status},
                      {"message", message},
                      {"duration_ms", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count()},
                      {"metrics", metrics}};
  nlohmann::json timing = TakeTiming();
  if (!timing.is_null()) line["timing"] = std::move(timing);
  if (std::string optional = TakeOptionalCapability(); !optional.empty()) line["optional_capability"] = optional;
  WriteLine(line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void ResultStream::WriteLine(const std::string &line) {
  std::string data = line + "\n";
  const char *p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t written = ::write(fd_, p, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;  // the runner went away; nothing left to tell
    }
    p += written;
    left -= static_cast<size_t>(written);
  }
}

}  // namespace infinicts::cts
