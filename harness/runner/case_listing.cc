#include "runner/case_listing.h"

#include <sys/wait.h>

#include <chrono>
#include <sstream>

#include "runner/child_process.h"

namespace infinicts::runner {
namespace {

constexpr auto kListingTimeLimit = std::chrono::seconds(60);

std::string FirstNonEmptyLine(const std::string &text) {
  std::istringstream stream(text);
  std::string line;
  while (std::getline(stream, line)) {
    if (!line.empty()) return line;
  }
  return "";
}

}  // namespace

bool ListSuiteCases(const std::string &binary, std::vector<cts::ListedCase> *cases, std::string *error) {
  auto child = ChildProcess::Start(binary, {"--cts-list"}, /*results_pipe=*/false, error);
  if (!child) return false;
  std::string listing;
  OutputTail errors;
  const auto sink = [&](ChildProcess::Stream stream, std::string_view data) {
    if (stream == ChildProcess::Stream::kStdout) listing.append(data);
    else errors.Append(data);
  };
  const auto deadline = std::chrono::steady_clock::now() + kListingTimeLimit;
  std::optional<int> status;
  while (!(status = child->TryReap())) {
    if (std::chrono::steady_clock::now() > deadline) {
      child->KillGroup();
      child->Reap();
      *error = binary + " --cts-list did not finish within 60 s";
      return false;
    }
    child->Pump(50, sink);
  }
  child->Drain(sink);
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    const std::string why = FirstNonEmptyLine(errors.Text());
    *error = binary + " --cts-list " + DescribeWaitStatus(*status) + (why.empty() ? "" : ": " + why);
    return false;
  }
  std::istringstream lines(listing);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.empty()) continue;
    try {
      cases->push_back(cts::ListedCaseFromJson(nlohmann::json::parse(line)));
    } catch (const nlohmann::json::exception &exception) {
      *error = binary + " --cts-list, line " + std::to_string(number) + ": not a case (" + exception.what() + ")";
      return false;
    }
  }
  return true;
}

report::CaseResult ResultOfListed(const cts::ListedCase &listed, report::Status status, std::string message,
                                  double duration_ms) {
  report::CaseResult result;
  result.id = listed.id;
  result.suite = listed.suite;
  result.subject = listed.subject;
  result.mode = listed.mode;
  result.clauses = listed.clauses;
  result.params = listed.params;
  result.invalid_input = listed.invalid_input;
  result.status = status;
  result.message = std::move(message);
  result.duration_ms = duration_ms < 0 ? 0 : duration_ms;
  return result;
}

}  // namespace infinicts::runner
