// The charts of the HTML report, each an inline SVG built from the report's results.
#pragma once

#include <string>
#include <vector>

#include "render/report_data.h"

namespace infinicts::render {

struct Chart {
  std::string id;     // stable: status-matrix, memcpy-bandwidth, ccl-busbw, roofline, op-throughput, op-bandwidth
  std::string title;
  std::string svg;    // empty: no data, and `note` says why
  std::string note;
};

class CaseList;

// Every chart of the report, in page order; a chart without data has an empty svg.
// op-bandwidth (operators without arithmetic) appears only when such cases exist. With
// `cases`, each status matrix cell links to the first case it counts, with its filter.
std::vector<Chart> BuildCharts(const Json &report, const CaseList *cases = nullptr);

// The fill colour of a status in the matrix.
const char *StatusColor(const std::string &status);

}  // namespace infinicts::render
