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
  // A time of zero is no measurement: the case cannot pass with it.
  EXPECT_GT(stats.median_ms, 0) << "the timer read " << stats.median_ms << " ms for "
                                << measurement.launches_per_sample << " launch(es) per sample ("
                                << MethodName(measurement.method) << "): it cannot resolve this work";
  // Near the timer's resolution even batched: said in the result (metric and timing.resolved),
  // and kept out of the roofline and compare.
  if (!measurement.resolved) cts::RecordMetric("timer_unresolved", 1);
}

}  // namespace infinicts::timing
