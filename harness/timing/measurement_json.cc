#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "timing/timing.h"

namespace infinicts::timing {
namespace {

// Six significant digits keep a report of thousands of samples small; the events of
// any backend resolve no finer than that.
double RoundToSixDigits(double value) {
  if (value == 0 || !std::isfinite(value)) return value;
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return std::strtod(text, nullptr);
}

}  // namespace

nlohmann::json Measurement::ToJson() const {
  nlohmann::json samples = nlohmann::json::array();
  for (double sample : samples_ms) samples.push_back(RoundToSixDigits(sample));
  nlohmann::json json = {
      {"method", MethodName(method)},
      {"warmup_iterations", warmup_iterations},
      {"cold_cache", cold_cache},
      {"rotating_buffers", rotating_buffers},
      {"budget_ms", budget_ms},
      {"launches_per_sample", launches_per_sample},
      {"resolved", resolved},
      {"samples_ms", std::move(samples)},
  };
  if (resolution_ms) json["resolution_ms"] = RoundToSixDigits(*resolution_ms);
  return json;
}

}  // namespace infinicts::timing
