#include "render/number_format.h"

#include <cmath>
#include <cstdio>

namespace infinicts::render {
namespace {

std::string TrimZeros(std::string text) {
  if (text.find('.') == std::string::npos) return text;
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

std::string FormatNumber(double value, int significant) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  const double magnitude = std::fabs(value);
  char buffer[64];
  if (magnitude >= 1e-3 && magnitude < 1e6) {
    const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
    const int decimals = std::max(0, significant - 1 - exponent);
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return TrimZeros(buffer);
  }
  std::snprintf(buffer, sizeof buffer, "%.*e", std::max(0, significant - 1), value);
  return buffer;
}

std::string FormatCompact(double value) {
  const double magnitude = std::fabs(value);
  static const struct {
    double factor;
    const char *suffix;
  } kUnits[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto &unit : kUnits) {
    if (magnitude >= unit.factor) return FormatNumber(value / unit.factor) + unit.suffix;
  }
  return FormatNumber(value);
}

std::string FormatBytes(double bytes) {
  static const char *const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  double scaled = bytes;
  while (std::fabs(scaled) >= 1024 && unit < 4) {
    scaled /= 1024;
    ++unit;
  }
  return FormatNumber(scaled) + " " + kUnits[unit];
}

std::string FormatMilliseconds(double ms) {
  const double magnitude = std::fabs(ms);
  if (magnitude >= 1000) return FormatNumber(ms / 1000) + " s";
  if (magnitude >= 1 || ms == 0) return FormatNumber(ms) + " ms";
  if (magnitude >= 1e-3) return FormatNumber(ms * 1e3) + " µs";
  return FormatNumber(ms * 1e6) + " ns";
}

}  // namespace infinicts::render
