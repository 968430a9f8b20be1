// The checks every operator shares, over prepared calls: running a call end to end
// (create → workspace → upload → compute on a stream → read back on that stream →
// verify → destroy) in its variants, and the conformance checks of descriptors,
// workspaces, NULL pointers and streams. Each is a void function that reports through
// GoogleTest; callers follow it with OP_CHECKPOINT() when more work comes after.
#pragma once

#include <functional>
#include <vector>

#include "common/api_objects.h"
#include "common/prepared_call.h"
#include "device/device.h"

namespace infinicts::op_cases {

// Runs `body`, turning a runtime failure (device::DeviceError) into a failure naming the
// call, or into `unsupported` when the backend lacks it, and any other exception into a
// failure that names it as the suite's own error.
void Guarded(const std::function<void()> &body);

// The first device under test (cts::device_ids().front()).
device::DeviceId CaseDevice();

struct RunOptions {
  bool null_stream = false;            // run on the NULL stream instead of a created one
  std::vector<AliasPair> aliases;      // outputs that share their input's memory
  size_t workspace_extra = 0;          // bytes beyond the size the descriptor asks for
  bool release_early = false;          // destroy the tensor descriptors and the handle right after create
  bool destroy_after_compute = false;  // destroy the operator descriptor as soon as the call returns
  // Upload this call's data first (blocking), then the real data on the stream before the
  // operator: an operator that does not wait for the stream's earlier work reads it.
  const PreparedCall *stale = nullptr;
  // Run side by side with another backend: the outputs go to CheckAgainst (common/against.h)
  // instead of the oracle's comparison.
  bool against = false;
};

// One call end to end; the outputs are read back on the call's stream (never by a blocking
// copy), so an operator that returns before its work is done on the stream is caught.
void RunAndVerify(const PreparedCall &call, const RunOptions &options = {});

// A model step's link: call `call`'s data argument `spec` is the device memory of call
// `from_call`'s tensor `from_spec` (an earlier call's output passed on, as serving engines chain
// operators), not memory of its own.
struct StepLink {
  size_t call, spec, from_call, from_spec;
};
// What came back of each call's written tensors (per call, per spec; empty for the others).
using StepOutputs = std::vector<std::vector<HostTensor>>;
// A model step end to end: every call's descriptor and workspace made, its tensors uploaded,
// then the calls queued back to back on one created stream with `links` in place, and every
// tensor read back on that stream. `settle` then sees what came back and may set the expected
// values of calls that computed from earlier calls' outputs; each call is verified last.
void RunStepAndVerify(std::vector<PreparedCall> &calls, const std::vector<StepLink> &links,
                      const std::function<void(const StepOutputs &back, std::vector<PreparedCall> &calls)> &settle);

// A model step's output against the float model it quantises: element i of `got`, a matrix of
// `columns` columns, within bound[i] (what quantising may cost there) plus `tolerance` of
// exact[i]. Records `quantisation_error_of_bound`, the largest share of that allowance used, and
// fails under `clause` naming the first element beyond it.
void CheckAgainstFloatModel(const std::string &clause, size_t columns, const std::vector<double> &got,
                            const std::vector<double> &exact, const std::vector<double> &bound,
                            const Tolerance &tolerance);

// The create call with `call`'s specs; SUCCESS continues. An unsupported call, or
// BAD_TENSOR_DTYPE for the (admitted) dtypes of the problem, ends the case `unsupported`;
// any other status fails it.
void CreateDescriptor(const PreparedCall &call, infiniopHandle_t handle, const TensorDescriptors &tensors,
                      ScopedOpDescriptor &desc);

// The workspace size the descriptor asks for (0 for operators without workspace functions).
void QueryWorkspace(const PreparedCall &call, OpDescriptor desc, size_t *size);
// OP-WS-1: a workspace size no device could hold fails the case (and is never allocated).
void RequireHoldableWorkspace(const PreparedCall &call, size_t size);

// What a compute call needs, made in the order of the interface's pattern: a handle, the
// tensor descriptors, the operator descriptor and (unless `workspace` is kNotAsked) the
// workspace size it asks for. MakeReady reports failures through GoogleTest like the
// checks: follow it with OP_CHECKPOINT().
struct ReadyDescriptor {
  explicit ReadyDescriptor(const PreparedCall &call) : desc(call.calls.destroy) {}
  ScopedHandle handle;
  ScopedTensorDescriptors tensors;
  ScopedOpDescriptor desc;
  size_t workspace_bytes = 0;
};
enum class WorkspaceQuery { kAsked, kNotAsked };
void MakeReady(const PreparedCall &call, ReadyDescriptor *ready, WorkspaceQuery workspace = WorkspaceQuery::kAsked);

// Waits for all work of the case's device when a case's scope ends, so buffers are not
// freed under work an early-ended case left on a stream.
class SyncOnExit {
 public:
  explicit SyncOnExit(device::Device &device) : device_(device) {}
  ~SyncOnExit();
  SyncOnExit(const SyncOnExit &) = delete;
  SyncOnExit &operator=(const SyncOnExit &) = delete;

 private:
  device::Device &device_;
};

// Conformance checks, each on one call (or several calls of one problem, same specs). The
// checks of invalid input (NULL arguments, a short workspace, Destroy(NULL)) are apart from the
// checks of valid input, so a backend that checks no argument loses those clauses alone.
void CheckCreateNullPointers(const PreparedCall &call);
void CheckComputeNullPointers(const PreparedCall &call);
void CheckWorkspace(const PreparedCall &call);
void CheckWorkspaceRefusals(const PreparedCall &call);
void CheckDeviceQueriesAndDestroy(const PreparedCall &call);
void CheckDeviceQueryNullPointers(const PreparedCall &call);
void CheckDestroyNull(const PreparedCall &call);
// One descriptor, each call on the same stream in turn.
void CheckReuse(const std::vector<PreparedCall> &calls);
// One descriptor, calls alternating between two streams (each stream its own workspace).
void CheckTwoStreams(const std::vector<PreparedCall> &calls);
// What a create call with bad arguments must answer.
struct RefusalRule {
  infiniStatus_t expected = INFINI_STATUS_BAD_TENSOR_SHAPE;
  // Two faults: the second one's status passes too (OP-DESC-10 is a SHOULD), recorded as
  // checked_in_spec_order 0.
  infiniStatus_t second_fault = INFINI_STATUS_SUCCESS;
  bool beyond_spec = false;  // a dtype the spec does not list: SUCCESS passes, recorded
  bool recommended = false;  // a refusal the spec recommends only: SUCCESS passes, recorded
};
// `specs` (a valid problem's, mutated) must be refused as `rule` says.
void CheckRefused(const std::vector<TensorSpec> &specs, const OpCalls &calls, const RefusalRule &rule,
                  const std::string &what);
// The dtype probe: creation with `specs` (a problem whose main dtype is `dtype`).
void CheckDtypeProbe(const std::vector<TensorSpec> &specs, const OpCalls &calls, infiniDtype_t dtype, bool allowed);

}  // namespace infinicts::op_cases
