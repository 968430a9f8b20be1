#include "render/case_list.h"

#include <algorithm>
#include <set>

#include "render/html_page.h"
#include "render/number_format.h"
#include "report/first_line.h"

namespace infinicts::render {
namespace {

constexpr size_t kFailureMessageChars = 4000;  // a crash's stderr tail can be long
constexpr size_t kOtherMessageChars = 200;     // one line is enough to tell a skip's reason

std::string SubjectOf(const Json &result) { return result.value("suite", "") + "." + result.value("subject", ""); }

std::string ClausesOf(const Json &result) {
  std::string clauses;
  for (const Json &clause : result.value("clauses", Json::array())) {
    if (clause.is_string()) clauses += (clauses.empty() ? "" : " ") + clause.get<std::string>();
  }
  return clauses;
}

// The filter's dtype of any result: the matrix's for op cases, else params.dtype.
std::string FilterDtype(const Json &result) {
  if (result.value("suite", "") == "op") return MatrixDtype(result);
  return ParamText(result.value("params", Json::object()), "dtype");
}

std::string MessageCell(const Json &result) {
  const std::string message = result.value("message", "");
  if (message.empty()) return "";  // most rows: a passing case says nothing
  if (IsFailureStatus(result.value("status", ""))) {
    if (message.size() <= kFailureMessageChars) return "<td><pre>" + HtmlEscape(message) + "</pre></td>";
    return "<td><pre>" + HtmlEscape(message.substr(0, kFailureMessageChars)) + "\n… (" +
           std::to_string(message.size() - kFailureMessageChars) + " more characters in the JSON report)</pre></td>";
  }
  std::string line = report::FirstLine(message);
  if (line.size() > kOtherMessageChars) line = line.substr(0, kOtherMessageChars) + "…";
  return "<td>" + HtmlEscape(line) + "</td>";
}

std::string Select(const std::string &name, const std::string &any, const std::vector<std::pair<std::string, std::string>> &options) {
  std::string out = "<label>" + name + " <select name=\"" + name + "\"><option value=\"\">" + any + "</option>";
  for (const auto &[value, label] : options) {
    out += "<option value=\"" + HtmlEscape(value) + "\">" + HtmlEscape(label) + "</option>";
  }
  return out + "</select></label> ";
}

std::vector<std::pair<std::string, std::string>> Options(const std::set<std::string> &values) {
  std::vector<std::pair<std::string, std::string>> options;
  for (const std::string &value : values) {
    if (!value.empty()) options.emplace_back(value, value);
  }
  return options;
}

// The modes present, and "conformance or accuracy" (what the dtype matrix counts) when both are.
std::vector<std::pair<std::string, std::string>> ModeOptions(const std::set<std::string> &modes) {
  std::vector<std::pair<std::string, std::string>> options = Options(modes);
  if (modes.count("conformance") && modes.count("accuracy")) options.emplace_back("conformance,accuracy", "conformance or accuracy");
  return options;
}

}  // namespace

bool CaseFilter::Matches(const Json &result) const {
  const std::string result_status = result.value("status", "");
  if (status == "failing" ? !IsFailureStatus(result_status) : !status.empty() && status != result_status) return false;
  if (!subject.empty() && subject != SubjectOf(result)) return false;
  if (!mode.empty() && ("," + mode + ",").find("," + result.value("mode", "") + ",") == std::string::npos) return false;
  if (!dtype.empty() && dtype != FilterDtype(result)) return false;
  if (!clause.empty()) {
    const std::string clauses = " " + ClausesOf(result) + " ";
    if (clauses.find(" " + clause + " ") == std::string::npos) return false;
  }
  return true;
}

std::string CaseFilter::Fragment() const {
  std::string fragment;
  const std::pair<const char *, const std::string *> fields[] = {
      {"status", &status}, {"subject", &subject}, {"mode", &mode}, {"dtype", &dtype}, {"clause", &clause}};
  for (const auto &[key, value] : fields) {
    if (value->empty()) continue;
    // Values are names (op.gemm, f16, OP-1): no '&', '=' or '#' to escape.
    fragment += (fragment.empty() ? "" : "&") + std::string(key) + "=" + *value;
  }
  return fragment;
}

CaseList::CaseList(const Json &report) {
  for (const Json &result : report["results"]) ordered_.push_back(&result);
  std::stable_sort(ordered_.begin(), ordered_.end(), [](const Json *a, const Json *b) {
    return StatusSeverity(a->value("status", "")) > StatusSeverity(b->value("status", ""));
  });
}

std::string CaseList::FirstAnchor(const CaseFilter &filter) const {
  for (size_t i = 0; i < ordered_.size(); ++i) {
    if (filter.Matches(*ordered_[i])) return "case-" + std::to_string(i);
  }
  return "";
}

std::string CaseList::Link(const CaseFilter &filter, const std::string &html_text, const std::string &title) const {
  const std::string anchor = FirstAnchor(filter);
  if (anchor.empty()) return html_text;
  return "<a href=\"#" + anchor + "\" data-filter=\"" + HtmlEscape(filter.Fragment()) + "\"" +
         (title.empty() ? "" : " title=\"" + HtmlEscape(title) + "\"") + ">" + html_text + "</a>";
}

std::string CaseList::Section() const {
  std::set<std::string> subjects, modes, dtypes, clauses;
  std::string rows;
  size_t failing = 0;
  for (size_t i = 0; i < ordered_.size(); ++i) {
    const Json &result = *ordered_[i];
    const std::string status = result.value("status", ""), clause_list = ClausesOf(result),
                      dtype = FilterDtype(result);
    subjects.insert(SubjectOf(result));
    modes.insert(result.value("mode", ""));
    dtypes.insert(dtype);
    for (size_t start = 0; start < clause_list.size();) {
      const size_t end = std::min(clause_list.find(' ', start), clause_list.size());
      clauses.insert(clause_list.substr(start, end - start));
      start = end + 1;
    }
    if (IsFailureStatus(status)) ++failing;
    const std::optional<double> duration = NumberAt(result, "duration_ms");
    rows += "<tr id=\"case-" + std::to_string(i) + "\" data-status=\"" + HtmlEscape(status) + "\" data-subject=\"" +
            HtmlEscape(SubjectOf(result)) + "\" data-mode=\"" + HtmlEscape(result.value("mode", "")) + "\"" +
            (dtype.empty() ? "" : " data-dtype=\"" + HtmlEscape(dtype) + "\"") + "><td><code>" +
            HtmlEscape(result.value("id", "")) + "</code></td><td" +
            (status == "pass" ? "" : " class=\"" + HtmlEscape(status) + "\"") + ">" + HtmlEscape(status) + "</td><td class=\"clauses\">" +
            HtmlEscape(clause_list) + "</td><td class=\"num\">" + (duration ? FormatMilliseconds(*duration) : "–") +
            "</td>" + MessageCell(result) + "</tr>\n";
  }
  std::string out = "<h2 id=\"cases\">Cases, failures first (" + std::to_string(ordered_.size()) + ", " +
                    std::to_string(failing) + " failing)</h2>\n";
  if (ordered_.empty()) return out + "<p>None.</p>\n";
  out += "<p class=\"note\">Every case of the run, the failing ones (crash, timeout, fail, blocked) first. The matrix "
         "cells and table counts link here; with scripts on, the filter below shows only the cases they count, and "
         "the address keeps it (<code>#status=fail&amp;subject=op.gemm</code>).</p>\n";
  std::vector<std::pair<std::string, std::string>> statuses = {{"failing", "failing (fail, blocked, crash, timeout)"}};
  for (const char *status : kStatusOrder) statuses.emplace_back(status, status);
  out += "<form id=\"case-filter\" class=\"case-filter\" hidden>" + Select("status", "any status", statuses) +
         Select("subject", "any subject", Options(subjects)) + Select("mode", "any mode", ModeOptions(modes)) +
         Select("dtype", "any dtype", Options(dtypes)) + Select("clause", "any clause", Options(clauses)) +
         "<button type=\"button\" id=\"case-filter-clear\">show all</button> <output id=\"case-count\"></output></form>\n";
  out += "<div class=\"case-scroll\"><table class=\"cases\" id=\"case-table\"><thead><tr><th>id</th><th>status</th>"
         "<th>clauses</th><th>time</th><th>message</th></tr></thead><tbody>\n" + rows + "</tbody></table></div>\n";
  return out;
}

}  // namespace infinicts::render
