#include "cts/case.h"
#include "timing/timing.h"

namespace infinicts::timing {

void RecordMeasurement(const Measurement &measurement) {
  // A caller that filled the samples itself may not have summarized them.
  const Stats stats = measurement.stats.count == measurement.samples_ms.size() ? measurement.stats
                                                                                : Summarize(measurement.samples_ms);
  cts::RecordMetric("time_ms_median", stats.median_ms);
  cts::RecordMetric("time_ms_min", stats.min_ms);
  cts::RecordMetric("time_ms_p10", stats.p10_ms);
  cts::RecordMetric("time_ms_p90", stats.p90_ms);
  cts::RecordMetric("time_ms_max", stats.max_ms);
  cts::RecordMetric("time_cv", stats.cv);
  cts::RecordMetric("iterations", static_cast<double>(measurement.samples_ms.size()));
  cts::RecordTiming(measurement.ToJson());
}

}  // namespace infinicts::timing
