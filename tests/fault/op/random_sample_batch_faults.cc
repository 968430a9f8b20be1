// Faults of RandomSampleBatch's per-row parameter arrays:
// - random_sample_batch_row_0_parameters: every row drawn under row 0's random_val, topp,
//   topk and temperature, as a kernel that reads the arrays without the row index does;
// - random_sample_batch_reads_arrays_late: the arrays read when the stream reaches the work,
//   not at the call, as a kernel that keeps the caller's host pointers does. The real call
//   runs first (it answers the status); then, in stream order on a created stream, a host
//   step reads the arrays as they are by then and redraws every row with them (the real
//   operator on the device's default stream, waited for, while the created stream waits).
//   It reaches the work a few milliseconds after the call returns, as a busy device would.
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "op/op_faults.h"
#include "op/target_runtime.h"

namespace infinicts::fault {
namespace {

struct RowParameters {
  std::vector<float> random_val, topp, temperature;
  std::vector<int> topk;
};

RowParameters Copy(const float *random_val, const float *topp, const int *topk, const float *temperature,
                   int batch_size, size_t from_row_of_each) {
  RowParameters p;
  for (int row = 0; row < batch_size; ++row) {
    const size_t source = from_row_of_each == SIZE_MAX ? static_cast<size_t>(row) : from_row_of_each;
    p.random_val.push_back(random_val[source]), p.topp.push_back(topp[source]);
    p.topk.push_back(topk[source]), p.temperature.push_back(temperature[source]);
  }
  return p;
}

bool Usable(const float *random_val, const float *topp, const int *topk, const float *temperature, int batch_size) {
  return random_val != nullptr && topp != nullptr && topk != nullptr && temperature != nullptr && batch_size > 0;
}

infiniStatus_t RandomSampleBatchWithRow0Parameters(infiniopRandomSampleBatchDescriptor_t desc, void *workspace,
                                                   size_t workspace_size, void *result, const void *probs,
                                                   const float *random_val, const float *topp, const int *topk,
                                                   const float *temperature, int batch_size, void *stream) {
  if (!Usable(random_val, topp, topk, temperature, batch_size)) {
    return TargetOp().infiniopRandomSampleBatch(desc, workspace, workspace_size, result, probs, random_val, topp, topk,
                                                temperature, batch_size, stream);
  }
  const RowParameters p = Copy(random_val, topp, topk, temperature, batch_size, 0);
  return TargetOp().infiniopRandomSampleBatch(desc, workspace, workspace_size, result, probs, p.random_val.data(),
                                              p.topp.data(), p.topk.data(), p.temperature.data(), batch_size, stream);
}

constexpr auto kDeviceLag = std::chrono::milliseconds(20);

struct LateDraw {
  InfiniopDescriptor *desc;
  void *workspace;
  size_t workspace_size;
  void *result;
  const void *probs;
  const float *random_val, *topp, *temperature;
  const int *topk;
  int batch_size;
};

void RedrawWithArraysAsTheyAreNow(void *arg) {
  std::unique_ptr<LateDraw> late(static_cast<LateDraw *>(arg));
  std::this_thread::sleep_for(kDeviceLag);
  const RowParameters p = Copy(late->random_val, late->topp, late->topk, late->temperature, late->batch_size, SIZE_MAX);
  const infiniStatus_t status = TargetOp().infiniopRandomSampleBatch(
      late->desc, late->workspace, late->workspace_size, late->result, late->probs, p.random_val.data(), p.topp.data(),
      p.topk.data(), p.temperature.data(), late->batch_size, nullptr);
  if (status == INFINI_STATUS_SUCCESS) WaitForStream(nullptr);
}

infiniStatus_t RandomSampleBatchReadingArraysLate(infiniopRandomSampleBatchDescriptor_t desc, void *workspace,
                                                  size_t workspace_size, void *result, const void *probs,
                                                  const float *random_val, const float *topp, const int *topk,
                                                  const float *temperature, int batch_size, void *stream) {
  const infiniStatus_t status = TargetOp().infiniopRandomSampleBatch(
      desc, workspace, workspace_size, result, probs, random_val, topp, topk, temperature, batch_size, stream);
  // The NULL stream is where the redraw itself runs: calls on it are left alone.
  if (status != INFINI_STATUS_SUCCESS || stream == nullptr || RealRuntime().StreamEnqueue == nullptr ||
      !Usable(random_val, topp, topk, temperature, batch_size)) {
    return status;
  }
  auto *late = new LateDraw{desc, workspace, workspace_size, result, probs, random_val, topp, temperature, topk,
                            batch_size};
  if (RealRuntime().StreamEnqueue(stream, &RedrawWithArraysAsTheyAreNow, late) != INFINI_STATUS_SUCCESS) delete late;
  return status;
}

}  // namespace

void InstallRandomSampleBatchRow0Parameters(OpTable &calls) {
  calls.infiniopRandomSampleBatch = &RandomSampleBatchWithRow0Parameters;
}
INFINICTS_FAULT(OpTable, "random_sample_batch_row_0_parameters",
                "RandomSampleBatch draws every row under row 0's random_val, topp, topk and temperature",
                InstallRandomSampleBatchRow0Parameters);

void InstallRandomSampleBatchReadsArraysLate(OpTable &calls) {
  calls.infiniopRandomSampleBatch = &RandomSampleBatchReadingArraysLate;
}
INFINICTS_FAULT(OpTable, "random_sample_batch_reads_arrays_late",
                "RandomSampleBatch reads its parameter arrays when the stream reaches the work, not at the call",
                InstallRandomSampleBatchReadsArraysLate);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// RandomSampleBatch under row 0's parameters: every batch whose rows' parameters differ (their
// data is redrawn until some row's answer changes under row 0's), in every mode that checks results.
// fault-detection: random_sample_batch_row_0_parameters SUITE op TIMEOUT 30 FILTER op.random_sample_batch.* ONLY
// fault-detection:   EXPECT
// fault-detection:   op.random_sample_batch.accuracy/matches_oracle/*/two_draws/*
// fault-detection:   op.random_sample_batch.accuracy/matches_oracle/*/every_draw/*
// fault-detection:   op.random_sample_batch.accuracy/matches_oracle/*/mixed/*
// fault-detection:   op.random_sample_batch.accuracy/matches_oracle/*/topk_2000_and_past_n/*
// fault-detection:   op.random_sample_batch.conformance/stream_order/*
// fault-detection:   op.random_sample_batch.conformance/null_stream/*
// fault-detection:   op.random_sample_batch.conformance/reuse/*
// fault-detection:   op.random_sample_batch.conformance/two_streams/*
// fault-detection:   op.random_sample_batch.conformance/released_early/*
// fault-detection:   op.random_sample_batch.conformance/destroy_after_compute/*
// fault-detection:   op.random_sample_batch.conformance/workspace/*
// Its arrays read when the stream reaches the work: only the cases that rewrite them once compute
// returns (OP-RANDOMSAMPLEBATCH-5).
// fault-detection: random_sample_batch_reads_arrays_late SUITE op TIMEOUT 30 FILTER op.random_sample_batch.* ONLY
// fault-detection:   EXPECT op.random_sample_batch.accuracy/matches_oracle/*/arrays_rewritten
