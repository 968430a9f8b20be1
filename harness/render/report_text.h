// Facts of a report phrased once for every renderer (header lines, non-passing cases).
#pragma once

#include <string>
#include <vector>

#include "render/report_data.h"
#include "report/first_line.h"

namespace infinicts::render {

std::string ToolLine(const Json &report);     // "infinicts 0.1.0 (abc1234)"
std::string DeviceLine(const Json &report);   // "cpu, devices 0,1 of 4"
std::string HostLine(const Json &report);     // "Linux …; AMD EPYC; 16 cores; 64 GiB"
std::string RunLine(const Json &report);      // "2026-… → 2026-… (3 min 25 s), complete"
using report::FirstLine;

// Results that failed, crashed or timed out, worst first, in report order within a status.
std::vector<const Json *> FailedResults(const Json &report);

// Other non-passing results (unsupported, skip, xfail) collapsed by status, subject and
// message, so that 2,000 skips for a missing device stay one line.
struct CollapsedResults {
  std::string status, suite, subject, message;
  std::vector<std::string> ids;
};
std::vector<CollapsedResults> CollapsedNonPassing(const Json &report);

}  // namespace infinicts::render
