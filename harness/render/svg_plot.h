// Small SVG chart builders: an XY plot (lines, dots, reference lines, legend) and
// horizontal bars. Every drawn data mark carries class="mark" so that the page's
// check script can count what was drawn.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "render/svg_scale.h"

namespace infinicts::render::svg {

// The colour of the n-th series (a fixed palette that stays readable on white).
const char *SeriesColor(size_t index);

enum class MarkerShape { kCircle, kSquare, kTriangle, kDiamond };

// How the n-th series of a chart is drawn: a colour, a marker and a line dash whose
// combination differs from every other series' for the first 144 series (12 colours, then
// 4 markers, then 3 dashes), so no two lines or dot clouds of a chart look alike.
struct SeriesStyle {
  std::string color;
  MarkerShape marker = MarkerShape::kCircle;
  std::string dash;  // stroke-dasharray, empty: solid
};
SeriesStyle SeriesStyleOf(size_t index);

struct Point {
  double x = 0;
  double y = 0;
  std::string tip;  // hover text (an SVG <title>); empty: "x, y"
  bool hollow = false;   // drawn as an outline (XyChart::hollow_label says what it means)
  bool flagged = false;  // drawn with a black ring (XyChart::flagged_label)
};

struct Series {
  std::string label;
  std::vector<Point> points;
  bool connect = true;  // draw a line through the points (sorted by x), else dots only
  std::string color;    // empty: palette by position
};

// A straight line in data coordinates: a roof of the roofline, a peak.
struct ReferenceLine {
  std::string label;
  double x0, y0, x1, y1;
  bool dashed = false;
  std::string color = "#555";
  bool labelled = false;  // the label is also written along the line, not only in the legend
};

struct XyChart {
  std::string title;
  std::string x_title, y_title;
  AxisKind x_kind = AxisKind::kLinear;
  AxisKind y_kind = AxisKind::kLinear;
  std::vector<Series> series;
  std::vector<ReferenceLine> references;
  // Legend entries for the point marks, shown when some point is hollow / flagged.
  std::string hollow_label, flagged_label;
  int width = 1100;  // the page's width, less margins: room for the plot beside a long legend
  int height = 380;
};

// <svg>…</svg>, or an empty string when nothing in the chart can be drawn. The legend lists
// every series (never "+N more"); each series is a <g data-series="i"> and its legend entry
// carries data-toggles="i", for the page's script to hide or show it.
std::string RenderXyChart(const XyChart &chart);

struct Bar {
  std::string label;  // the row's name, left of the bar
  double value = 0;
  std::string note;   // printed after the bar
  std::string tip;
  std::string group;  // bars of one group share a colour and a legend entry
};

struct BarChart {
  std::string title;
  std::string value_title;
  AxisKind value_kind = AxisKind::kLinear;
  std::vector<Bar> bars;
  int width = 760;
};

std::string RenderBarChart(const BarChart &chart);

// Pieces for charts drawn by hand (the status matrix).
std::string SvgOpen(int width, int height, const std::string &title);
std::string SvgText(double x, double y, const std::string &text, const std::string &attributes = "");
std::string SvgNumber(double value);  // coordinates: 2 decimals at most

}  // namespace infinicts::render::svg
