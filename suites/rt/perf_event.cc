// Subject `event`, mode perf: what events cost the host. record_cost is the host time of
// one infinirtEventRecord, over batches of records on an idle stream; the round trip is
// a record followed by infinirtEventSynchronize, the way a framework waits for a point
// in a stream. Both on a created stream and on the NULL stream.
#include "cts/case.h"
#include "perf_timing.h"
#include "rt_params.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;

enum class StreamChoice { kCreated, kNull };

struct EventPerfParam : Param<EventPerfParam> {
  StreamChoice stream;
  explicit EventPerfParam(StreamChoice s) : stream(s) {}
  const char *StreamName() const { return stream == StreamChoice::kCreated ? "created" : "null"; }
  std::string Name() const { return std::string(StreamName()) + "_stream"; }
  std::string Json() const { return nlohmann::json{{"stream", StreamName()}}.dump(); }
};

const std::vector<EventPerfParam> kStreamChoices = {EventPerfParam(StreamChoice::kCreated),
                                                    EventPerfParam(StreamChoice::kNull)};

// Records per sample: enough that the clock's resolution does not show in one call's share.
constexpr int kRecordsPerSample = 64;

class EventPerf : public cts::ParamCase<EventPerfParam> {
 protected:
  void SetUp() override {
    cts::ParamCase<EventPerfParam>::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (GetParam().stream == StreamChoice::kCreated) {
      infinirtStream_t raw = nullptr;
      CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));
      stream_holder_ = std::make_unique<ScopedStream>(raw);
      stream_ = raw;
    }
    CTS_ASSERT_OK(rt().infinirtEventCreate(&event_));
    event_holder_ = std::make_unique<ScopedEvent>(event_);
  }

  // The event is complete once synchronized: the records were real ones.
  void ExpectEventComplete() {
    CTS_ASSERT_OK(rt().infinirtEventSynchronize(event_));
    infinirtEventStatus_t status = INFINIRT_EVENT_NOT_READY;
    CTS_ASSERT_OK(rt().infinirtEventQuery(event_, &status));
    EXPECT_EQ(status, INFINIRT_EVENT_COMPLETE) << "infinirtEventQuery after infinirtEventSynchronize";
  }

  infinirtStream_t stream_ = nullptr;  // NULL: the default stream
  infinirtEvent_t event_ = nullptr;
  // Released in reverse: the event, then the stream.
  std::unique_ptr<ScopedStream> stream_holder_;
  std::unique_ptr<ScopedEvent> event_holder_;
};

class EventRecordCost : public EventPerf {};

CTS_TEST_P(EventRecordCost, record_cost, "event", "RT-EVENT-2", "RT-EVENT-7", "RT-EVENT-9") {
  const auto records = [this] {
    for (int i = 0; i < kRecordsPerSample; ++i) {
      if (const infiniStatus_t status = rt().infinirtEventRecord(event_, stream_)) return static_cast<int>(status);
    }
    return static_cast<int>(INFINI_STATUS_SUCCESS);
  };
  // The stream drains between batches, so every batch starts on an idle stream.
  const auto drain = [this] { return static_cast<int>(rt().infinirtStreamSynchronize(stream_)); };
  timing::Measurement measurement;
  RT_PERF_ASSERT_MEASURED(measurement = SampleOnHost(timing::OptionsFromEnvironment(), kRecordsPerSample,
                                                     "infinirtEventRecord", records, drain));
  ExpectEventComplete();
  timing::RecordMeasurement(measurement);
  cts::RecordMetric("records_per_sample", kRecordsPerSample);
  cts::RecordMetric("record_us_median", measurement.stats.median_ms * 1e3);
}

class EventRoundTrip : public EventPerf {};

CTS_TEST_P(EventRoundTrip, record_synchronize_round_trip, "event", "RT-EVENT-8", "RT-EVENT-9") {
  const auto round_trip = [this] {
    if (const infiniStatus_t status = rt().infinirtEventRecord(event_, stream_)) return static_cast<int>(status);
    return static_cast<int>(rt().infinirtEventSynchronize(event_));
  };
  timing::Measurement measurement;
  RT_PERF_ASSERT_MEASURED(measurement = SampleOnHost(timing::OptionsFromEnvironment(), 1,
                                                     "infinirtEventRecord + infinirtEventSynchronize", round_trip, nullptr));
  ExpectEventComplete();
  timing::RecordMeasurement(measurement);
  cts::RecordMetric("round_trip_us_median", measurement.stats.median_ms * 1e3);
}

INSTANTIATE_TEST_SUITE_P(perf, EventRecordCost, testing::ValuesIn(kStreamChoices), cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(perf, EventRoundTrip, testing::ValuesIn(kStreamChoices), cts::NameFromParam());

}  // namespace
}  // namespace infinicts::rt_cases
