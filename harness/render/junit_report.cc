#include "render/junit_report.h"

#include <cstdio>
#include <map>

#include "render/report_data.h"
#include "render/report_text.h"

namespace infinicts::render {
namespace {

std::string Seconds(double ms) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6f", ms / 1000);
  return buffer;
}

struct SuiteBlock {
  std::string cases;
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time_ms = 0;
};

}  // namespace

std::string XmlEscape(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += "&#9;"; break;
      default:
        if (c >= 0x20) out += static_cast<char>(c);
    }
  }
  return out;
}

std::string RenderJunitReport(const Json &report) {
  std::map<std::string, SuiteBlock> suites;  // "<suite>.<mode>" in name order
  for (const Json &result : report["results"]) {
    const std::string id = result.value("id", "");
    const IdParts parts = SplitId(id);
    const std::string status = result.value("status", "");
    const std::string message = result.value("message", "");
    const double duration_ms = result.value("duration_ms", 0.0);
    SuiteBlock &block = suites[parts.suite + "." + parts.mode];
    ++block.tests;
    block.time_ms += duration_ms;
    std::string body;
    if (status == "blocked" || status == "crash" || status == "timeout") {
      // JUnit's error: the test did not run to its verdict (what it needs failed, the process
      // died, the time ran out), which is not a failed check. CI dashboards count them apart.
      ++block.errors;
      body = "<error type=\"" + status + "\" message=\"" + XmlEscape(status + ": " + FirstLine(message)) + "\">" +
             XmlEscape(message) + "</error>";
    } else if (IsFailureStatus(status)) {
      ++block.failures;
      body = "<failure type=\"" + status + "\" message=\"" + XmlEscape(status + ": " + FirstLine(message)) + "\">" +
             XmlEscape(message) + "</failure>";
    } else if (status == "skip" || status == "unsupported") {
      ++block.skipped;
      body = "<skipped message=\"" + XmlEscape(status + ": " + message) + "\"/>";
    } else if (status == "xfail") {
      body = "<system-out>" + XmlEscape("xfail: failed as the expectations file says it does. " + message) +
             "</system-out>";
    }
    block.cases += "    <testcase classname=\"" + XmlEscape(parts.suite + "." + parts.subject + "." + parts.mode) +
                   "\" name=\"" + XmlEscape(parts.rest) + "\" time=\"" + Seconds(duration_ms) + "\"" +
                   (body.empty() ? "/>\n" : ">" + body + "</testcase>\n");
  }
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time_ms = 0;
  std::string blocks;
  for (const auto &[name, block] : suites) {
    tests += block.tests;
    failures += block.failures;
    errors += block.errors;
    skipped += block.skipped;
    time_ms += block.time_ms;
    blocks += "  <testsuite name=\"" + XmlEscape(name) + "\" tests=\"" + std::to_string(block.tests) + "\" failures=\"" +
              std::to_string(block.failures) + "\" errors=\"" + std::to_string(block.errors) + "\" skipped=\"" +
              std::to_string(block.skipped) +
              "\" time=\"" + Seconds(block.time_ms) + "\" timestamp=\"" +
              XmlEscape(report["run"].value("started", "")) + "\">\n" + block.cases + "  </testsuite>\n";
  }
  // Failures by root cause, once for the run, where CI tools show the suites' output.
  std::string causes;
  for (const report::RootCauseGroup &group : RootCausesOf(report)) causes += report::DescribeGroup(group) + "\n";
  if (!causes.empty()) {
    blocks += "  <testsuite name=\"root causes\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
              "    <system-out>" + XmlEscape("failures by root cause:\n" + causes) + "</system-out>\n  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"infinicts " +
         XmlEscape(report["backend"].value("device_type", "")) + "\" tests=\"" + std::to_string(tests) +
         "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" +
         std::to_string(skipped) +
         "\" time=\"" + Seconds(time_ms) + "\">\n" + blocks + "</testsuites>\n";
}

}  // namespace infinicts::render
