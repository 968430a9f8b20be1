#include <algorithm>
#include <cmath>
#include <numeric>

#include "timing/timing.h"

namespace infinicts::timing {
namespace {

// The q-quantile of sorted samples, interpolating linearly between the closest ranks
// (rank q * (n - 1), as numpy's default "linear" method).
double Quantile(const std::vector<double> &sorted, double q) {
  const double rank = q * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(rank));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

}  // namespace

Stats Summarize(std::vector<double> samples_ms) {
  Stats stats;
  stats.count = samples_ms.size();
  if (samples_ms.empty()) return stats;
  std::sort(samples_ms.begin(), samples_ms.end());
  stats.min_ms = samples_ms.front();
  stats.max_ms = samples_ms.back();
  stats.median_ms = Quantile(samples_ms, 0.5);
  stats.p10_ms = Quantile(samples_ms, 0.1);
  stats.p90_ms = Quantile(samples_ms, 0.9);
  const double n = static_cast<double>(samples_ms.size());
  stats.mean_ms = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) / n;
  if (samples_ms.size() > 1 && stats.mean_ms != 0) {
    double squares = 0;
    for (double sample : samples_ms) squares += (sample - stats.mean_ms) * (sample - stats.mean_ms);
    stats.cv = std::sqrt(squares / (n - 1)) / stats.mean_ms;
  }
  return stats;
}

const char *MethodName(Method method) {
  return method == Method::kDeviceEvents ? "device_events" : "host_clock";
}

}  // namespace infinicts::timing
