#include "common/checks.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "common/device_call.h"
#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

// Waits for the operator's work and the read-back behind it. A failure here is the case's own:
// the work the stream waits for is the operator's (a device's asynchronous errors surface here).
void Synchronize(infinirtStream_t stream) {
  const infiniStatus_t status = cts::rt().infinirtStreamSynchronize(stream);
  if (status == INFINI_STATUS_SUCCESS) return;
  if (cts::IsUnsupportedStatus(status)) GTEST_SKIP() << cts::kUnsupportedPrefix << "infinirtStreamSynchronize answered " << StatusName(status);
  OP_FAIL("OP-STREAM-1: infinirtStreamSynchronize after the compute call answered " + StatusName(status) +
          ", expected INFINI_STATUS_SUCCESS");
}

// The tensors whose layout is a view a backend may refuse (docs/spec/op.md "Layouts"): "x
// transposed, y broadcast", and the capability that names their kinds ("layout transposed").
struct RefusableLayouts {
  std::string tensors;
  std::string capability;
};

RefusableLayouts RefusableLayoutsOf(const std::vector<TensorSpec> &specs) {
  RefusableLayouts found;
  std::vector<std::string> kinds;
  for (const TensorSpec &spec : specs) {
    if (!spec.present || !spec.described || IsServingLayout(spec.layout)) continue;
    const std::string kind = LayoutClass(spec.layout);
    found.tensors += (found.tensors.empty() ? "" : ", ") + spec.name + " " + kind;
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
  }
  std::sort(kinds.begin(), kinds.end());
  for (const std::string &kind : kinds) found.capability += (found.capability.empty() ? "layout " : "+") + kind;
  return found;
}

std::string DtypesText(const std::vector<TensorSpec> &specs) {
  std::string text;
  for (const TensorSpec &spec : specs) {
    if (!spec.present) continue;
    text += (text.empty() ? "" : ", ") + spec.name + " " + DtypeName(spec.dtype);
  }
  return text;
}

// A device buffer of `bytes` (none for 0) and the pointer to pass for it.
struct Workspace {
  device::DeviceBuffer buffer;
  size_t size = 0;
  void *data() const { return buffer.data(); }
};

Workspace AllocateWorkspace(device::Device &device, size_t bytes) {
  Workspace workspace;
  workspace.size = bytes;
  if (bytes > 0) workspace.buffer = device.Allocate(bytes);
  return workspace;
}

}  // namespace

void Guarded(const std::function<void()> &body) {
  try {
    body();
  } catch (const device::DeviceError &error) {
    CTS_END_FOR_CALL(error.call(), error.status(), error.what());
  } catch (const std::exception &error) {
    OP_FAIL(std::string("op suite error (not the backend's): ") + error.what());
  }
}

device::DeviceId CaseDevice() { return device::DeviceId{cts::device_type(), cts::device_ids().front()}; }

void CreateDescriptor(const PreparedCall &call, infiniopHandle_t handle, const TensorDescriptors &tensors,
                      ScopedOpDescriptor &desc) {
  const infiniStatus_t status = call.calls.create(handle, desc.out(), tensors);
  if (cts::IsUnsupportedStatus(status)) {
    GTEST_SKIP() << cts::kUnsupportedPrefix << "the create call answered " << StatusName(status);
  }
  if (status == INFINI_STATUS_BAD_TENSOR_DTYPE) {
    GTEST_SKIP() << cts::kUnsupportedPrefix << "the create call refuses the dtypes " << DtypesText(call.specs)
                 << " (BAD_TENSOR_DTYPE), which the spec admits (OP-DESC-15); the dtype_probe cases list what it accepts";
  }
  if (status == INFINI_STATUS_BAD_TENSOR_STRIDES || status == INFINI_STATUS_BAD_TENSOR_SHAPE) {
    // A clean refusal of a view beyond the serving ones is a missing capability, not a wrong answer.
    if (const RefusableLayouts refused = RefusableLayoutsOf(call.specs); !refused.tensors.empty()) {
      cts::NoteOptionalCapability(refused.capability);
      GTEST_SKIP() << cts::kUnsupportedPrefix << "the create call refuses the layout " << refused.tensors << " ("
                   << StatusName(status) << "), a view beyond the contiguous, offset and padded ones every backend "
                   << "must accept (OP-LAYOUT-3)";
    }
  }
  if (status != INFINI_STATUS_SUCCESS) {
    OP_FAIL("the create call answered " + StatusName(status) + ", expected INFINI_STATUS_SUCCESS\n  problem: " +
            call.subject + " " + call.problem_json);
  }
  if (desc.get() == nullptr) OP_FAIL("the create call answered SUCCESS with a NULL descriptor");
}

SyncOnExit::~SyncOnExit() {
  try {
    device_.Synchronize();
  } catch (const std::exception &) {
    // The case that left the work has already failed; nothing more to say here.
  }
}

void MakeReady(const PreparedCall &call, ReadyDescriptor *ready, WorkspaceQuery workspace) {
  CTS_ASSERT_OK(ready->handle.Create());
  CTS_ASSERT_OK(ready->tensors.Create(call.specs));
  CreateDescriptor(call, ready->handle.get(), ready->tensors.get(), ready->desc);
  OP_CHECKPOINT();
  if (workspace == WorkspaceQuery::kAsked) QueryWorkspace(call, ready->desc.get(), &ready->workspace_bytes);
}

void RequireHoldableWorkspace(const PreparedCall &call, size_t size) {
  // No device holds this much; a size past it is an unsigned sum gone negative, and would
  // wrap the sums made of it (the size plus a margin).
  constexpr size_t kNoDeviceHolds = size_t{1} << 48;
  size_t free_bytes = 0, total_bytes = 0;
  const bool known = cts::rt().infinirtGetMemInfo(cts::device_type(), cts::device_ids().front(), &free_bytes,
                                                  &total_bytes) == INFINI_STATUS_SUCCESS &&
                     total_bytes > 0 && total_bytes < kNoDeviceHolds;
  const size_t limit = known ? total_bytes : kNoDeviceHolds;
  if (size <= limit) return;
  OP_FAIL("OP-WS-1: " + call.subject + "'s workspace query answered " + std::to_string(size) + " bytes, more than " +
          (known ? "the device's whole memory (" + std::to_string(total_bytes) + " bytes)" : std::string("any device holds")) +
          ": no workspace of that size can be allocated, so it is not a size that suffices");
}

void QueryWorkspace(const PreparedCall &call, OpDescriptor desc, size_t *size) {
  *size = 0;
  if (!call.calls.workspace_size) return;
  CTS_ASSERT_OK(call.calls.workspace_size(desc, size));
  RequireHoldableWorkspace(call, *size);
}

void RunAndVerify(const PreparedCall &call, const RunOptions &options) {
  device::Device device(cts::rt(), CaseDevice());
  ReadyDescriptor ready(call);
  MakeReady(call, &ready, WorkspaceQuery::kNotAsked);
  OP_CHECKPOINT();
  ScopedOpDescriptor &desc = ready.desc;
  if (options.release_early) {
    CTS_ASSERT_OK(ready.tensors.Destroy());
    CTS_ASSERT_OK(ready.handle.Destroy());
  }
  size_t needed = 0;
  QueryWorkspace(call, desc.get(), &needed);
  OP_CHECKPOINT();
  const Workspace workspace = AllocateWorkspace(device, needed + options.workspace_extra);
  DeviceCall on_device(device, call, options.aliases);
  SyncOnExit sync_on_exit(device);
  std::unique_ptr<device::Stream> stream = options.null_stream ? nullptr : device.CreateStream();
  infinirtStream_t raw = stream ? stream->raw() : nullptr;

  if (options.stale != nullptr) {
    on_device.UploadFrom(*options.stale);
    on_device.UploadAsync(raw);
  } else {
    on_device.Upload();
  }
  CTS_ASSERT_OK(call.calls.compute(desc.get(), workspace.data(), workspace.size, on_device.Pointers(), raw));
  if (options.destroy_after_compute) CTS_ASSERT_OK(desc.Destroy());
  on_device.DownloadAsync(raw);
  Synchronize(raw);
  OP_CHECKPOINT();
  if (options.against) {
    on_device.VerifyAgainst();
  } else {
    on_device.Verify();
  }
  cts::RecordMetric("flop_count", call.flops);
  cts::RecordMetric("byte_count", call.bytes);
  cts::RecordMetric("workspace_bytes", static_cast<double>(needed));
}

void RunStepAndVerify(std::vector<PreparedCall> &calls, const std::vector<StepLink> &links,
                      const std::function<void(const StepOutputs &back, std::vector<PreparedCall> &calls)> &settle) {
  device::Device device(cts::rt(), CaseDevice());
  std::vector<std::unique_ptr<ReadyDescriptor>> ready;
  std::vector<Workspace> workspaces;
  std::vector<std::unique_ptr<DeviceCall>> on_device;
  for (const PreparedCall &call : calls) {
    ready.push_back(std::make_unique<ReadyDescriptor>(call));
    MakeReady(call, ready.back().get(), WorkspaceQuery::kNotAsked);
    OP_CHECKPOINT();
    size_t needed = 0;
    QueryWorkspace(call, ready.back()->desc.get(), &needed);
    OP_CHECKPOINT();
    workspaces.push_back(AllocateWorkspace(device, needed));
    on_device.push_back(std::make_unique<DeviceCall>(device, call));
    on_device.back()->Upload();
  }
  SyncOnExit sync_on_exit(device);
  std::unique_ptr<device::Stream> stream = device.CreateStream();
  for (size_t i = 0; i < calls.size(); ++i) {
    std::vector<void *> data = on_device[i]->Pointers();
    for (const StepLink &link : links) {
      if (link.call != i) continue;
      if (link.from_call >= i) throw std::logic_error("a step's link must come from an earlier call");
      data.at(link.spec) = on_device[link.from_call]->Pointers().at(link.from_spec);
    }
    CTS_ASSERT_OK(calls[i].calls.compute(ready[i]->desc.get(), workspaces[i].data(), workspaces[i].size, data,
                                         stream->raw()));
  }
  for (auto &call : on_device) call->DownloadAsync(stream->raw());
  Synchronize(stream->raw());
  OP_CHECKPOINT();
  StepOutputs back;
  for (const auto &call : on_device) back.push_back(call->Back());
  settle(back, calls);
  double flops = 0.0, bytes = 0.0;
  for (size_t i = 0; i < calls.size(); ++i) {
    on_device[i]->Verify();
    flops += calls[i].flops;
    bytes += calls[i].bytes;
  }
  cts::RecordMetric("flop_count", flops);
  cts::RecordMetric("byte_count", bytes);
}

void CheckAgainstFloatModel(const std::string &clause, size_t columns, const std::vector<double> &got,
                            const std::vector<double> &exact, const std::vector<double> &bound,
                            const Tolerance &tolerance) {
  double worst = 0.0;
  std::string first_miss;
  for (size_t i = 0; i < got.size(); ++i) {
    const double allowed = bound[i] + tolerance.atol + tolerance.rtol * std::fabs(exact[i]);
    const double used = std::fabs(got[i] - exact[i]) / allowed;
    if (!(used <= 1.0) && first_miss.empty()) {
      first_miss = "out[" + std::to_string(i / columns) + ", " + std::to_string(i % columns) + "] = " +
                   std::to_string(got[i]) + " where the float layer gives " + std::to_string(exact[i]) +
                   ", beyond its quantisation bound " + std::to_string(allowed);
    }
    worst = std::max(worst, std::isnan(used) ? INFINITY : used);
  }
  cts::RecordMetric("quantisation_error_of_bound", worst);
  if (!first_miss.empty()) OP_ADD_FAILURE(clause + ": " + first_miss);
}

void CheckCreateNullPointers(const PreparedCall &call) {
  ScopedHandle handle;
  CTS_ASSERT_OK(handle.Create());
  ScopedTensorDescriptors tensors;
  CTS_ASSERT_OK(tensors.Create(call.specs));
  {
    ScopedOpDescriptor valid(call.calls.destroy);  // the call itself works with these arguments
    CreateDescriptor(call, handle.get(), tensors.get(), valid);
    OP_CHECKPOINT();
  }
  {
    ScopedOpDescriptor desc(call.calls.destroy);
    CTS_ASSERT_STATUS(call.calls.create(nullptr, desc.out(), tensors.get()), INFINI_STATUS_NULL_POINTER);
  }
  CTS_ASSERT_STATUS(call.calls.create(handle.get(), nullptr, tensors.get()), INFINI_STATUS_NULL_POINTER);
  size_t described = 0;  // the spec's place among the create call's descriptors
  for (size_t i = 0; i < call.specs.size(); ++i) {
    if (!call.specs[i].described) continue;
    const size_t place = described++;
    if (!call.specs[i].present || call.specs[i].optional) continue;
    SCOPED_TRACE("tensor descriptor " + call.specs[i].name + " NULL");
    TensorDescriptors without = tensors.get();
    without[place] = nullptr;
    ScopedOpDescriptor desc(call.calls.destroy);
    CTS_ASSERT_STATUS(call.calls.create(handle.get(), desc.out(), without), INFINI_STATUS_NULL_POINTER);
  }
}

void CheckComputeNullPointers(const PreparedCall &call) {
  device::Device device(cts::rt(), CaseDevice());
  ReadyDescriptor ready(call);
  MakeReady(call, &ready);
  OP_CHECKPOINT();
  const ScopedOpDescriptor &desc = ready.desc;
  const Workspace workspace = AllocateWorkspace(device, ready.workspace_bytes);
  DeviceCall on_device(device, call);
  SyncOnExit sync_on_exit(device);
  const std::unique_ptr<device::Stream> stream = device.CreateStream();
  on_device.Upload();
  const std::vector<void *> pointers = on_device.Pointers();

  CTS_ASSERT_STATUS(call.calls.compute(nullptr, workspace.data(), workspace.size, pointers, stream->raw()),
                    INFINI_STATUS_NULL_POINTER);
  for (size_t i = 0; i < call.specs.size(); ++i) {
    if (!call.specs[i].present || NumElements(call.specs[i].layout.shape) == 0) continue;
    SCOPED_TRACE("data pointer " + call.specs[i].name + " NULL");
    std::vector<void *> without = pointers;
    without[i] = nullptr;
    CTS_ASSERT_STATUS(call.calls.compute(desc.get(), workspace.data(), workspace.size, without, stream->raw()),
                      INFINI_STATUS_NULL_POINTER);
  }
  on_device.DownloadAsync(stream->raw());
  Synchronize(stream->raw());
  OP_CHECKPOINT();
  on_device.VerifyUnchanged("a compute call refused with NULL_POINTER");
}

void CheckWorkspace(const PreparedCall &call) {
  if (!call.calls.workspace_size) throw std::logic_error(call.subject + " has no workspace functions");
  device::Device device(cts::rt(), CaseDevice());
  ReadyDescriptor ready(call);
  MakeReady(call, &ready, WorkspaceQuery::kNotAsked);
  OP_CHECKPOINT();
  const ScopedOpDescriptor &desc = ready.desc;
  size_t needed = 0;
  CTS_CHECK_OK(call.calls.workspace_size(desc.get(), &needed));
  cts::RecordMetric("workspace_bytes", static_cast<double>(needed));
  RequireHoldableWorkspace(call, needed);
  OP_CHECKPOINT();

  DeviceCall on_device(device, call);
  SyncOnExit sync_on_exit(device);
  const std::unique_ptr<device::Stream> stream = device.CreateStream();
  on_device.Upload();
  // More than asked for is fine; with nothing asked for, NULL and 0 are.
  const size_t extra = needed > 0 ? 4099 : 0;
  const Workspace workspace = AllocateWorkspace(device, needed + extra);
  CTS_CHECK_OK(call.calls.compute(desc.get(), workspace.data(), workspace.size, on_device.Pointers(), stream->raw()));
  on_device.DownloadAsync(stream->raw());
  Synchronize(stream->raw());
  OP_CHECKPOINT();
  on_device.Verify();
}

void CheckWorkspaceRefusals(const PreparedCall &call) {
  if (!call.calls.workspace_size) throw std::logic_error(call.subject + " has no workspace functions");
  device::Device device(cts::rt(), CaseDevice());
  ReadyDescriptor ready(call);
  MakeReady(call, &ready, WorkspaceQuery::kNotAsked);
  OP_CHECKPOINT();
  const ScopedOpDescriptor &desc = ready.desc;
  size_t size = 0;
  CTS_ASSERT_STATUS(call.calls.workspace_size(nullptr, &size), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(call.calls.workspace_size(desc.get(), nullptr), INFINI_STATUS_NULL_POINTER);
  size_t needed = 0;
  CTS_ASSERT_OK(call.calls.workspace_size(desc.get(), &needed));
  cts::RecordMetric("workspace_bytes", static_cast<double>(needed));
  RequireHoldableWorkspace(call, needed);
  OP_CHECKPOINT();
  if (needed == 0) return;  // nothing to be short of

  DeviceCall on_device(device, call);
  SyncOnExit sync_on_exit(device);
  const std::unique_ptr<device::Stream> stream = device.CreateStream();
  on_device.Upload();
  const std::vector<void *> pointers = on_device.Pointers();
  {
    const Workspace short_by_one = AllocateWorkspace(device, needed - 1);
    CTS_ASSERT_STATUS(call.calls.compute(desc.get(), short_by_one.data(), needed - 1, pointers, stream->raw()),
                      INFINI_STATUS_INSUFFICIENT_WORKSPACE);
  }
  CTS_ASSERT_STATUS(call.calls.compute(desc.get(), nullptr, needed, pointers, stream->raw()),
                    INFINI_STATUS_NULL_POINTER);
  on_device.DownloadAsync(stream->raw());
  Synchronize(stream->raw());
  OP_CHECKPOINT();
  on_device.VerifyUnchanged("a compute call refused for its workspace");
}

void CheckDeviceQueriesAndDestroy(const PreparedCall &call) {
  std::vector<int> ids = {cts::device_ids().front()};
  if (cts::device_ids().back() != ids.front()) ids.push_back(cts::device_ids().back());
  for (int id : ids) {
    SCOPED_TRACE("handle made on device " + std::to_string(id));
    CTS_ASSERT_OK(cts::rt().infinirtSetDevice(cts::device_type(), id));
    ReadyDescriptor ready(call);
    MakeReady(call, &ready, WorkspaceQuery::kNotAsked);
    OP_CHECKPOINT();
    ScopedOpDescriptor &desc = ready.desc;
    CTS_ASSERT_OK(cts::rt().infinirtSetDevice(cts::device_type(), cts::device_ids().front()));

    infiniDevice_t type = INFINI_DEVICE_TYPE_COUNT;
    int device_id = -1;
    CTS_ASSERT_OK(cts::op().infiniopGetDescriptorDeviceType(desc.get(), &type));
    CTS_ASSERT_OK(cts::op().infiniopGetDescriptorDeviceId(desc.get(), &device_id));
    if (type != cts::device_type()) {
      OP_ADD_FAILURE("infiniopGetDescriptorDeviceType answered " + DeviceTypeName(type) + ", expected " +
                     DeviceTypeName(cts::device_type()) + ", the handle's");
    }
    if (device_id != id) {
      OP_ADD_FAILURE("infiniopGetDescriptorDeviceId answered " + std::to_string(device_id) + ", expected " +
                     std::to_string(id) + ", the device the handle was made on");
    }
    CTS_ASSERT_OK(desc.Destroy());
  }
}

void CheckDeviceQueryNullPointers(const PreparedCall &call) {
  ReadyDescriptor ready(call);
  MakeReady(call, &ready, WorkspaceQuery::kNotAsked);
  OP_CHECKPOINT();
  infiniDevice_t type = INFINI_DEVICE_TYPE_COUNT;
  int device_id = -1;
  CTS_ASSERT_STATUS(cts::op().infiniopGetDescriptorDeviceType(nullptr, &type), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(cts::op().infiniopGetDescriptorDeviceType(ready.desc.get(), nullptr), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(cts::op().infiniopGetDescriptorDeviceId(nullptr, &device_id), INFINI_STATUS_NULL_POINTER);
  CTS_ASSERT_STATUS(cts::op().infiniopGetDescriptorDeviceId(ready.desc.get(), nullptr), INFINI_STATUS_NULL_POINTER);
}

void CheckDestroyNull(const PreparedCall &call) {
  CTS_SHOULD_ANSWER(call.calls.destroy(nullptr), "destroy_null_as_recommended", INFINI_STATUS_NULL_POINTER,
                    INFINI_STATUS_SUCCESS);  // OP-DESC-25, a SHOULD
}

void CheckReuse(const std::vector<PreparedCall> &calls) {
  device::Device device(cts::rt(), CaseDevice());
  ReadyDescriptor ready(calls.front());
  MakeReady(calls.front(), &ready);
  OP_CHECKPOINT();
  const ScopedOpDescriptor &desc = ready.desc;
  const Workspace workspace = AllocateWorkspace(device, ready.workspace_bytes);
  const std::unique_ptr<device::Stream> stream = device.CreateStream();
  for (size_t round = 0; round < calls.size(); ++round) {
    SCOPED_TRACE("call " + std::to_string(round + 1) + " of " + std::to_string(calls.size()) +
                 " with the same descriptor");
    DeviceCall on_device(device, calls[round]);
    SyncOnExit sync_on_exit(device);
    on_device.Upload();
    CTS_ASSERT_OK(calls[round].calls.compute(desc.get(), workspace.data(), workspace.size, on_device.Pointers(),
                                             stream->raw()));
    on_device.DownloadAsync(stream->raw());
    Synchronize(stream->raw());
    OP_CHECKPOINT();
    on_device.Verify();
    OP_CHECKPOINT();
  }
}

void CheckTwoStreams(const std::vector<PreparedCall> &calls) {
  device::Device device(cts::rt(), CaseDevice());
  ReadyDescriptor ready(calls.front());
  MakeReady(calls.front(), &ready);
  OP_CHECKPOINT();
  const ScopedOpDescriptor &desc = ready.desc;
  // A workspace per stream: the two streams' calls may run at the same time.
  const Workspace workspaces[2] = {AllocateWorkspace(device, ready.workspace_bytes),
                                   AllocateWorkspace(device, ready.workspace_bytes)};
  std::vector<std::unique_ptr<DeviceCall>> on_device;
  for (const PreparedCall &call : calls) {
    on_device.push_back(std::make_unique<DeviceCall>(device, call));
    on_device.back()->Upload();
  }
  SyncOnExit sync_on_exit(device);
  const std::unique_ptr<device::Stream> streams[2] = {device.CreateStream(), device.CreateStream()};
  CTS_REQUIRE_DISTINCT_STREAMS(streams[0]->raw(), streams[1]->raw());
  for (size_t i = 0; i < calls.size(); ++i) {
    const size_t s = i % 2;
    CTS_ASSERT_OK(calls[i].calls.compute(desc.get(), workspaces[s].data(), workspaces[s].size,
                                         on_device[i]->Pointers(), streams[s]->raw()));
    on_device[i]->DownloadAsync(streams[s]->raw());
  }
  Synchronize(streams[0]->raw());
  OP_CHECKPOINT();
  Synchronize(streams[1]->raw());
  OP_CHECKPOINT();
  for (size_t i = 0; i < calls.size(); ++i) {
    SCOPED_TRACE("call " + std::to_string(i + 1) + " of " + std::to_string(calls.size()) + ", on stream " +
                 std::to_string(i % 2 + 1));
    on_device[i]->Verify();
  }
}

void CheckRefused(const std::vector<TensorSpec> &specs, const OpCalls &calls, const RefusalRule &rule,
                  const std::string &what) {
  ScopedHandle handle;
  CTS_ASSERT_OK(handle.Create());
  ScopedTensorDescriptors tensors;
  // Any dtype, shape and strides make a tensor descriptor; the operator judges them.
  CTS_ASSERT_OK(tensors.Create(specs));
  ScopedOpDescriptor desc(calls.destroy);
  const std::string probing = what + " (a descriptor it must refuse)";
  const auto status = static_cast<infiniStatus_t>(cts::ProbeInvalidInput(
      probing.c_str(), [&] { return calls.create(handle.get(), desc.out(), tensors.get()); }));
  if (status != INFINI_STATUS_SUCCESS) *desc.out() = nullptr;  // nothing to destroy
  if (rule.recommended) cts::RecordMetric("refused_as_recommended", status == INFINI_STATUS_SUCCESS ? 0 : 1);
  if (status == rule.expected) {
    if (rule.second_fault != INFINI_STATUS_SUCCESS) cts::RecordMetric("checked_in_spec_order", 1);
    return;
  }
  if (cts::IsUnsupportedStatus(status)) {
    GTEST_SKIP() << cts::kUnsupportedPrefix << "the create call answered " << StatusName(status);
  }
  if (rule.second_fault != INFINI_STATUS_SUCCESS && status == rule.second_fault) {
    cts::RecordMetric("checked_in_spec_order", 0);  // OP-DESC-10 is a SHOULD: recorded, passing
    return;
  }
  if (rule.beyond_spec && status == INFINI_STATUS_SUCCESS) {
    cts::RecordMetric("accepted_beyond_spec", 1);  // a capability the spec does not ask for
    return;
  }
  if (rule.recommended && status == INFINI_STATUS_SUCCESS) return;  // recorded above
  if (status != INFINI_STATUS_SUCCESS) {
    // Refused, with another status than the spec names: the exact status is a SHOULD.
    cts::RecordOtherRefusal("the create call for " + what, status, rule.expected);
    return;
  }
  std::string described;
  for (const TensorSpec &spec : specs) described += "\n  " + DescribeTensor(spec);
  std::string accepted = StatusName(rule.expected);
  if (rule.second_fault != INFINI_STATUS_SUCCESS) accepted += " or " + StatusName(rule.second_fault);
  OP_ADD_FAILURE(what + ": the create call answered " + StatusName(status) + ", expected " + accepted + described);
}

void CheckDtypeProbe(const std::vector<TensorSpec> &specs, const OpCalls &calls, infiniDtype_t dtype, bool allowed) {
  ScopedHandle handle;
  CTS_ASSERT_OK(handle.Create());
  ScopedTensorDescriptors tensors;
  CTS_ASSERT_OK(tensors.Create(specs));
  ScopedOpDescriptor desc(calls.destroy);
  // A dtype the spec does not list is input the backend may refuse; an admitted one is valid input.
  const std::string probing = std::string("dtype ") + DtypeName(dtype) + ", which the spec does not list";
  const auto create = [&] { return calls.create(handle.get(), desc.out(), tensors.get()); };
  const auto status = static_cast<infiniStatus_t>(allowed ? create() : cts::ProbeInvalidInput(probing.c_str(), create));
  if (status != INFINI_STATUS_SUCCESS) *desc.out() = nullptr;
  cts::RecordMetric("accepted_by_backend", status == INFINI_STATUS_SUCCESS ? 1.0 : 0.0);
  cts::RecordMetric("allowed_by_spec", allowed ? 1.0 : 0.0);
  if (allowed) {
    if (status == INFINI_STATUS_SUCCESS) return;
    if (status == INFINI_STATUS_BAD_TENSOR_DTYPE || cts::IsUnsupportedStatus(status)) {
      GTEST_SKIP() << cts::kUnsupportedPrefix << "the backend does not accept " << DtypeName(dtype)
                   << ", which the spec admits: the create call answered " << StatusName(status);
    }
    OP_FAIL("creating a descriptor of admitted dtype " + std::string(DtypeName(dtype)) + " answered " +
            StatusName(status) + "; expected SUCCESS, or BAD_TENSOR_DTYPE / NOT_IMPLEMENTED where the dtype is not supported");
  }
  if (cts::IsUnsupportedStatus(status)) {
    GTEST_SKIP() << cts::kUnsupportedPrefix << "the create call answered " << StatusName(status);
  }
  // SUCCESS: the backend supports a dtype beyond those the spec lists, a capability (recorded).
  // Another refusal than BAD_TENSOR_DTYPE: the exact status is a SHOULD (recorded).
  if (status != INFINI_STATUS_BAD_TENSOR_DTYPE && status != INFINI_STATUS_SUCCESS) {
    cts::RecordOtherRefusal("the create call of dtype " + std::string(DtypeName(dtype)), status,
                            INFINI_STATUS_BAD_TENSOR_DTYPE);
  }
}

}  // namespace infinicts::op_cases
