#include "timing/measure_streams.h"
#include "timing/timing.h"

namespace infinicts::timing {

Measurement Measure(const RtApi &rt, infinirtStream_t stream, const Launch &launch, const Options &options) {
  const std::vector<TimedStream> streams{TimedStream{&rt, stream, false, INFINI_DEVICE_CPU, 0}};
  return MeasureStreams(rt, streams, launch, options);
}

Measurement MeasureAcross(const RtApi &rt, infiniDevice_t device_type, const std::vector<RankStream> &streams,
                          const Launch &launch, const Options &options) {
  std::vector<TimedStream> timed;
  timed.reserve(streams.size());
  for (const RankStream &rank : streams) timed.push_back(TimedStream{&rt, rank.stream, true, device_type, rank.device_id});
  return MeasureStreams(rt, timed, launch, options);
}

}  // namespace infinicts::timing
