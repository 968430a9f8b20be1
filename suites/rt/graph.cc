// Subject `graph`: stream capture, instantiation and replay (spec section RT-GRAPH, an optional
// part outside both levels). Every replay check runs rt_graph_work.h's order-dependent steps and
// reads their pinned read-back right after the synchronize; the read-back is refilled with the
// complement of the expected bytes before each launch, and the pinned input changes after the
// capture and between launches,
// so a launch that runs nothing, runs the steps out of order, runs once for two launches, or
// reads the input as it was at capture, fails.
#include <memory>
#include <string>
#include <vector>

#include "cts/case.h"
#include "rt_data.h"
#include "rt_graph_work.h"
#include "rt_params.h"
#include "rt_pending.h"
#include "rt_scoped.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;

constexpr size_t kWorkBytes = 4097;

// Whether the backend has graphs at all, asked before the case makes anything: it captures the
// NULL stream, which a backend with graphs refuses (the default stream cannot be captured) and one
// without answers NOT_IMPLEMENTED or DEVICE_TYPE_NOT_SUPPORTED; the case then ends `unsupported`.
#define GRAPH_REQUIRE_GRAPHS()                                                                            \
  do {                                                                                                    \
    const infiniStatus_t graph_probe_ =                                                                   \
        rt().infinirtStreamBeginCapture(nullptr, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL);                    \
    if (graph_probe_ == INFINI_STATUS_SUCCESS) EndCaptureQuietly(nullptr);                                 \
    if (cts::IsUnsupportedStatus(graph_probe_))                                                           \
      GTEST_SKIP() << cts::kUnsupportedPrefix << "the backend has no graphs: infinirtStreamBeginCapture answered " \
                   << StatusName(graph_probe_);                                                           \
  } while (0)

// A created stream for the case, owned by `owner` (the NULL stream cannot be captured), once the
// backend showed it has graphs.
#define GRAPH_CREATE_STREAM(raw, owner)                          \
  GRAPH_REQUIRE_GRAPHS();                                       \
  infinirtStream_t raw = nullptr;                               \
  CTS_ASSERT_OK(rt().infinirtStreamCreate(&raw));               \
  ScopedStream owner(raw);                                      \
  RT_REQUIRE_CREATED_STREAM(raw)

// Captures the work's steps on `stream` into the graph `graph`, owned by `owner`.
#define GRAPH_CAPTURE_STEPS(stream, work, mode, graph, owner)                                               \
  infinirtGraph_t graph = nullptr;                                                                          \
  CTS_CHECK_OK(rt().infinirtStreamBeginCapture(stream, mode));                                              \
  CTS_CHECK_OK((work).EnqueueSteps(stream));                                                                \
  CTS_CHECK_OK(rt().infinirtStreamEndCapture(stream, &graph));                                              \
  ScopedGraph owner(graph);                                                                                 \
  if (graph == nullptr) FAIL() << "RT-GRAPH-1: infinirtStreamEndCapture answered SUCCESS with a NULL graph"

// Captures nothing on `stream`: a backend without graphs ends the case unsupported here, before
// the refusals the case checks (which such a backend would pass by refusing everything).
#define GRAPH_CAPTURE_NOTHING(stream, graph, owner)                                                         \
  infinirtGraph_t graph = nullptr;                                                                          \
  CTS_ASSERT_OK(rt().infinirtStreamBeginCapture(stream, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL));              \
  CTS_ASSERT_OK(rt().infinirtStreamEndCapture(stream, &graph));                                             \
  ScopedGraph owner(graph)

// Instantiates `graph` into the exec `exec`, owned by `owner`.
#define GRAPH_INSTANTIATE(graph, exec, owner)                                                               \
  infinirtGraphExec_t exec = nullptr;                                                                       \
  CTS_CHECK_OK(rt().infinirtGraphInstantiate(&exec, graph, nullptr, nullptr, 0));                           \
  ScopedGraphExec owner(exec);                                                                              \
  if (exec == nullptr) FAIL() << "RT-GRAPH-5: infinirtGraphInstantiate answered SUCCESS with a NULL exec"

class GraphCase : public cts::CaseBase {
 protected:
  // The steps' buffers and a first input.
  void PrepareWork(size_t bytes) {
    rng_ = CaseRng();
    work_.Prepare(rng_, bytes);
    if (HasFatalFailure() || IsSkipped()) return;
    work_.SetInput(RandomBytes(rng_, bytes));
  }
  // A new random input (nothing may be pending on it); the read-back is cleared for the next run.
  void NextInput() {
    work_.SetInput(RandomBytes(rng_, work_.bytes()));
    work_.ClearReadBack();
  }

  std::mt19937_64 rng_;
  GraphWork work_;
};

// Ends a capture a failed check may have left open, and drops its graph.
void EndCaptureQuietly(infinirtStream_t stream) {
  infinirtGraph_t graph = nullptr;
  if (rt().infinirtStreamEndCapture(stream, &graph) == INFINI_STATUS_SUCCESS && graph != nullptr) {
    rt().infinirtGraphDestroy(graph);
  }
}

const char *ModeName(infinirtStreamCaptureMode_t mode) {
  switch (mode) {
    case INFINIRT_STREAM_CAPTURE_MODE_GLOBAL: return "global";
    case INFINIRT_STREAM_CAPTURE_MODE_THREAD_LOCAL: return "thread_local";
    case INFINIRT_STREAM_CAPTURE_MODE_RELAXED: return "relaxed";
  }
  return "mode";
}

struct ModeParam : Param<ModeParam> {
  infinirtStreamCaptureMode_t mode;
  explicit ModeParam(infinirtStreamCaptureMode_t m) : mode(m) {}
  std::string Name() const { return ModeName(mode); }
  std::string Json() const { return nlohmann::json{{"mode", ModeName(mode)}}.dump(); }
};

class CaptureModes : public cts::ParamCase<ModeParam> {
 protected:
  GraphWork work_;
};

CTS_TEST_P(CaptureModes, capture_defers_work, "graph", "RT-GRAPH-1", "RT-GRAPH-2") {
  auto rng = CaseRng();
  GRAPH_CREATE_STREAM(stream, hold_stream);
  work_.Prepare(rng, kWorkBytes);
  if (HasFatalFailure() || IsSkipped()) return;
  constexpr uint8_t kBefore = 0x3c;
  CTS_ASSERT_OK(work_.FillDeviceBuffers(kBefore));
  work_.SetInput(RandomBytes(rng, kWorkBytes));
  work_.ClearReadBack();
  GRAPH_CAPTURE_STEPS(stream, work_, GetParam().mode, graph, hold_graph);
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(stream));
  // Pinned memory first, before a blocking Memcpy that may wait for the device by itself.
  EXPECT_TRUE(work_.ReadBackUntouched()) << "RT-GRAPH-2: captured D2H copies ran at capture";
  EXPECT_TRUE(work_.DeviceBufferAIs(std::vector<uint8_t>(kWorkBytes, kBefore)))
      << "RT-GRAPH-2: captured copies and fills ran at capture";
}

struct BytesParam : Param<BytesParam> {
  size_t bytes;
  explicit BytesParam(size_t b) : bytes(b) {}
  std::string Name() const { return SizeName(bytes); }
  std::string Json() const { return nlohmann::json{{"bytes", bytes}}.dump(); }
};

class GraphReplay : public cts::ParamCase<BytesParam> {
 protected:
  GraphWork work_;
};

CTS_TEST_P(GraphReplay, replay_matches_eager, "graph", "RT-GRAPH-5", "RT-GRAPH-6") {
  auto rng = CaseRng();
  const size_t bytes = GetParam().bytes;
  GRAPH_CREATE_STREAM(stream, hold_stream);
  work_.Prepare(rng, bytes);
  if (HasFatalFailure() || IsSkipped()) return;
  work_.SetInput(RandomBytes(rng, bytes));
  work_.ClearReadBack();
  CTS_ASSERT_OK(work_.EnqueueSteps(stream));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(stream));
  ASSERT_TRUE(work_.ReadBackMatches()) << "the steps run eagerly (the model is wrong, or RT-STREAM-4 fails)";

  GRAPH_CAPTURE_STEPS(stream, work_, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL, graph, hold_graph);
  GRAPH_INSTANTIATE(graph, exec, hold_exec);
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(stream));
  work_.ClearReadBack();  // after the capture: only the launch may write it
  CTS_CHECK_OK(rt().infinirtGraphLuanch(exec, stream));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(stream));
  EXPECT_TRUE(work_.ReadBackMatches()) << "RT-GRAPH-6: the launched graph, read right after StreamSynchronize";
}

CTS_TEST_F(GraphCase, launch_twice_rereads_inputs, "conformance", "graph", "RT-GRAPH-6") {
  GRAPH_CREATE_STREAM(stream, hold_stream);
  PrepareWork(kWorkBytes);
  if (HasFatalFailure() || IsSkipped()) return;
  GRAPH_CAPTURE_STEPS(stream, work_, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL, graph, hold_graph);
  GRAPH_INSTANTIATE(graph, exec, hold_exec);
  // Nothing may still read the input when the host changes it (a capture that ran its work).
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(stream));
  for (int launch = 1; launch <= 3; ++launch) {
    SCOPED_TRACE("launch " + std::to_string(launch) + ", each on an input set after the capture");
    NextInput();
    CTS_CHECK_OK(rt().infinirtGraphLuanch(exec, stream));
    CTS_ASSERT_OK(rt().infinirtStreamSynchronize(stream));
    ASSERT_TRUE(work_.ReadBackMatches()) << "RT-GRAPH-6: read right after StreamSynchronize";
  }
}

CTS_TEST_F(GraphCase, launch_on_other_stream, "conformance", "graph", "RT-GRAPH-6", "RT-GRAPH-7") {
  GRAPH_CREATE_STREAM(captured_on, hold_captured_on);
  GRAPH_CREATE_STREAM(launched_on, hold_launched_on);
  CTS_REQUIRE_DISTINCT_STREAMS(captured_on, launched_on);
  PrepareWork(kWorkBytes);
  if (HasFatalFailure() || IsSkipped()) return;
  PendingWork behind;
  behind.Prepare(kLargeBytes / 4);
  if (HasFatalFailure() || IsSkipped()) return;
  GRAPH_CAPTURE_STEPS(captured_on, work_, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL, graph, hold_graph);
  GRAPH_INSTANTIATE(graph, exec, hold_exec);
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(captured_on));  // nothing may still read the input
  // A new input the launch must read; before the launch on its stream, long work; after it, a
  // fill of a that the launch must not see and must not undo.
  NextInput();
  CTS_ASSERT_OK(behind.Enqueue(launched_on, 4));
  CTS_CHECK_OK(rt().infinirtGraphLuanch(exec, launched_on));
  constexpr uint8_t kAfter = 0xc3;
  CTS_ASSERT_OK(rt().infinirtMemsetAsync(work_.device_a(), kAfter, kWorkBytes, launched_on));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(launched_on));
  EXPECT_TRUE(work_.ReadBackMatches()) << "RT-GRAPH-6/7: launched on another stream of the device";
  EXPECT_TRUE(work_.DeviceBufferAIs(std::vector<uint8_t>(kWorkBytes, kAfter)))
      << "RT-GRAPH-6: the fill enqueued after the launch must come after it";
}

CTS_TEST_F(GraphCase, exec_outlives_graph_and_pending_destroy, "conformance", "graph", "RT-GRAPH-8", "RT-GRAPH-9") {
  GRAPH_CREATE_STREAM(stream, hold_stream);
  PrepareWork(kWorkBytes);
  if (HasFatalFailure() || IsSkipped()) return;
  PendingWork behind;
  behind.Prepare(kLargeBytes / 4);
  if (HasFatalFailure() || IsSkipped()) return;
  GRAPH_CAPTURE_STEPS(stream, work_, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL, graph, hold_graph);
  GRAPH_INSTANTIATE(graph, exec, hold_exec);
  CTS_CHECK_OK(rt().infinirtGraphDestroy(hold_graph.Release()));
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(stream));  // nothing may still read the input
  NextInput();
  CTS_ASSERT_OK(behind.Enqueue(stream, 4));
  CTS_CHECK_OK(rt().infinirtGraphLuanch(exec, stream));
  CTS_CHECK_OK(rt().infinirtGraphExecDestroy(hold_exec.Release()));  // the launch is still pending
  CTS_ASSERT_OK(rt().infinirtStreamSynchronize(stream));
  EXPECT_TRUE(work_.ReadBackMatches()) << "RT-GRAPH-8/9: an exec whose graph was destroyed, destroyed itself "
                                          "while its launch was pending";
}

CTS_PROBE_F(GraphCase, begin_capture_bad_mode, "conformance", "graph", "RT-GRAPH-3") {
  GRAPH_CREATE_STREAM(stream, hold_stream);
  for (int mode : {3, -1, 0x7fffffff}) {
    SCOPED_TRACE("mode " + std::to_string(mode));
    const int status = cts::ProbeInvalidInput("infinirtStreamBeginCapture(stream, mode)", [&] {
      return rt().infinirtStreamBeginCapture(stream, static_cast<infinirtStreamCaptureMode_t>(mode));
    });
    if (status == INFINI_STATUS_SUCCESS) EndCaptureQuietly(stream);
    CTS_ASSERT_STATUS_AS(status, "infinirtStreamBeginCapture(stream, mode)", INFINI_STATUS_BAD_PARAM);
  }
}

CTS_PROBE_F(GraphCase, end_capture_refusals, "conformance", "graph", "RT-GRAPH-4") {
  GRAPH_CREATE_STREAM(stream, hold_stream);
  CTS_ASSERT_OK(rt().infinirtStreamBeginCapture(stream, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL));
  const int null_graph = cts::ProbeInvalidInput("infinirtStreamEndCapture(stream, NULL)",
                                                [&] { return rt().infinirtStreamEndCapture(stream, nullptr); });
  EndCaptureQuietly(stream);  // whether or not the NULL call ended it
  CTS_ASSERT_STATUS_AS(null_graph, "infinirtStreamEndCapture(stream, NULL)", INFINI_STATUS_NULL_POINTER);
  infinirtGraph_t graph = nullptr;
  const infiniStatus_t not_capturing = rt().infinirtStreamEndCapture(stream, &graph);
  if (not_capturing == INFINI_STATUS_SUCCESS && graph != nullptr) rt().infinirtGraphDestroy(graph);
  EXPECT_NE(not_capturing, INFINI_STATUS_SUCCESS)
      << "RT-GRAPH-4: infinirtStreamEndCapture on a stream that is not capturing answered SUCCESS";
}

CTS_PROBE_F(GraphCase, instantiate_null_exec, "conformance", "graph", "RT-GRAPH-5") {
  GRAPH_CREATE_STREAM(stream, hold_stream);
  GRAPH_CAPTURE_NOTHING(stream, graph, hold_graph);
  CTS_ASSERT_STATUS(rt().infinirtGraphInstantiate(nullptr, graph, nullptr, nullptr, 0), INFINI_STATUS_NULL_POINTER);
}

CTS_PROBE_F(GraphCase, launch_null_exec, "conformance", "graph", "RT-GRAPH-10") {
  GRAPH_CREATE_STREAM(stream, hold_stream);
  GRAPH_CAPTURE_NOTHING(stream, graph, hold_graph);
  CTS_ASSERT_ERROR(rt().infinirtGraphLuanch(nullptr, stream));
}

CTS_TEST_F(GraphCase, synchronize_while_capturing_refused, "conformance", "graph", "RT-GRAPH-11") {
  GRAPH_CREATE_STREAM(stream, hold_stream);
  void *device = nullptr;
  RT_ASSERT_ALLOCATED(rt().infinirtMalloc(&device, kWorkBytes), device, kWorkBytes);
  ScopedDeviceMemory hold_device(device);
  CTS_ASSERT_OK(rt().infinirtStreamBeginCapture(stream, INFINIRT_STREAM_CAPTURE_MODE_GLOBAL));
  const infiniStatus_t fill = rt().infinirtMemsetAsync(device, 0x11, kWorkBytes, stream);
  const infiniStatus_t synchronized = rt().infinirtStreamSynchronize(stream);
  EndCaptureQuietly(stream);
  CTS_ASSERT_OK_AS(fill, "infinirtMemsetAsync while capturing", false);
  EXPECT_NE(synchronized, INFINI_STATUS_SUCCESS)
      << "RT-GRAPH-11: infinirtStreamSynchronize on a capturing stream answered SUCCESS";
}

INSTANTIATE_TEST_SUITE_P(conformance, CaptureModes,
                         testing::Values(ModeParam(INFINIRT_STREAM_CAPTURE_MODE_GLOBAL),
                                         ModeParam(INFINIRT_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                                         ModeParam(INFINIRT_STREAM_CAPTURE_MODE_RELAXED)),
                         cts::NameFromParam());
INSTANTIATE_TEST_SUITE_P(conformance, GraphReplay,
                         testing::Values(BytesParam(kWorkBytes), BytesParam((size_t{1} << 20) + 3)),
                         cts::NameFromParam());

}  // namespace
}  // namespace infinicts::rt_cases
