#include "render/svg_scale.h"

#include <algorithm>
#include <cmath>

#include "render/number_format.h"

namespace infinicts::render::svg {
namespace {

double LogBase(AxisKind kind) { return kind == AxisKind::kLogBytes ? 2.0 : 10.0; }
bool IsLog(AxisKind kind) { return kind != AxisKind::kLinear; }

double NiceStep(double raw) {
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / power;
  const double nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

}  // namespace

Scale::Scale(AxisKind kind, double domain_lo, double domain_hi, double pixel_lo, double pixel_hi)
    : kind_(kind), domain_lo_(domain_lo), domain_hi_(domain_hi), pixel_lo_(pixel_lo), pixel_hi_(pixel_hi) {}

double Scale::Transform(double value) const { return IsLog(kind_) ? std::log(value) : value; }

double Scale::operator()(double value) const {
  const double lo = Transform(domain_lo_);
  const double hi = Transform(domain_hi_);
  const double span = hi - lo;
  const double fraction = span == 0 ? 0.5 : (Transform(value) - lo) / span;
  return pixel_lo_ + fraction * (pixel_hi_ - pixel_lo_);
}

bool Scale::Drawable(double value) const { return std::isfinite(value) && (!IsLog(kind_) || value > 0); }

std::vector<Tick> Scale::Ticks() const {
  std::vector<double> values = IsLog(kind_) ? LogTicks(domain_lo_, domain_hi_, LogBase(kind_))
                                            : LinearTicks(domain_lo_, domain_hi_);
  std::vector<Tick> ticks;
  for (double value : values) {
    std::string label = kind_ == AxisKind::kLogBytes ? FormatBytes(value)
                        : kind_ == AxisKind::kLog10  ? FormatCompact(value)
                                                     : FormatNumber(value);
    ticks.push_back({value, label});
  }
  return ticks;
}

Domain NiceDomain(AxisKind kind, double min, double max) {
  if (IsLog(kind)) {
    const double base = LogBase(kind);
    if (!(min > 0) || !std::isfinite(min)) min = max > 0 ? max : 1;
    if (!(max > 0) || !std::isfinite(max)) max = min;
    double lo = std::pow(base, std::floor(std::log(min) / std::log(base) + 1e-9));
    double hi = std::pow(base, std::ceil(std::log(max) / std::log(base) - 1e-9));
    if (hi <= lo) hi = lo * base;
    return {lo, hi};
  }
  if (!std::isfinite(min) || !std::isfinite(max)) return {0, 1};
  if (min >= 0) min = 0;
  if (max == min) max = min == 0 ? 1 : min + std::fabs(min);
  const double step = NiceStep((max - min) / 5);
  return {std::floor(min / step) * step, std::ceil(max / step) * step};
}

std::vector<double> LinearTicks(double lo, double hi, int target) {
  std::vector<double> ticks;
  if (!(hi > lo) || target < 1) return ticks;
  const double step = NiceStep((hi - lo) / target);
  for (double value = std::ceil(lo / step - 1e-9) * step; value <= hi + step * 1e-9; value += step) {
    ticks.push_back(std::fabs(value) < step * 1e-9 ? 0 : value);
  }
  return ticks;
}

std::vector<double> LogTicks(double lo, double hi, double base, int max_ticks) {
  std::vector<double> ticks;
  if (!(lo > 0) || !(hi > lo)) return ticks;
  const int first = static_cast<int>(std::ceil(std::log(lo) / std::log(base) - 1e-9));
  const int last = static_cast<int>(std::floor(std::log(hi) / std::log(base) + 1e-9));
  // Every power, or every k-th one aligned to k (so labels land on 1k, 1M, 16 KiB, 1 MiB).
  const int stride = std::max(1, (last - first + max_ticks) / max_ticks);
  for (int exponent = first; exponent <= last; ++exponent) {
    if (exponent % stride == 0) ticks.push_back(std::pow(base, exponent));
  }
  return ticks;
}

AxisKind ChooseAxis(const std::vector<double> &values, double decades) {
  double min = 0, max = 0;
  bool any = false;
  for (double value : values) {
    if (!(value > 0) || !std::isfinite(value)) continue;
    min = any ? std::min(min, value) : value;
    max = any ? std::max(max, value) : value;
    any = true;
  }
  return any && std::log10(max / min) >= decades ? AxisKind::kLog10 : AxisKind::kLinear;
}

}  // namespace infinicts::render::svg
