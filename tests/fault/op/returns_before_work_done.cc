// The fault `returns_before_work_done`: every operator's compute call answers SUCCESS at
// once and only records the call; the real call is made (and waited for) at the next
// StreamSynchronize, DeviceSynchronize or EventSynchronize of the runtime wrapper, after the
// real synchronize returned. Work enqueued behind the operator (the copy of its output back)
// therefore runs before it. Calls the target refuses on sight (a NULL descriptor or data
// pointer, a workspace smaller than the descriptor asked for) still go to the target at
// once, so that only the timing changes (a tensor its row calls optional, LayerNorm's bias or
// a quantiser's x_zero, may be NULL when the descriptor was made without it, and an optional
// raw buffer, MoeAlign's expert_map, always); a descriptor
// destroyed while its work is pending is destroyed after that work.
#include <dlfcn.h>

#include <functional>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/fault_env.h"
#include "infiniop/optional_data.hpp"
#include "op/op_faults.h"
#include "op/target_runtime.h"
#include "rt/synchronize_hook.h"

namespace infinicts::fault {
namespace {

struct PendingCall {
  std::function<void()> run;
  bool waits = false;  // a compute call: wait for its stream before the next one
  void *stream = nullptr;
  infiniDevice_t device = INFINI_DEVICE_CPU;  // the calling thread's device at the call
  int device_id = 0;
};

std::mutex pending_mutex;  // guards the three below
std::vector<PendingCall> pending;
std::unordered_map<const InfiniopDescriptor *, size_t> workspace_sizes;  // as the target answered
// Per descriptor made with some tensor descriptor NULL: bit i set when the i-th was.
std::unordered_map<const InfiniopDescriptor *, uint64_t> absent_tensors;

void Defer(std::function<void()> run, bool waits, void *stream) {
  PendingCall call{std::move(run), waits, stream};
  RealRuntime().GetDevice(&call.device, &call.device_id);
  std::lock_guard<std::mutex> lock(pending_mutex);
  pending.push_back(std::move(call));
}

bool AnyPending() {
  std::lock_guard<std::mutex> lock(pending_mutex);
  return !pending.empty();
}

// Registered with the runtime wrapper: makes the recorded calls in their order, each on
// the device it was made on, then gives the thread its device back.
void RunPendingCalls() {
  std::vector<PendingCall> due;
  {
    std::lock_guard<std::mutex> lock(pending_mutex);
    due.swap(pending);
  }
  if (due.empty()) return;
  infiniDevice_t device = INFINI_DEVICE_CPU;
  int device_id = 0;
  const bool had_device = RealRuntime().GetDevice(&device, &device_id) == INFINI_STATUS_SUCCESS;
  for (const PendingCall &call : due) {
    RealRuntime().SetDevice(call.device, call.device_id);
    call.run();
    if (call.waits) WaitForStream(call.stream);
  }
  if (had_device) RealRuntime().SetDevice(device, device_id);
}

template <class T>
bool IsNullPointer(const T &value) {
  if constexpr (std::is_pointer_v<T>)
    return value == nullptr;
  else
    return false;
}

template <auto Member, uint64_t kOptionalData = 0>
struct Deferred;

// For one compute function (desc, [workspace, workspace_size,] data..., [scalars...], stream);
// kOptionalData: the row's optional data positions (bit i: the i-th data argument).
template <class... Args, infiniStatus_t (*OpTable::*Member)(Args...), uint64_t kOptionalData>
struct Deferred<Member, kOptionalData> {
  using Arguments = std::tuple<Args...>;
  static constexpr size_t kCount = sizeof...(Args);
  static constexpr bool kHasWorkspace = kCount >= 3 && std::is_same_v<std::tuple_element_t<1, Arguments>, void *> &&
                                        std::is_same_v<std::tuple_element_t<2, Arguments>, size_t>;
  static constexpr size_t kFirstData = kHasWorkspace ? 3 : 1;

  static bool Allowed(uint64_t may_be_null, size_t position) { return position < 64 && ((may_be_null >> position) & 1); }

  // A NULL data pointer other than those of optional tensors the descriptor was made without.
  template <size_t... I>
  static bool AnyDataPointerNull(const Arguments &args, uint64_t may_be_null, std::index_sequence<I...>) {
    return ((I >= kFirstData && I + 1 < kCount && IsNullPointer(std::get<I>(args)) &&
             !Allowed(may_be_null, I - kFirstData)) ||
            ...);
  }

  static bool RefusedOnSight(const Arguments &args) {
    const InfiniopDescriptor *desc = std::get<0>(args);
    if (desc == nullptr) return true;
    std::lock_guard<std::mutex> lock(pending_mutex);
    const auto absent = absent_tensors.find(desc);
    const uint64_t may_be_null = absent == absent_tensors.end() ? 0 : absent->second & kOptionalData;
    if (AnyDataPointerNull(args, may_be_null, std::index_sequence_for<Args...>{})) {
      return true;
    }
    if constexpr (kHasWorkspace) {
      const auto asked = workspace_sizes.find(desc);
      if (asked != workspace_sizes.end() &&
          (std::get<2>(args) < asked->second || (asked->second > 0 && std::get<1>(args) == nullptr))) {
        return true;
      }
    }
    return false;
  }

  static infiniStatus_t Call(Args... args) {
    Arguments arguments(args...);
    if (RefusedOnSight(arguments)) return (TargetOp().*Member)(args...);
    void *stream = std::get<kCount - 1>(arguments);
    Defer([arguments] { std::apply(TargetOp().*Member, arguments); }, true, stream);
    return INFINI_STATUS_SUCCESS;
  }
};

// For the create call of an operator with optional tensors: remembers which tensor
// descriptors a descriptor was made without (the i-th tensor descriptor parameter NULL: bit i),
// LayerNorm's bias, a quantiser's x_zero.
template <auto Member>
struct CreateRememberingAbsent;

template <class DescPtr, class... Args, infiniStatus_t (*OpTable::*Member)(infiniopHandle_t, DescPtr, Args...)>
struct CreateRememberingAbsent<Member> {
  template <class T>
  static void NoteIfTensor(const T &value, uint64_t &absent, int &position) {
    if constexpr (std::is_same_v<T, infiniopTensorDescriptor_t>) {
      if (value == nullptr && position < 64) absent |= uint64_t{1} << position;
      ++position;
    }
  }

  static infiniStatus_t Call(infiniopHandle_t handle, DescPtr desc_ptr, Args... args) {
    const infiniStatus_t status = (TargetOp().*Member)(handle, desc_ptr, args...);
    if (status != INFINI_STATUS_SUCCESS || desc_ptr == nullptr) return status;
    uint64_t absent = 0;
    int position = 0;
    (NoteIfTensor(args, absent, position), ...);
    // Data arguments past the tensor descriptors are raw buffers (MoeAlign's expert_map): an
    // optional one may be NULL whatever the create call got.
    if (position < 64) absent |= ~uint64_t{0} << position;
    std::lock_guard<std::mutex> lock(pending_mutex);
    absent_tensors[*desc_ptr] = absent;
    return status;
  }
};

// For one GetXWorkspaceSize: remembers the answer (to tell a too-small workspace).
template <auto Member>
struct RememberedWorkspaceSize;

template <class Desc, infiniStatus_t (*OpTable::*Member)(Desc, size_t *)>
struct RememberedWorkspaceSize<Member> {
  static infiniStatus_t Call(Desc desc, size_t *size) {
    const infiniStatus_t status = (TargetOp().*Member)(desc, size);
    if (status == INFINI_STATUS_SUCCESS) {
      std::lock_guard<std::mutex> lock(pending_mutex);
      workspace_sizes[desc] = *size;
    }
    return status;
  }
};

// For one DestroyXDescriptor: behind pending work, the destroy waits its turn.
template <auto Member>
struct DeferredDestroy;

template <class Desc, infiniStatus_t (*OpTable::*Member)(Desc)>
struct DeferredDestroy<Member> {
  static infiniStatus_t Call(Desc desc) {
    if (desc != nullptr) {
      std::lock_guard<std::mutex> lock(pending_mutex);
      workspace_sizes.erase(desc);
      absent_tensors.erase(desc);
    }
    if (desc == nullptr || !AnyPending()) return (TargetOp().*Member)(desc);
    Defer([desc] { (TargetOp().*Member)(desc); }, false, nullptr);
    return INFINI_STATUS_SUCCESS;
  }
};

// The runtime wrapper beside this library (same folder) runs RunPendingCalls after each
// synchronize; without it the deferred work would never run.
void RegisterWithRuntimeWrapper() {
  Dl_info own{};
  if (dladdr(reinterpret_cast<const void *>(&RegisterWithRuntimeWrapper), &own) == 0 || own.dli_fname == nullptr) {
    Die("returns_before_work_done: cannot find the operator wrapper's own file");
  }
  std::string folder = own.dli_fname;
  folder = folder.substr(0, folder.find_last_of('/') + 1);
  const std::string runtime_wrapper = folder + "libinfinirt.so";
  void *library = dlopen(runtime_wrapper.c_str(), RTLD_NOW | RTLD_NOLOAD);
  auto set_hook =
      library != nullptr
          ? reinterpret_cast<InfinictsFaultSetSynchronizeHook>(dlsym(library, INFINICTS_FAULT_SET_SYNCHRONIZE_HOOK))
          : nullptr;
  if (set_hook == nullptr) {
    Die("returns_before_work_done needs the runtime wrapper " + runtime_wrapper +
        " loaded beside the operator wrapper (run with --backend on the wrapper folder)");
  }
  set_hook(&RunPendingCalls);
}

}  // namespace

void InstallReturnsBeforeWorkDone(OpTable &calls) {
  RegisterWithRuntimeWrapper();
#define WITH_WORKSPACE(Op, optional_data)                                                                          \
  calls.infiniop##Op = &Deferred<&OpTable::infiniop##Op, optional_data>::Call;                                     \
  calls.infiniopGet##Op##WorkspaceSize = &RememberedWorkspaceSize<&OpTable::infiniopGet##Op##WorkspaceSize>::Call; \
  calls.infiniopDestroy##Op##Descriptor = &DeferredDestroy<&OpTable::infiniopDestroy##Op##Descriptor>::Call;      \
  calls.infiniopCreate##Op##Descriptor = &CreateRememberingAbsent<&OpTable::infiniopCreate##Op##Descriptor>::Call;
#define WITHOUT_WORKSPACE(Op)                                   \
  calls.infiniop##Op = &Deferred<&OpTable::infiniop##Op>::Call; \
  calls.infiniopDestroy##Op##Descriptor = &DeferredDestroy<&OpTable::infiniopDestroy##Op##Descriptor>::Call;
  // Every operator of the table, its optional tensors' pointers allowed NULL where the row says so.
#define COMPUTE_ONLY(Op, optional_data) calls.infiniop##Op = &Deferred<&OpTable::infiniop##Op, optional_data>::Call;
#define INFINICTS_DEFER_WORKSPACE(Op, optional_data) WITH_WORKSPACE(Op, optional_data)
#define INFINICTS_DEFER_NO_WORKSPACE(Op, optional_data) WITHOUT_WORKSPACE(Op)
  // A WORKSPACE_OF(Owner) row's query and destroy are Owner's, wrapped with Owner's row.
#define INFINICTS_DEFER_WORKSPACE_OF(Owner) COMPUTE_ONLY
#define OPERATOR(Name, subject, shapes, workspace, optional_data, create_params, create_args, data_params, data_args) \
  INFINICTS_DEFER_##workspace(Name, INFINIOP_OPTIONAL_DATA_MASK(optional_data, data_args))
#include "infiniop/operators.def"
#undef OPERATOR
#undef INFINICTS_DEFER_WORKSPACE_OF
#undef INFINICTS_DEFER_NO_WORKSPACE
#undef INFINICTS_DEFER_WORKSPACE
#undef COMPUTE_ONLY
#undef WITH_WORKSPACE
#undef WITHOUT_WORKSPACE
}
INFINICTS_FAULT(OpTable, "returns_before_work_done",
                "every operator's work runs at the next Stream/Device/EventSynchronize",
                InstallReturnsBeforeWorkDone);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// Every operator's stream-order cases; the conformance cases about statuses keep passing.
// fault-detection: returns_before_work_done SUITE op TIMEOUT 30 FILTER op.*.conformance/* EXPECT
// fault-detection:   op.*.conformance/stream_order/*
// fault-detection:   op.*.conformance/null_stream/*
