#include "render/report_charts.h"

#include <algorithm>
#include <cmath>

#include "render/case_list.h"
#include "render/html_page.h"
#include "render/number_format.h"
#include "render/svg_plot.h"

namespace infinicts::render {
namespace {

using svg::AxisKind;

std::vector<svg::Series> ToSeries(const std::vector<SeriesData> &data, bool connect) {
  std::vector<svg::Series> series;
  for (const SeriesData &line : data) {
    svg::Series out{line.label, {}, connect, ""};
    for (size_t i = 0; i < line.points.size(); ++i) {
      out.points.push_back({line.points[i].first, line.points[i].second, ""});
    }
    series.push_back(std::move(out));
  }
  return series;
}

Chart SizeSweepChart(const std::string &id, const std::string &title, const std::vector<SeriesData> &data,
                     const std::string &y_title, const std::string &missing) {
  Chart chart{id, title, "", ""};
  svg::XyChart plot;
  plot.title = title;
  plot.x_title = "transfer size";
  plot.y_title = y_title;
  plot.x_kind = AxisKind::kLogBytes;
  std::vector<double> values;
  for (const SeriesData &line : data) {
    for (const auto &point : line.points) values.push_back(point.second);
  }
  plot.y_kind = svg::ChooseAxis(values);
  plot.series = ToSeries(data, true);
  for (size_t s = 0; s < data.size(); ++s) {
    for (size_t i = 0; i < data[s].points.size(); ++i) {
      plot.series[s].points[i].tip = FormatBytes(data[s].points[i].first) + ": " +
                                     FormatNumber(data[s].points[i].second) + " GB/s (" + data[s].ids[i] + ")";
    }
  }
  chart.svg = svg::RenderXyChart(plot);
  if (chart.svg.empty()) chart.note = missing;
  return chart;
}

Chart RooflineChart(const Json &report) {
  const std::string title = "Roofline: operator throughput against arithmetic intensity";
  Chart chart{"roofline", title, "", ""};
  std::vector<SeriesData> data = RooflinePoints(report);
  // By name, so that an operator is found in the legend where a reader looks for it.
  std::sort(data.begin(), data.end(), [](const SeriesData &a, const SeriesData &b) { return a.label < b.label; });
  svg::XyChart plot;
  plot.title = title;
  plot.x_title = "arithmetic intensity (FLOP/byte)";
  plot.y_title = "GFLOP/s";
  plot.x_kind = AxisKind::kLog10;
  plot.y_kind = AxisKind::kLog10;
  plot.series = ToSeries(data, false);
  plot.hollow_label = "hollow: in a cache, held to the cache roof";
  plot.flagged_label = "black ring: above every measured roof";
  double x_lo = 0, x_hi = 0;
  bool any = false;
  for (size_t s = 0; s < data.size(); ++s) {
    for (size_t i = 0; i < data[s].points.size(); ++i) {
      const auto &point = data[s].points[i];
      const std::string note = i < data[s].notes.size() ? data[s].notes[i] : "";
      const std::string held_to = i < data[s].held_to.size() ? data[s].held_to[i] : "";
      plot.series[s].points[i].hollow = held_to == "cache";
      plot.series[s].points[i].flagged = held_to == "above";
      plot.series[s].points[i].tip = FormatNumber(point.second) + " GFLOP/s at " + FormatNumber(point.first) +
                                     " FLOP/byte (" + data[s].ids[i] + ")" + (note.empty() ? "" : "; " + note);
      x_lo = any ? std::min(x_lo, point.first) : point.first;
      x_hi = any ? std::max(x_hi, point.first) : point.first;
      any = true;
    }
  }
  if (!any) {
    chart.note = "no op perf case with arithmetic_intensity_flops_per_byte and gflops (run with --mode perf)";
    return chart;
  }

  // Roofs: each bandwidth peak rises until it meets the highest compute ceiling, each
  // compute ceiling runs flat from where it meets the highest bandwidth.
  struct Peak {
    double value;
    std::string label;
    bool measured;
    std::string color;
  };
  std::vector<Peak> bandwidths, computes;
  if (report.contains("roofline")) {
    for (const Json &peak : report["roofline"]["peaks"]) {
      const double value = peak.value("value", 0.0);
      if (!(value > 0)) continue;
      const std::string name = peak.value("name", ""), source = peak.value("source", "");
      const bool compute = peak.value("unit", "") == "gflops";
      // Named for what a reader looks for: the DRAM roof, the cache roof, a dtype's compute peak.
      std::string what = name, color = "#4b5563";
      if (name == "bandwidth") {
        what = "DRAM roof";
        color = "#111827";
      } else if (name == "bandwidth:cache") {
        what = "cache roof";
        color = "#0f766e";
      } else if (name.rfind("compute:", 0) == 0) {
        what = name.substr(8) + " compute peak";
      }
      const std::string label = what + " " + FormatNumber(value) + (compute ? " GFLOP/s" : " GB/s") + " (" +
                                (source == "spec_sheet" ? peak.value("part", std::string("spec sheet")) : source) + ")";
      (compute ? computes : bandwidths).push_back({value, label, source == "measured", color});
    }
  }
  double top_bandwidth = 0, top_compute = 0;
  for (const Peak &peak : bandwidths) top_bandwidth = std::max(top_bandwidth, peak.value);
  for (const Peak &peak : computes) top_compute = std::max(top_compute, peak.value);
  if (top_bandwidth > 0 && top_compute > 0) {
    x_lo = std::min(x_lo, top_compute / top_bandwidth);
    x_hi = std::max(x_hi, top_compute / top_bandwidth);
    for (const Peak &peak : bandwidths) x_lo = std::min(x_lo, top_compute / peak.value);
  }
  x_lo /= 2;
  x_hi *= 2;
  for (const Peak &peak : bandwidths) {
    const double end = top_compute > 0 ? top_compute / peak.value : x_hi;
    plot.references.push_back({peak.label, x_lo, peak.value * x_lo, end, peak.value * end, !peak.measured, peak.color, true});
  }
  for (const Peak &peak : computes) {
    const double start = top_bandwidth > 0 ? peak.value / top_bandwidth : x_lo;
    plot.references.push_back({peak.label, start, peak.value, x_hi, peak.value, !peak.measured, peak.color, true});
  }
  chart.svg = svg::RenderXyChart(plot);
  if (bandwidths.empty() && computes.empty()) {
    chart.note = "the report has no roofline peaks: the dots are drawn without roofs";
  }
  return chart;
}

std::vector<Chart> ThroughputCharts(const Json &report) {
  const std::vector<OpThroughput> rows = OpThroughputs(report);
  std::vector<svg::Bar> compute, memory;
  for (const OpThroughput &row : rows) {
    svg::Bar bar;
    bar.label = row.op + " " + row.dtype;
    bar.value = row.best;
    bar.note = FormatNumber(row.best) + " " + row.unit;
    bar.tip = row.op + " " + row.dtype + ": best " + FormatNumber(row.best) + " " + row.unit + " (" + row.best_id +
              "), median " + FormatNumber(row.median) + " over " + std::to_string(row.cases) + " cases";
    bar.group = row.dtype;
    (row.unit == "GFLOP/s" ? compute : memory).push_back(bar);
  }
  std::vector<Chart> charts;
  auto make = [](const std::string &id, const std::string &title, const std::string &unit, std::vector<svg::Bar> bars) {
    svg::BarChart plot;
    plot.title = title;
    plot.value_title = "best " + unit;
    std::vector<double> values;
    for (const svg::Bar &bar : bars) values.push_back(bar.value);
    plot.value_kind = svg::ChooseAxis(values);
    plot.bars = std::move(bars);
    return Chart{id, title, svg::RenderBarChart(plot), ""};
  };
  charts.push_back(make("op-throughput", "Operator throughput: best GFLOP/s per operator and dtype", "GFLOP/s", compute));
  if (charts.back().svg.empty()) charts.back().note = "no passing op perf case reports gflops (run with --mode perf)";
  if (!memory.empty()) {
    charts.push_back(make("op-bandwidth", "Operators without arithmetic: best GB/s per operator and dtype", "GB/s",
                          memory));
  }
  return charts;
}

Chart StatusMatrixChart(const Json &report, const CaseList *cases) {
  const std::string title = "Operator × dtype: worst status of the conformance and accuracy cases";
  Chart chart{"status-matrix", title, "", ""};
  const StatusMatrix matrix = OpStatusMatrix(report);
  if (matrix.ops.empty()) {
    chart.note = "no op conformance or accuracy results in the report";
    return chart;
  }
  constexpr double kLabelWidth = 150, kCellWidth = 60, kCellHeight = 24, kHeader = 26;
  const double grid_bottom = kHeader + kCellHeight * matrix.ops.size();
  constexpr double kLegendWidth = 960;  // the status legend's line
  const int width = static_cast<int>(std::max(kLabelWidth + kCellWidth * matrix.dtypes.size() + 10, kLegendWidth));
  const int height = static_cast<int>(grid_bottom + 44);
  std::string out = svg::SvgOpen(width, height, title);
  for (size_t column = 0; column < matrix.dtypes.size(); ++column) {
    out += svg::SvgText(kLabelWidth + kCellWidth * (column + 0.5), kHeader - 9, matrix.dtypes[column],
                        "text-anchor=\"middle\" font-weight=\"600\"");
  }
  for (size_t row = 0; row < matrix.ops.size(); ++row) {
    const double top = kHeader + kCellHeight * row;
    out += svg::SvgText(kLabelWidth - 8, top + 16, matrix.ops[row], "text-anchor=\"end\"");
    for (size_t column = 0; column < matrix.dtypes.size(); ++column) {
      const auto found = matrix.cells.find({matrix.ops[row], matrix.dtypes[column]});
      const double left = kLabelWidth + kCellWidth * column;
      if (found == matrix.cells.end()) {
        // No case of this dtype: a dash, never a count that reads as support.
        out += "<g><title>" + HtmlEscape(matrix.ops[row] + " " + matrix.dtypes[column] + ": no case") + "</title>" +
               svg::SvgText(left + kCellWidth / 2, top + 16, "—", "text-anchor=\"middle\" class=\"no-case\"") + "</g>";
        continue;
      }
      const StatusCell &cell = found->second;
      std::string breakdown;
      for (const char *status : kStatusOrder) {
        const auto count = cell.counts.find(status);
        if (count == cell.counts.end()) continue;
        const bool all_refused = std::string(status) == "unsupported" && count->second == cell.refused_optional;
        breakdown += (breakdown.empty() ? "" : ", ") + std::to_string(count->second) + " " +
                     (all_refused ? std::string("refused, as the spec allows") : std::string(status));
      }
      const int passed = cell.counts.count("pass") ? cell.counts.at("pass") : 0;
      // A dtype the spec leaves optional and the backend refused is no failing cell: its own
      // colour and "refused", apart from the cells the backend supports.
      const bool refused = cell.AllRefusedOptional();
      const std::string shown = refused ? "refused_optional" : cell.worst;
      const CaseFilter filter{"", "op." + matrix.ops[row], "conformance,accuracy", matrix.dtypes[column], ""};
      const std::string anchor = cases ? cases->FirstAnchor(filter) : "";
      if (!anchor.empty()) out += "<a href=\"#" + anchor + "\" data-filter=\"" + HtmlEscape(filter.Fragment()) + "\">";
      out += "<rect class=\"mark\" x=\"" + svg::SvgNumber(left + 1) + "\" y=\"" + svg::SvgNumber(top + 1) +
             "\" width=\"" + svg::SvgNumber(kCellWidth - 2) + "\" height=\"" + svg::SvgNumber(kCellHeight - 2) +
             "\" fill=\"" + StatusColor(shown) + "\" data-status=\"" + shown + "\"><title>" +
             HtmlEscape(matrix.ops[row] + " " + matrix.dtypes[column] + ": " + breakdown) + "</title></rect>";
      out += svg::SvgText(left + kCellWidth / 2, top + 16,
                          refused ? std::string("refused") : std::to_string(passed) + "/" + std::to_string(cell.total),
                          "text-anchor=\"middle\"");
      if (!anchor.empty()) out += "</a>";
    }
  }
  // Legend: the colours, best to worst, on one line under the grid.
  double x = 4;
  out += svg::SvgText(x, grid_bottom + 26, "cells: passed/total, coloured by the worst status (— no case):");
  x += 370;
  for (const char *status :
       {"pass", "refused_optional", "skip", "unsupported", "xfail", "blocked", "fail", "timeout", "crash"}) {
    const std::string label = std::string(status) == "refused_optional" ? "refused (optional)" : status;
    out += "<rect x=\"" + svg::SvgNumber(x) + "\" y=\"" + svg::SvgNumber(grid_bottom + 16) +
           "\" width=\"12\" height=\"12\" fill=\"" + StatusColor(status) + "\"/>";
    out += svg::SvgText(x + 16, grid_bottom + 26, label);
    x += 26 + 6.5 * label.size();
  }
  chart.svg = out + "</svg>";
  return chart;
}

}  // namespace

const char *StatusColor(const std::string &status) {
  if (status == "pass") return "#8fd19e";
  if (status == "fail") return "#e06666";
  if (status == "blocked") return "#d5a6bd";
  if (status == "crash") return "#a83232";
  if (status == "timeout") return "#e69138";
  if (status == "unsupported") return "#b4a7d6";
  if (status == "refused_optional") return "#e3e8ee";  // not a status: a cell refused as the spec allows
  if (status == "xfail") return "#f6c26b";
  return "#cfd3d8";  // skip
}

std::vector<Chart> BuildCharts(const Json &report, const CaseList *cases) {
  std::vector<Chart> charts;
  charts.push_back(StatusMatrixChart(report, cases));
  charts.push_back(SizeSweepChart("memcpy-bandwidth", "Memory copy bandwidth against size (InfiniRT)",
                                  MemcpyBandwidthSeries(report), "GB/s",
                                  "no rt.memory perf case with params.bytes and gbytes_per_s (run with --mode perf)"));
  charts.push_back(SizeSweepChart("ccl-busbw", "Collective bus bandwidth against size (InfiniCCL)",
                                  CollectiveBusbwSeries(report), "bus bandwidth (GB/s)",
                                  "no ccl perf case with params.bytes and busbw_gbytes_per_s (run with --mode perf)"));
  charts.push_back(RooflineChart(report));
  for (Chart &chart : ThroughputCharts(report)) charts.push_back(std::move(chart));
  return charts;
}

}  // namespace infinicts::render
