// The timing library on a real backend: the CPU reference runtime of this build tree,
// loaded as the harness loads any backend.
#include <gtest/gtest.h>

#include "backend/backend.h"
#include "timing/timing.h"

namespace infinicts::timing {
namespace {

TEST(CpuReference, TimesADeviceToDeviceCopyWithEvents) {
  std::string error;
  std::unique_ptr<Backend> backend = Backend::Load({INFINICTS_TEST_INFINIRT}, &error);
  ASSERT_NE(backend, nullptr) << error;
  const RtApi &rt = backend->rt();
  ASSERT_EQ(rt.infinirtInit(), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(rt.infinirtSetDevice(INFINI_DEVICE_CPU, 0), INFINI_STATUS_SUCCESS);
  infinirtStream_t stream = nullptr;
  ASSERT_EQ(rt.infinirtStreamCreate(&stream), INFINI_STATUS_SUCCESS);
  constexpr size_t kBytes = 1 << 20;
  void *source = nullptr, *destination = nullptr;
  ASSERT_EQ(rt.infinirtMalloc(&source, kBytes), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(rt.infinirtMalloc(&destination, kBytes), INFINI_STATUS_SUCCESS);
  ASSERT_EQ(rt.infinirtMemset(source, 7, kBytes), INFINI_STATUS_SUCCESS);

  Options options;
  options.budget_ms = 20;
  options.warmup_ms = 5;
  options.max_iterations = 200;
  const Measurement m = Measure(
      rt, stream,
      [&](int) { return rt.infinirtMemcpyAsync(destination, source, kBytes, INFINIRT_MEMCPY_D2D, stream); }, options);
  EXPECT_EQ(m.method, Method::kDeviceEvents);
  EXPECT_GE(m.samples_ms.size(), static_cast<size_t>(options.min_iterations));
  for (double sample : m.samples_ms) EXPECT_GT(sample, 0);
  EXPECT_GT(m.stats.median_ms, 0);
  EXPECT_EQ(m.ToJson().at("method"), "device_events");

  Options cold = options;
  cold.cold_cache = true;
  cold.flush_bytes = 8 << 20;
  const Measurement cold_m = Measure(
      rt, stream,
      [&](int) { return rt.infinirtMemcpyAsync(destination, source, kBytes, INFINIRT_MEMCPY_D2D, stream); }, cold);
  EXPECT_TRUE(cold_m.cold_cache);
  for (double sample : cold_m.samples_ms) EXPECT_GT(sample, 0);
  std::printf("1 MiB D2D copy on the CPU reference: median %.4f ms (p10 %.4f, p90 %.4f; %d warm-up runs, %zu samples); "
              "cold cache: median %.4f ms (%d warm-up runs, %zu samples)\n",
              m.stats.median_ms, m.stats.p10_ms, m.stats.p90_ms, m.warmup_iterations, m.samples_ms.size(),
              cold_m.stats.median_ms, cold_m.warmup_iterations, cold_m.samples_ms.size());

  EXPECT_EQ(rt.infinirtFree(source), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(rt.infinirtFree(destination), INFINI_STATUS_SUCCESS);
  EXPECT_EQ(rt.infinirtStreamDestroy(stream), INFINI_STATUS_SUCCESS);
}

}  // namespace
}  // namespace infinicts::timing
