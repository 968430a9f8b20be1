// Mapping data to pixels for the SVG charts: linear and logarithmic scales, "nice"
// domains and the ticks drawn on them.
#pragma once

#include <string>
#include <vector>

namespace infinicts::render::svg {

// How an axis spaces its values. kLogBytes is a base-2 log scale labelled in KiB/MiB/GiB.
enum class AxisKind { kLinear, kLog10, kLogBytes };

struct Tick {
  double value;
  std::string label;
};

class Scale {
 public:
  // Maps [domain_lo, domain_hi] onto [pixel_lo, pixel_hi]; a log scale needs domain_lo > 0.
  Scale(AxisKind kind, double domain_lo, double domain_hi, double pixel_lo, double pixel_hi);

  double operator()(double value) const;
  // Whether the value can be drawn: finite, and positive on a log scale.
  bool Drawable(double value) const;
  std::vector<Tick> Ticks() const;

  AxisKind kind() const { return kind_; }
  double domain_lo() const { return domain_lo_; }
  double domain_hi() const { return domain_hi_; }

 private:
  double Transform(double value) const;
  AxisKind kind_;
  double domain_lo_, domain_hi_, pixel_lo_, pixel_hi_;
};

struct Domain {
  double lo;
  double hi;
};

// The domain an axis shows for values min..max: whole powers (of 10, or of 2 for bytes)
// on a log axis, a round step past the extremes (from 0 for non-negative data) on a
// linear one. A single value or an empty range still gets a visible span.
Domain NiceDomain(AxisKind kind, double min, double max);

// Ticks at round steps (1, 2 or 5 × 10^k) between lo and hi, about `target` of them.
std::vector<double> LinearTicks(double lo, double hi, int target = 5);
// Ticks at powers of `base` inside [lo, hi], every power or every k-th, at most `max_ticks`.
std::vector<double> LogTicks(double lo, double hi, double base, int max_ticks = 8);

// kLog10 when positive values span at least `decades` decades, else kLinear.
AxisKind ChooseAxis(const std::vector<double> &values, double decades = 1.5);

}  // namespace infinicts::render::svg
