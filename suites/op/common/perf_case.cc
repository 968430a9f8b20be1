#include "common/perf_case.h"

#include <algorithm>
#include <cstring>

#include "common/checks.h"
#include "common/device_call.h"
#include "timing/timing.h"

namespace infinicts::op_cases {
namespace {

// One copy of every present tensor on the device, uploaded from the host tensors.
struct DeviceCopy {
  std::vector<device::DeviceBuffer> buffers;  // one per spec; empty for absent specs
  std::vector<void *> pointers;               // element (0, ..., 0) of each spec; NULL when absent
};

DeviceCopy UploadCopy(device::Device &device, const PreparedCall &call) {
  DeviceCopy copy;
  copy.buffers.resize(call.specs.size());
  copy.pointers.assign(call.specs.size(), nullptr);
  device::ActiveDeviceGuard guard(device.rt(), device.id());
  for (size_t i = 0; i < call.specs.size(); ++i) {
    if (!call.specs[i].present) continue;
    const HostTensor &tensor = call.tensors[i];
    copy.buffers[i] = device.Allocate(std::max<size_t>(tensor.storage_bytes(), 1));
    ThrowIfRtFailed(cts::rt().infinirtMemcpy(copy.buffers[i].data(), tensor.storage(), tensor.storage_bytes(),
                                             INFINIRT_MEMCPY_H2D),
                    "infinirtMemcpy H2D");
    copy.pointers[i] = static_cast<uint8_t *>(copy.buffers[i].data()) + tensor.data_offset_bytes();
  }
  return copy;
}

// The host tensors with the written ones replaced by what the device holds.
std::vector<HostTensor> DownloadOutputs(device::Device &device, const PreparedCall &call, const DeviceCopy &copy) {
  std::vector<HostTensor> got(call.specs.size());
  device::ActiveDeviceGuard guard(device.rt(), device.id());
  for (size_t i = 0; i < call.specs.size(); ++i) {
    if (!call.specs[i].present || !IsWritten(call.specs[i])) continue;
    got[i] = HostTensor(call.tensors[i].dtype(), call.tensors[i].layout());
    ThrowIfRtFailed(cts::rt().infinirtMemcpy(got[i].storage(), copy.buffers[i].data(), got[i].storage_bytes(),
                                             INFINIRT_MEMCPY_D2H),
                    "infinirtMemcpy D2H");
  }
  return got;
}

size_t RotatingCopies(size_t working_set_bytes) {
  if (working_set_bytes >= kRotateBelowBytes) return 1;
  const size_t wanted = (kRotationBytes + working_set_bytes - 1) / std::max<size_t>(working_set_bytes, 1);
  return std::clamp<size_t>(wanted, 1, kMaxRotatingCopies);
}

}  // namespace

void RunPerf(const PerfCall &perf) {
  const PreparedCall &call = perf.call;
  device::Device device(cts::rt(), CaseDevice());
  ReadyDescriptor ready(call);
  MakeReady(call, &ready);
  OP_CHECKPOINT();
  const ScopedOpDescriptor &desc = ready.desc;
  const size_t workspace_bytes = ready.workspace_bytes;
  device::DeviceBuffer workspace;
  if (workspace_bytes > 0) workspace = device.Allocate(workspace_bytes);

  size_t working_set = 0;
  for (const HostTensor &tensor : call.tensors) working_set += tensor.storage_bytes();
  std::vector<DeviceCopy> copies;
  const size_t copy_count = RotatingCopies(working_set);
  for (size_t i = 0; i < copy_count; ++i) copies.push_back(UploadCopy(device, call));
  SyncOnExit sync_on_exit(device);
  const std::unique_ptr<device::Stream> stream = device.CreateStream();

  size_t last_copy = 0;
  const timing::Launch launch = [&](int iteration) {
    last_copy = static_cast<size_t>(iteration) % copies.size();
    return static_cast<int>(
        call.calls.compute(desc.get(), workspace.data(), workspace_bytes, copies[last_copy].pointers, stream->raw()));
  };
  timing::Measurement measurement;
  try {
    measurement = timing::Measure(cts::rt(), stream->raw(), launch, timing::OptionsFromEnvironment());
  } catch (const timing::TimingError &error) {
    if (cts::IsUnsupportedStatus(error.status())) GTEST_SKIP() << cts::kUnsupportedPrefix << error.what();
    OP_FAIL(std::string("timing the compute call failed: ") + error.what() + "\n  problem: " + call.subject + " " +
            call.problem_json);
  }
  measurement.rotating_buffers = static_cast<int>(copies.size());
  ThrowIfRtFailed(cts::rt().infinirtStreamSynchronize(stream->raw()), "infinirtStreamSynchronize");
  timing::RecordMeasurement(measurement);

  const double seconds = measurement.stats.median_ms * 1e-3;
  if (seconds > 0) {
    cts::RecordMetric("gflops", perf.cost.flops / seconds * 1e-9);
    cts::RecordMetric("gbytes_per_s", perf.cost.bytes / seconds * 1e-9);
  }
  cts::RecordMetric("flops", perf.cost.flops);
  cts::RecordMetric("bytes", perf.cost.bytes);
  cts::RecordMetric("arithmetic_intensity_flops_per_byte", perf.cost.bytes > 0 ? perf.cost.flops / perf.cost.bytes : 0);
  cts::RecordMetric("working_set_bytes", static_cast<double>(working_set));
  cts::RecordMetric("workspace_bytes", static_cast<double>(workspace_bytes));

  CheckPerfOutputs(call, DownloadOutputs(device, call, copies[last_copy]), perf.check);
}

}  // namespace infinicts::op_cases

namespace infinicts::op_cases {

void RunTimedPreparedCall(const PreparedCall &call) {
  PerfCall perf;
  perf.call = call;
  perf.cost.flops = call.flops;
  perf.cost.bytes = TensorBytes(call.specs);
  // Prepare computed the oracle's outputs from these very inputs.
  perf.check.full = [expected = call.expected, specs = call.specs](const std::vector<HostTensor> &) {
    std::vector<HostTensor> outputs;
    for (size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].present && IsWritten(specs[i])) outputs.push_back(expected[i]);
    }
    return outputs;
  };
  RunPerf(perf);
}

}  // namespace infinicts::op_cases
