// `infinicts report --md` (and the default on stdout): a summary for CI job pages,
// plain Markdown without HTML.
#pragma once

#include <string>
#include <vector>

#include "render/benchmark_file.h"
#include "render/report_data.h"

namespace infinicts::render {

std::string RenderMarkdownReport(const Json &report, const std::vector<BenchmarkFile> &benchmarks);

// Text safe inside a Markdown table cell: no line breaks, '|' and markup characters escaped.
std::string MarkdownCell(const std::string &text);

}  // namespace infinicts::render
