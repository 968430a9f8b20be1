// The SVG helpers: scales, nice domains, ticks, number labels and the chart builders.
#include <gtest/gtest.h>

#include <set>

#include <cmath>

#include "render/number_format.h"
#include "render/svg_plot.h"
#include "render/svg_scale.h"

namespace infinicts::render::svg {
namespace {

size_t Count(const std::string &text, const std::string &needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

TEST(SvgScale, LinearMapsDomainOntoPixels) {
  const Scale scale(AxisKind::kLinear, 0, 10, 100, 200);
  EXPECT_DOUBLE_EQ(scale(0), 100);
  EXPECT_DOUBLE_EQ(scale(10), 200);
  EXPECT_DOUBLE_EQ(scale(2.5), 125);
  const Scale inverted(AxisKind::kLinear, 0, 10, 300, 0);  // y axes grow upwards
  EXPECT_DOUBLE_EQ(inverted(10), 0);
}

TEST(SvgScale, LogPutsEveryDecadeAtTheSameDistance) {
  const Scale scale(AxisKind::kLog10, 1, 1000, 0, 300);
  EXPECT_NEAR(scale(10), 100, 1e-9);
  EXPECT_NEAR(scale(100), 200, 1e-9);
  EXPECT_TRUE(scale.Drawable(0.5));
  EXPECT_FALSE(scale.Drawable(0));
  EXPECT_FALSE(scale.Drawable(-1));
  EXPECT_FALSE(scale.Drawable(NAN));
  EXPECT_TRUE(Scale(AxisKind::kLinear, -1, 1, 0, 1).Drawable(-0.5));
}

TEST(SvgScale, NiceDomains) {
  Domain log = NiceDomain(AxisKind::kLog10, 3, 450);
  EXPECT_DOUBLE_EQ(log.lo, 1);
  EXPECT_DOUBLE_EQ(log.hi, 1000);
  Domain exact = NiceDomain(AxisKind::kLog10, 10, 100);
  EXPECT_DOUBLE_EQ(exact.lo, 10);
  EXPECT_DOUBLE_EQ(exact.hi, 100);
  Domain single = NiceDomain(AxisKind::kLog10, 100, 100);
  EXPECT_DOUBLE_EQ(single.lo, 100);
  EXPECT_DOUBLE_EQ(single.hi, 1000);
  Domain bytes = NiceDomain(AxisKind::kLogBytes, 4096, 3e8);
  EXPECT_DOUBLE_EQ(bytes.lo, 4096);
  EXPECT_DOUBLE_EQ(bytes.hi, std::pow(2.0, 29));
  Domain linear = NiceDomain(AxisKind::kLinear, 1.5, 7.3);
  EXPECT_DOUBLE_EQ(linear.lo, 0);  // non-negative data starts at zero
  EXPECT_DOUBLE_EQ(linear.hi, 8);
  Domain negative = NiceDomain(AxisKind::kLinear, -3, 7);
  EXPECT_LE(negative.lo, -3);
  EXPECT_GE(negative.hi, 7);
}

TEST(SvgScale, LinearTicksAreRoundSteps) {
  EXPECT_EQ(LinearTicks(0, 10, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  const std::vector<double> ticks = LinearTicks(0, 1, 5);
  ASSERT_EQ(ticks.size(), 6u);
  EXPECT_NEAR(ticks[3], 0.6, 1e-12);
  EXPECT_EQ(LinearTicks(-50, 50, 4), (std::vector<double>{-50, 0, 50}));
  EXPECT_TRUE(LinearTicks(5, 5).empty());
}

TEST(SvgScale, LogTicksThinOutToStayReadable) {
  EXPECT_EQ(LogTicks(1, 1e6, 10, 8).size(), 7u);
  const std::vector<double> wide = LogTicks(1, 1e12, 10, 8);  // 13 decades: every second one
  EXPECT_EQ(wide, (std::vector<double>{1, 1e2, 1e4, 1e6, 1e8, 1e10, 1e12}));
  const std::vector<double> bytes = LogTicks(4096, std::pow(2.0, 28), 2, 8);  // 2^12..2^28
  EXPECT_LE(bytes.size(), 9u);
  EXPECT_GE(bytes.size(), 4u);
  for (double tick : bytes) EXPECT_EQ(static_cast<int>(std::log2(tick)) % 3, 0) << tick;
  EXPECT_TRUE(LogTicks(0, 10, 10).empty());
}

TEST(SvgScale, TickLabelsFollowTheAxisKind) {
  const std::vector<Tick> bytes = Scale(AxisKind::kLogBytes, 1024, 1 << 20, 0, 1).Ticks();
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes.front().label, "1 KiB");
  EXPECT_EQ(bytes.back().label, "1 MiB");
  const std::vector<Tick> decades = Scale(AxisKind::kLog10, 0.01, 1e4, 0, 1).Ticks();
  EXPECT_EQ(decades.front().label, "0.01");
  EXPECT_EQ(decades.back().label, "10k");
}

TEST(SvgScale, ChooseAxisGoesLogOnlyAcrossDecades) {
  EXPECT_EQ(ChooseAxis({1, 2, 5, 9}), AxisKind::kLinear);
  EXPECT_EQ(ChooseAxis({0.1, 2, 500}), AxisKind::kLog10);
  EXPECT_EQ(ChooseAxis({0, -1, 5}), AxisKind::kLinear);
  EXPECT_EQ(ChooseAxis({}), AxisKind::kLinear);
}

TEST(NumberFormat, ReadableNumbers) {
  EXPECT_EQ(FormatNumber(0), "0");
  EXPECT_EQ(FormatNumber(21.7), "21.7");
  EXPECT_EQ(FormatNumber(0.012345), "0.0123");
  EXPECT_EQ(FormatNumber(615.4), "615");
  EXPECT_EQ(FormatNumber(2.5e7), "2.50e+07");
  EXPECT_EQ(FormatNumber(NAN), "NaN");
  EXPECT_EQ(FormatCompact(10000), "10k");
  EXPECT_EQ(FormatCompact(2.5e9), "2.5G");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatBytes(256.0 * 1024 * 1024), "256 MiB");
  EXPECT_EQ(FormatBytes(100), "100 B");
  EXPECT_EQ(FormatMilliseconds(2500), "2.5 s");
  // The unit follows the magnitude: never "2.35e-04 ms".
  EXPECT_EQ(FormatMilliseconds(12.3), "12.3 ms");
  EXPECT_EQ(FormatMilliseconds(0.5), "500 µs");
  EXPECT_EQ(FormatMilliseconds(2.35e-4), "235 ns");
  EXPECT_EQ(FormatMilliseconds(0.0123), "12.3 µs");
  EXPECT_EQ(FormatMilliseconds(0), "0 ms");
}

TEST(SvgPlot, XyChartDrawsOneMarkPerPointAndALegend) {
  XyChart chart;
  chart.title = "t <1>";
  chart.x_title = "size";
  chart.y_title = "GB/s";
  chart.x_kind = AxisKind::kLogBytes;
  chart.series.push_back({"h2d", {{1024, 1, ""}, {4096, 3, ""}, {16384, 5, ""}}, true, ""});
  chart.series.push_back({"d2h", {{1024, 2, ""}, {4096, 0, "zero is drawable on a linear axis"}}, true, ""});
  chart.references.push_back({"peak 6", 1024, 6, 16384, 6, true, "#555"});
  const std::string svg = RenderXyChart(chart);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(Count(svg, "class=\"mark\""), 5u);
  EXPECT_EQ(Count(svg, "<polyline"), 2u);
  EXPECT_NE(svg.find("<title>t &lt;1&gt;</title>"), std::string::npos);
  EXPECT_NE(svg.find(">h2d</text>"), std::string::npos);
  EXPECT_NE(svg.find(">peak 6</text>"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
  EXPECT_NE(svg.find(">1 KiB</text>"), std::string::npos);
  EXPECT_NE(svg.find(">16 KiB</text>"), std::string::npos);
}

// A chart of many series (the ccl chart's 14 lines, the roofline's 40 operators): every series
// in the legend, each drawn in a style of its own, and each legend entry toggles its series.
TEST(SvgPlot, ManySeriesAllInTheLegendEachInItsOwnStyle) {
  std::set<std::string> styles;
  for (size_t i = 0; i < 144; ++i) {
    const SeriesStyle style = SeriesStyleOf(i);
    styles.insert(style.color + "/" + std::to_string(static_cast<int>(style.marker)) + "/" + style.dash);
  }
  EXPECT_EQ(styles.size(), 144u);

  XyChart chart;
  chart.x_kind = AxisKind::kLogBytes;
  for (int i = 0; i < 30; ++i) {
    chart.series.push_back({"line " + std::to_string(i), {{1024, 1.0 + i, ""}, {4096, 2.0 + i, ""}}, true, ""});
  }
  const std::string svg = RenderXyChart(chart);
  for (int i = 0; i < 30; ++i) {
    EXPECT_NE(svg.find(">line " + std::to_string(i) + "</text>"), std::string::npos) << i;
    EXPECT_NE(svg.find("<g data-toggles=\"" + std::to_string(i) + "\">"), std::string::npos) << i;
    EXPECT_NE(svg.find("<g class=\"series\" data-series=\"" + std::to_string(i) + "\">"), std::string::npos) << i;
  }
  EXPECT_EQ(svg.find("more</text>"), std::string::npos);
  // Each line: its stroke and dash, and the shape of its first mark, unlike any other's.
  std::set<std::string> drawn;
  for (size_t at = svg.find("<g class=\"series\""); at != std::string::npos; at = svg.find("<g class=\"series\"", at + 1)) {
    const size_t line = svg.find("<polyline", at);
    const std::string polyline = svg.substr(line, svg.find(" points=", line) - line);
    const size_t mark = svg.find("class=\"mark\"", line);
    drawn.insert(polyline + svg.substr(svg.rfind('<', mark), 6));
  }
  EXPECT_EQ(drawn.size(), 30u);
}

TEST(SvgPlot, LogAxesLeaveOutValuesTheyCannotShow) {
  XyChart chart;
  chart.x_kind = chart.y_kind = AxisKind::kLog10;
  chart.series.push_back({"ops", {{0.5, 10, ""}, {-1, 10, ""}, {2, 0, ""}, {8, 400, ""}}, false, ""});
  EXPECT_EQ(Count(RenderXyChart(chart), "class=\"mark\""), 2u);
  XyChart nothing;
  nothing.x_kind = AxisKind::kLog10;
  nothing.series.push_back({"none", {{0, 1, ""}}, true, ""});
  EXPECT_EQ(RenderXyChart(nothing), "");
  EXPECT_EQ(RenderXyChart(XyChart{}), "");
}

TEST(SvgPlot, BarChartOneRectPerBar) {
  BarChart chart;
  chart.title = "bars";
  chart.value_title = "GFLOP/s";
  chart.bars = {{"gemm f16", 600, "600 GFLOP/s", "", "f16"}, {"gemm f32", 200, "", "", "f32"}, {"add f32", 2, "", "", "f32"}};
  chart.value_kind = ChooseAxis({600, 200, 2});
  const std::string svg = RenderBarChart(chart);
  EXPECT_EQ(Count(svg, "<rect class=\"mark\""), 3u);
  EXPECT_NE(svg.find(">600 GFLOP/s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">200</text>"), std::string::npos);  // the default note is the value
  EXPECT_NE(svg.find(">f32</text>"), std::string::npos);  // legend by group
  EXPECT_EQ(RenderBarChart(BarChart{}), "");
}

}  // namespace
}  // namespace infinicts::render::svg
