#include "render/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/html_page.h"
#include "render/number_format.h"

namespace infinicts::render::svg {
namespace {

constexpr double kLeft = 72, kTop = 14, kBottom = 50, kLegendWidth = 300, kLegendRow = 16;
constexpr size_t kLegendChars = 44;  // what fits in kLegendWidth at 11px

struct LegendEntry {
  std::string label;
  SeriesStyle style;
  bool line = false;    // a line swatch (connected series, reference line)
  bool marker = false;  // a marker swatch (every series' points)
  bool hollow = false, flagged = false;
  std::string toggles;  // the data-series it hides and shows, empty: none
};

std::string Attr(const char *name, double value) { return std::string(" ") + name + "=\"" + SvgNumber(value) + "\""; }

std::string Line(double x0, double y0, double x1, double y1, const std::string &attributes) {
  return "<line" + Attr("x1", x0) + Attr("y1", y0) + Attr("x2", x1) + Attr("y2", y1) + " " + attributes + "/>";
}

// A point's mark centred on (cx, cy), radius about r, with `attributes` and `content` (a
// <title>, or nothing).
std::string Marker(MarkerShape shape, double cx, double cy, double r, const std::string &attributes,
                   const std::string &content = "") {
  std::string tag, geometry;
  auto at = [](double px, double py) { return SvgNumber(px) + " " + SvgNumber(py); };
  switch (shape) {
    case MarkerShape::kSquare:
      tag = "rect";
      geometry = Attr("x", cx - r * 0.9) + Attr("y", cy - r * 0.9) + Attr("width", r * 1.8) + Attr("height", r * 1.8);
      break;
    case MarkerShape::kTriangle:
      tag = "path";
      geometry = " d=\"M" + at(cx, cy - r * 1.2) + "L" + at(cx + r * 1.1, cy + r * 0.8) + "L" + at(cx - r * 1.1, cy + r * 0.8) + "Z\"";
      break;
    case MarkerShape::kDiamond:
      tag = "path";
      geometry = " d=\"M" + at(cx, cy - r * 1.3) + "L" + at(cx + r * 1.1, cy) + "L" + at(cx, cy + r * 1.3) + "L" +
                 at(cx - r * 1.1, cy) + "Z\"";
      break;
    case MarkerShape::kCircle:
      tag = "circle";
      geometry = Attr("cx", cx) + Attr("cy", cy) + Attr("r", r);
      break;
  }
  const std::string open = "<" + tag + (attributes.rfind("class=", 0) == 0 ? " " + attributes + geometry : geometry + " " + attributes);
  return content.empty() ? open + "/>" : open + ">" + content + "</" + tag + ">";
}

// The fill and stroke of a point's mark: filled, hollow (white inside) or ringed in black.
std::string MarkerPaint(const std::string &color, bool hollow, bool flagged, bool translucent) {
  std::string paint = hollow ? "fill=\"#fff\" stroke=\"" + color + "\" stroke-width=\"1.6\""
                             : "fill=\"" + color + "\"" + (translucent ? " fill-opacity=\"0.8\"" : "");
  if (flagged) paint += " stroke=\"#000\" stroke-width=\"2\"";
  return paint;
}

std::string DefaultTip(const XyChart &chart, const Point &point) {
  auto format = [](AxisKind kind, double value) {
    return kind == AxisKind::kLogBytes ? FormatBytes(value) : FormatNumber(value);
  };
  return format(chart.x_kind, point.x) + ", " + format(chart.y_kind, point.y);
}

// The frame, grid, ticks and titles of a plot area.
std::string Axes(const Scale &x, const Scale &y, double left, double top, double right, double bottom,
                 const std::string &x_title, const std::string &y_title) {
  std::string out = "<g class=\"axes\">";
  for (const Tick &tick : y.Ticks()) {
    const double py = y(tick.value);
    out += Line(left, py, right, py, "stroke=\"#e3e7ee\"");
    out += Line(left - 4, py, left, py, "stroke=\"#555\"");
    out += SvgText(left - 7, py + 4, tick.label, "text-anchor=\"end\"");
  }
  for (const Tick &tick : x.Ticks()) {
    const double px = x(tick.value);
    out += Line(px, top, px, bottom, "stroke=\"#eef1f5\"");
    out += Line(px, bottom, px, bottom + 4, "stroke=\"#555\"");
    out += SvgText(px, bottom + 16, tick.label, "text-anchor=\"middle\"");
  }
  out += Line(left, bottom, right, bottom, "stroke=\"#555\"");
  out += Line(left, top, left, bottom, "stroke=\"#555\"");
  out += SvgText((left + right) / 2, bottom + 36, x_title, "text-anchor=\"middle\" class=\"axis-title\"");
  char rotate[96];
  const double ty = (top + bottom) / 2;
  std::snprintf(rotate, sizeof rotate, "text-anchor=\"middle\" class=\"axis-title\" transform=\"rotate(-90 %s %s)\"",
                SvgNumber(16).c_str(), SvgNumber(ty).c_str());
  out += SvgText(16, ty, y_title, rotate);
  return out + "</g>";
}

std::string Legend(const std::vector<LegendEntry> &entries, double left, double top) {
  if (entries.empty()) return "";
  std::string out = "<g class=\"legend\">";
  for (size_t i = 0; i < entries.size(); ++i) {
    const LegendEntry &entry = entries[i];
    const double y = top + kLegendRow * i + 8;
    out += entry.toggles.empty() ? "<g>" : "<g data-toggles=\"" + entry.toggles + "\">";
    if (entry.line) {
      out += Line(left, y, left + 18, y,
                  "stroke=\"" + entry.style.color + "\" stroke-width=\"2\"" +
                      (entry.style.dash.empty() ? "" : " stroke-dasharray=\"" + entry.style.dash + "\""));
    }
    if (entry.marker) {
      out += Marker(entry.style.marker, left + 9, y, 4, MarkerPaint(entry.style.color, entry.hollow, entry.flagged, false));
    }
    if (entry.label.size() <= kLegendChars) {
      out += SvgText(left + 24, y + 4, entry.label);
    } else {
      out += "<title>" + HtmlEscape(entry.label) + "</title>" +
             SvgText(left + 24, y + 4, entry.label.substr(0, kLegendChars - 1) + "…");
    }
    out += "</g>";
  }
  return out + "</g>";
}

double LegendHeight(size_t entries) { return kLegendRow * (entries + 1) + kTop; }

void Extend(double value, bool positive_only, double *min, double *max, bool *any) {
  if (!std::isfinite(value) || (positive_only && !(value > 0))) return;
  *min = *any ? std::min(*min, value) : value;
  *max = *any ? std::max(*max, value) : value;
  *any = true;
}

}  // namespace

constexpr size_t kPaletteSize = 12;

const char *SeriesColor(size_t index) {
  static const char *const kPalette[kPaletteSize] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                                                     "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#ad494a"};
  return kPalette[index % kPaletteSize];
}

SeriesStyle SeriesStyleOf(size_t index) {
  static const MarkerShape kMarkers[] = {MarkerShape::kCircle, MarkerShape::kSquare, MarkerShape::kTriangle,
                                         MarkerShape::kDiamond};
  static const char *const kDashes[] = {"", "7 3", "2 2"};
  constexpr size_t kMarkerCount = std::size(kMarkers);
  return {SeriesColor(index), kMarkers[index / kPaletteSize % kMarkerCount],
          kDashes[index / (kPaletteSize * kMarkerCount) % std::size(kDashes)]};
}

std::string SvgNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  std::string text = buffer;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

std::string SvgOpen(int width, int height, const std::string &title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
         "\"><title>" + HtmlEscape(title) + "</title>";
}

std::string SvgText(double x, double y, const std::string &text, const std::string &attributes) {
  return "<text" + Attr("x", x) + Attr("y", y) + (attributes.empty() ? "" : " " + attributes) + ">" + HtmlEscape(text) +
         "</text>";
}

std::string RenderXyChart(const XyChart &chart) {
  const bool x_log = chart.x_kind != AxisKind::kLinear;
  const bool y_log = chart.y_kind != AxisKind::kLinear;
  double x_min = 0, x_max = 0, y_min = 0, y_max = 0;
  bool x_any = false, y_any = false;
  size_t drawable_points = 0;
  for (const Series &series : chart.series) {
    for (const Point &point : series.points) {
      if (!std::isfinite(point.x) || !std::isfinite(point.y) || (x_log && point.x <= 0) || (y_log && point.y <= 0)) continue;
      Extend(point.x, x_log, &x_min, &x_max, &x_any);
      Extend(point.y, y_log, &y_min, &y_max, &y_any);
      ++drawable_points;
    }
  }
  if (drawable_points == 0) return "";
  for (const ReferenceLine &line : chart.references) {
    Extend(line.x0, x_log, &x_min, &x_max, &x_any);
    Extend(line.x1, x_log, &x_min, &x_max, &x_any);
    Extend(line.y0, y_log, &y_min, &y_max, &y_any);
    Extend(line.y1, y_log, &y_min, &y_max, &y_any);
  }

  std::vector<SeriesStyle> styles;
  std::vector<LegendEntry> legend;
  bool any_hollow = false, any_flagged = false;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const Series &series = chart.series[i];
    styles.push_back(SeriesStyleOf(i));
    if (!series.color.empty()) styles.back().color = series.color;
    legend.push_back({series.label, styles.back(), series.connect, true, false, false, std::to_string(i)});
    for (const Point &point : series.points) {
      any_hollow = any_hollow || point.hollow;
      any_flagged = any_flagged || point.flagged;
    }
  }
  const SeriesStyle neutral{"#6b7280", MarkerShape::kCircle, ""};
  if (any_hollow && !chart.hollow_label.empty()) legend.push_back({chart.hollow_label, neutral, false, true, true, false, ""});
  if (any_flagged && !chart.flagged_label.empty()) {
    legend.push_back({chart.flagged_label, neutral, false, true, false, true, ""});
  }
  for (const ReferenceLine &line : chart.references) {
    legend.push_back({line.label, {line.color, MarkerShape::kCircle, line.dashed ? "6 4" : ""}, true, false, false, false, ""});
  }

  const double height = std::max<double>(chart.height, LegendHeight(legend.size()));
  const double right = chart.width - kLegendWidth - 10;
  const double bottom = height - kBottom;
  const Domain x_domain = NiceDomain(chart.x_kind, x_min, x_max);
  const Domain y_domain = NiceDomain(chart.y_kind, y_min, y_max);
  const Scale x(chart.x_kind, x_domain.lo, x_domain.hi, kLeft, right);
  const Scale y(chart.y_kind, y_domain.lo, y_domain.hi, bottom, kTop);

  std::string out = SvgOpen(chart.width, static_cast<int>(height), chart.title);
  out += Axes(x, y, kLeft, kTop, right, bottom, chart.x_title, chart.y_title);
  for (const ReferenceLine &line : chart.references) {
    if (!x.Drawable(line.x0) || !x.Drawable(line.x1) || !y.Drawable(line.y0) || !y.Drawable(line.y1)) continue;
    const double px0 = x(line.x0), py0 = y(line.y0), px1 = x(line.x1), py1 = y(line.y1);
    out += Line(px0, py0, px1, py1,
                "class=\"reference\" stroke=\"" + line.color + "\" stroke-width=\"1.5\"" +
                    (line.dashed ? " stroke-dasharray=\"6 4\"" : ""));
    if (!line.labelled) continue;
    // Just above the line: a slope from a little past its start, a flat line (a compute peak)
    // at its right end, clear of the slopes that meet it on the left.
    const double degrees = std::atan2(py1 - py0, px1 - px0) * 180 / M_PI;
    const bool flat = std::fabs(degrees) < 1;
    const double lx = flat ? px1 - 4 : px0 + (px1 - px0) * 0.04, ly = (flat ? py1 : py0 + (py1 - py0) * 0.04) - 4;
    char rotate[128];
    std::snprintf(rotate, sizeof rotate, "class=\"roof-label\"%s transform=\"rotate(%s %s %s)\"",
                  flat ? " text-anchor=\"end\"" : "", SvgNumber(degrees).c_str(), SvgNumber(lx).c_str(), SvgNumber(ly).c_str());
    out += SvgText(lx, ly, line.label, rotate);
  }
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const Series &series = chart.series[i];
    const SeriesStyle &style = styles[i];
    std::vector<Point> points;
    for (const Point &point : series.points) {
      if (x.Drawable(point.x) && y.Drawable(point.y)) points.push_back(point);
    }
    if (points.empty()) continue;
    out += "<g class=\"series\" data-series=\"" + std::to_string(i) + "\">";
    if (series.connect && points.size() > 1) {
      std::stable_sort(points.begin(), points.end(), [](const Point &a, const Point &b) { return a.x < b.x; });
      std::string path;
      for (const Point &point : points) path += SvgNumber(x(point.x)) + "," + SvgNumber(y(point.y)) + " ";
      path.pop_back();
      out += "<polyline fill=\"none\" stroke=\"" + style.color + "\" stroke-width=\"1.8\"" +
             (style.dash.empty() ? "" : " stroke-dasharray=\"" + style.dash + "\"") + " points=\"" + path + "\"/>";
    }
    for (const Point &point : points) {
      out += Marker(style.marker, x(point.x), y(point.y), series.connect ? 2.8 : 4,
                    "class=\"mark\" " + MarkerPaint(style.color, point.hollow, point.flagged, !series.connect),
                    "<title>" + HtmlEscape(series.label + ": " + (point.tip.empty() ? DefaultTip(chart, point) : point.tip)) +
                        "</title>");
    }
    out += "</g>";
  }
  out += Legend(legend, right + 16, kTop);
  return out + "</svg>";
}

std::string RenderBarChart(const BarChart &chart) {
  const bool log = chart.value_kind != AxisKind::kLinear;
  double min = 0, max = 0;
  bool any = false;
  size_t longest_label = 0;
  std::vector<std::string> groups;
  for (const Bar &bar : chart.bars) {
    Extend(bar.value, log, &min, &max, &any);
    longest_label = std::max(longest_label, bar.label.size());
    if (std::find(groups.begin(), groups.end(), bar.group) == groups.end()) groups.push_back(bar.group);
  }
  if (!any) return "";
  constexpr double kRow = 20, kNoteWidth = 110;
  const double left = std::min(260.0, 14 + 6.6 * longest_label);
  const bool has_legend = groups.size() > 1 || !groups.front().empty();
  const double right = chart.width - kNoteWidth - (has_legend ? 120 : 10);
  const double bottom = kTop + kRow * chart.bars.size() + 6;
  const double height = std::max(bottom + kBottom, LegendHeight(groups.size()));
  const Domain domain = NiceDomain(chart.value_kind, min, max);
  const Scale scale(chart.value_kind, domain.lo, domain.hi, left, right);

  std::string out = SvgOpen(chart.width, static_cast<int>(height), chart.title);
  out += "<g class=\"axes\">";
  for (const Tick &tick : scale.Ticks()) {
    const double px = scale(tick.value);
    out += Line(px, kTop, px, bottom, "stroke=\"#e3e7ee\"");
    out += SvgText(px, bottom + 16, tick.label, "text-anchor=\"middle\"");
  }
  out += Line(left, bottom, right, bottom, "stroke=\"#555\"");
  out += Line(left, kTop, left, bottom, "stroke=\"#555\"");
  out += SvgText((left + right) / 2, bottom + 36, chart.value_title, "text-anchor=\"middle\" class=\"axis-title\"");
  out += "</g>";
  for (size_t i = 0; i < chart.bars.size(); ++i) {
    const Bar &bar = chart.bars[i];
    const double top = kTop + kRow * i + 3;
    out += SvgText(left - 6, top + 11, bar.label, "text-anchor=\"end\"");
    if (!scale.Drawable(bar.value)) continue;
    const size_t group = std::find(groups.begin(), groups.end(), bar.group) - groups.begin();
    const double end = std::max(scale(bar.value), left + 1);
    out += "<rect class=\"mark\"" + Attr("x", left) + Attr("y", top) + Attr("width", end - left) + Attr("height", kRow - 6) +
           " fill=\"" + SeriesColor(group) + "\"><title>" + HtmlEscape(bar.tip.empty() ? bar.label : bar.tip) +
           "</title></rect>";
    out += SvgText(end + 5, top + 11, bar.note.empty() ? FormatNumber(bar.value) : bar.note);
  }
  if (has_legend) {
    std::vector<LegendEntry> legend;
    for (size_t i = 0; i < groups.size(); ++i) legend.push_back({groups[i], SeriesStyleOf(i), false, true});
    out += Legend(legend, chart.width - 116, kTop);
  }
  return out + "</svg>";
}

}  // namespace infinicts::render::svg
