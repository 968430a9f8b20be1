#include "report/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "report/atomic_file.h"
#include "report/output_file.h"
#include "report/report_from_json.h"

namespace infinicts::report {
namespace {

constexpr int kJournalVersion = 1;

}  // namespace

std::string JournalPath(const std::string &report_path) { return FinalPathOf(report_path) + ".journal"; }

JournalWriter::~JournalWriter() {
  if (fd_ >= 0) close(fd_);
}

bool JournalWriter::Open(const std::string &report_path, const std::string &started, std::string *error) {
  path_ = JournalPath(report_path);
  fd_ = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    *error = "cannot write " + path_ + ": " + std::strerror(errno);
    return false;
  }
  if (!AppendLine(nlohmann::ordered_json{{"journal", kJournalVersion}, {"started", started}})) {
    *error = "cannot write " + path_ + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

std::string JournalWriter::LineOf(const nlohmann::ordered_json &line) {
  // Messages carry whatever a backend printed: invalid UTF-8 is replaced, never fatal.
  return line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

bool JournalWriter::AppendText(const std::string &text) {
  if (fd_ < 0) return false;
  if (!WriteAllToDescriptor(fd_, text)) return false;
  bytes_written_ += text.size();
  return true;
}

bool JournalWriter::AppendLine(const nlohmann::ordered_json &line) { return AppendText(LineOf(line)); }

bool JournalWriter::AppendResult(const CaseResult &result) {
  return AppendLine(nlohmann::ordered_json{{"result", ToJson(result)}});
}

bool JournalWriter::AppendFailure(const std::string &failure) {
  return AppendLine(nlohmann::ordered_json{{"failure", failure}});
}

bool JournalWriter::AppendEnd(const std::vector<CaseResult> &results, const std::vector<std::string> &failures) {
  std::string text;
  for (const CaseResult &result : results) text += LineOf(nlohmann::ordered_json{{"result", ToJson(result)}});
  for (const std::string &failure : failures) text += LineOf(nlohmann::ordered_json{{"failure", failure}});
  text += LineOf(nlohmann::ordered_json{{"complete", true}});
  return AppendText(text);
}

void JournalWriter::Remove() {
  if (fd_ < 0) return;
  close(fd_);
  fd_ = -1;
  unlink(path_.c_str());
}

bool ApplyJournal(const std::string &report_path, nlohmann::json *report, JournalReplay *replay, std::string *error) {
  *replay = JournalReplay();
  const std::string path = JournalPath(report_path);
  std::ifstream in(path, std::ios::binary);
  if (!in) return true;
  std::string line;
  std::getline(in, line);
  const nlohmann::json header = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  const std::string started = (*report)["run"].value("started", "");
  if (!header.is_object() || header.value("journal", 0) != kJournalVersion) {
    replay->note = path + " is not a journal this version of infinicts writes: set aside";
    return true;
  }
  if (header.value("started", "") != started) {
    replay->note = path + " is the journal of another run (started " + header.value("started", "?") +
                   ", the report's run started " + started + "): set aside";
    return true;
  }
  if ((*report)["run"].value("complete", false)) return true;  // the report is final

  Report completed;
  if (!ReportFromJson(*report, &completed, error)) return false;
  const size_t held = completed.results().size();
  size_t torn = 0;
  bool ended = false;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json entry = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    try {
      if (entry.is_object() && entry.contains("result")) {
        CaseResult result = CaseResultFromJson(entry["result"]);
        // A case the report holds already is taken again: a later line may amend it.
        if (!completed.Replace(result)) {
          completed.Add(std::move(result));
          ++replay->added;
        }
        continue;
      }
      if (entry.is_object() && entry.value("complete", false) == true) {
        completed.run.complete = true;
        ended = true;
        continue;
      }
      if (entry.is_object() && entry.contains("failure") && entry["failure"].is_string()) {
        const std::string failure = entry["failure"];
        std::vector<std::string> &failures = completed.run.failures;
        if (std::find(failures.begin(), failures.end(), failure) == failures.end()) {
          failures.push_back(failure);
          ++replay->failures;
        }
        continue;
      }
    } catch (const std::exception &) {
    }
    ++torn;
  }
  *report = nlohmann::json::parse(completed.Serialize());
  replay->note = report_path + (ended ? ": the run ended before its whole report was written; its journal "
                                      : ": the run did not finish; its journal ") +
                 path + " adds " + std::to_string(replay->added) + " case(s) to the " + std::to_string(held) +
                 " the report held";
  if (torn > 0) replay->note += " (" + std::to_string(torn) + " unreadable line(s) left out)";
  return true;
}

}  // namespace infinicts::report
