// `infinicts report --html`: one self-contained page (inline CSS, SVG and script, no
// network) with the run's header, summary, levels, failures, charts and tables.
#pragma once

#include <string>
#include <vector>

#include "render/benchmark_file.h"
#include "render/report_data.h"

namespace infinicts::render {

// The page's check script sets body[data-charts-rendered] = "<drawn>/<charts>" and
// per figure data-marks / data-box / data-rendered after load.
std::string RenderHtmlReport(const Json &report, const std::vector<BenchmarkFile> &benchmarks);

}  // namespace infinicts::render
