#include "runner/expectations.h"

#include "runner/case_listing.h"

#include <fnmatch.h>

#include <fstream>
#include <sstream>

namespace infinicts::runner {
namespace {

constexpr const char *kWhitespace = " \t\r";

std::string Trim(const std::string &text) {
  const size_t begin = text.find_first_not_of(kWhitespace);
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(kWhitespace) - begin + 1);
}

bool ParseKind(const std::string &word, ExpectationKind *kind) {
  if (word == "xfail") *kind = ExpectationKind::kXfail;
  else if (word == "flaky") *kind = ExpectationKind::kFlaky;
  else if (word == "skip") *kind = ExpectationKind::kSkip;
  else return false;
  return true;
}

}  // namespace

bool Expectations::Load(const std::string &path, Expectations *expectations, std::string *error) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    *error = path + ": cannot be read";
    return false;
  }
  std::ostringstream text;
  text << file.rdbuf();
  return Parse(text.str(), path, expectations, error);
}

bool Expectations::Parse(const std::string &text, const std::string &file, Expectations *expectations,
                         std::string *error) {
  Expectations parsed;
  parsed.file_ = file;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::string where = file + ":" + std::to_string(number) + ": ";
    const size_t hash = line.find('#');
    const std::string entry = Trim(line.substr(0, hash));
    if (entry.empty()) continue;  // blank, or a comment line
    std::istringstream words(entry);
    std::string kind_word, glob, extra;
    words >> kind_word >> glob >> extra;
    Expectation expectation;
    if (!ParseKind(kind_word, &expectation.kind)) {
      *error = where + "unknown kind '" + kind_word + "' (expected xfail, flaky or skip followed by a glob)";
      return false;
    }
    if (glob.empty()) {
      *error = where + "'" + kind_word + "' needs a glob of case ids";
      return false;
    }
    if (!extra.empty()) {
      *error = where + "one glob per line, but '" + extra + "' follows '" + glob + "' (start a reason with '#')";
      return false;
    }
    expectation.glob = glob;
    expectation.reason = hash == std::string::npos ? "" : Trim(line.substr(hash + 1));
    expectation.line = number;
    parsed.entries_.push_back(std::move(expectation));
  }
  *expectations = std::move(parsed);
  return true;
}

const Expectation *Expectations::Find(ExpectationKind kind, const std::string &id) const {
  for (const Expectation &entry : entries_) {
    // The same matching as --filter (runner/selection.cc): fnmatch without flags.
    if (entry.kind == kind && fnmatch(entry.glob.c_str(), id.c_str(), 0) == 0) return &entry;
  }
  return nullptr;
}

std::string Expectations::Where(const Expectation &entry) const { return file_ + ":" + std::to_string(entry.line); }

report::CaseResult SkippedResult(const cts::ListedCase &listed, const Expectations &expectations,
                                 const Expectation &entry) {
  std::string message = "listed as skip in " + expectations.Where(entry);
  if (!entry.reason.empty()) message += " (" + entry.reason + ")";
  return ResultOfListed(listed, report::Status::kSkip, std::move(message));
}

bool ApplyXfail(const Expectations &expectations, const Expectation &entry, report::CaseResult *result) {
  if (report::IsFailure(result->status)) {
    result->status = report::Status::kXfail;
    result->message = "expected failure (" + expectations.Where(entry) + "): " + result->message;
    return false;
  }
  if (result->status != report::Status::kPass) return false;
  std::string note = "unexpected pass: listed as xfail in " + expectations.Where(entry);
  if (!entry.reason.empty()) note += " (" + entry.reason + ")";
  result->message = result->message.empty() ? note : note + "\n" + result->message;
  return true;
}

}  // namespace infinicts::runner
