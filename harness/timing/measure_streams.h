// The measurement engine behind Measure (one stream, current device) and MeasureAcross
// (one stream per rank, each on its device).
#pragma once

#include <vector>

#include "timing/rank_device.h"
#include "timing/timing.h"

namespace infinicts::timing {

// Warm-up (with the cache flush when asked, so that the estimate covers everything an
// iteration costs), then TimedIterationCount iterations timed by the backend's events on
// every stream (a sample is the longest stream's time) or by the host clock from the
// launch to the last stream's synchronize.
Measurement MeasureStreams(const RtApi &rt, const std::vector<TimedStream> &streams, const Launch &launch,
                           const Options &options);

}  // namespace infinicts::timing
