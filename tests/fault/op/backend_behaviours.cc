// Operator-library behaviours real backends show that the interface allows (docs/spec/op.md's Why
// texts), each a fault of its own: together ("infinicore_cpu_like", common/fault_env.cc) they
// imitate a backend the suite must judge fairly. Each wraps every call of the table it is given,
// so they compose in the order they are asked for.
#include <csignal>
#include <cstring>
#include <mutex>
#include <set>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "op/layout_tracking.h"
#include "op/op_faults.h"
#include "op/target_runtime.h"

namespace infinicts::fault {
namespace {

// An operator's create call: infiniopCreate<X>Descriptor, not the handle's or a tensor descriptor's.
bool IsOperatorCreate(std::string_view name) {
  return name.rfind("infiniopCreate", 0) == 0 && name != "infiniopCreateHandle" &&
         name != "infiniopCreateTensorDescriptor";
}

// ---- null_arguments_unchecked: a NULL the target refuses with NULL_POINTER is dereferenced.

OpTable g_before_unchecked;

infiniStatus_t CrashOnNullPointer(infiniStatus_t status) {
  if (status == INFINI_STATUS_NULL_POINTER) std::raise(SIGSEGV);
  return status;
}

namespace unchecked {
#define X(name, params, args) \
  infiniStatus_t name params { return CrashOnNullPointer(g_before_unchecked.name args); }
#include "backend/op_symbols.def"
#undef X
const OpTable kCalls = {
#define X(name, params, args) &name,
#include "backend/op_symbols.def"
#undef X
};
}  // namespace unchecked

// ---- runs_work_at_the_call: every compute call returns once its stream is done.

OpTable g_before_at_call;

bool TakesStreamLast(std::string_view params) {
  constexpr std::string_view kLast = "void *stream)";
  return params.size() >= kLast.size() && params.substr(params.size() - kLast.size()) == kLast;
}

template <class... Args>
infiniStatus_t WaitedFor(std::string_view params, infiniStatus_t status, const std::tuple<Args...> &arguments) {
  if constexpr (sizeof...(Args) > 0) {
    using Last = std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>;
    if constexpr (std::is_same_v<Last, void *>) {
      if (status == INFINI_STATUS_SUCCESS && TakesStreamLast(params)) WaitForStream(std::get<sizeof...(Args) - 1>(arguments));
    }
  }
  return status;
}

namespace at_call {
#define X(name, params, args) \
  infiniStatus_t name params { return WaitedFor(#params, g_before_at_call.name args, std::make_tuple args); }
#include "backend/op_symbols.def"
#undef X
const OpTable kCalls = {
#define X(name, params, args) &name,
#include "backend/op_symbols.def"
#undef X
};
}  // namespace at_call

// ---- refuses_strided_layouts: RandomSample, RMSNorm and RoPE refuse at create, with
// BAD_TENSOR_STRIDES, every tensor that is no contiguous, offset or padded-row view.

OpTable g_before_strided;

bool IsServingView(const TensorLayout &layout) {
  ptrdiff_t reach = 1;
  bool last = true;
  for (size_t d = layout.shape.size(); d-- > 0;) {
    if (layout.shape[d] <= 1) continue;
    const ptrdiff_t stride = layout.strides[d];
    if (last ? stride != 1 : stride < reach) return false;
    reach = stride * static_cast<ptrdiff_t>(layout.shape[d]);
    last = false;
  }
  return true;
}

template <class T>
bool RefusedView(const T &argument) {
  if constexpr (std::is_same_v<T, infiniopTensorDescriptor_t>) {
    const std::optional<TensorLayout> layout = LayoutOf(argument);
    return layout && !IsServingView(*layout);
  } else {
    return false;
  }
}

bool RefusesStridedLayouts(std::string_view name) {
  return name == "infiniopCreateRandomSampleDescriptor" || name == "infiniopCreateRMSNormDescriptor" ||
         name == "infiniopCreateRoPEDescriptor";
}

template <class Call, class... Args>
infiniStatus_t RefusingStrided(std::string_view name, const Call &call, const Args &...arguments) {
  if (RefusesStridedLayouts(name) && (RefusedView(arguments) || ...)) return INFINI_STATUS_BAD_TENSOR_STRIDES;
  return call();
}

namespace strided {
#define X(name, params, args)                                                                        \
  infiniStatus_t name params {                                                                       \
    return std::apply([](const auto &...a) {                                                         \
      return RefusingStrided(#name, [&] { return g_before_strided.name(a...); }, a...);              \
    }, std::make_tuple args);                                                                        \
  }
#include "backend/op_symbols.def"
#undef X
const OpTable kCalls = {
#define X(name, params, args) &name,
#include "backend/op_symbols.def"
#undef X
};
}  // namespace strided

// ---- shape_refusals_as_bad_param: a create call refuses bad shapes with BAD_PARAM (InfiniCore's
// Attention does).

OpTable g_before_shapes;

infiniStatus_t ShapeAsBadParam(std::string_view name, infiniStatus_t status) {
  return IsOperatorCreate(name) && status == INFINI_STATUS_BAD_TENSOR_SHAPE ? INFINI_STATUS_BAD_PARAM : status;
}

namespace shapes {
#define X(name, params, args) \
  infiniStatus_t name params { return ShapeAsBadParam(#name, g_before_shapes.name args); }
#include "backend/op_symbols.def"
#undef X
const OpTable kCalls = {
#define X(name, params, args) &name,
#include "backend/op_symbols.def"
#undef X
};
}  // namespace shapes

// ---- attribute_checks_deferred: a create call the target refuses with BAD_PARAM succeeds, and
// the descriptor it hands out refuses every compute call with BAD_PARAM instead (InfiniCore's
// MoeSum checks its k at compute; its Sum and TopK check their attributes nowhere at create).

OpTable g_before_deferred;
std::mutex g_deferred_mutex;
std::set<const void *> g_deferred;  // the descriptors standing for refused create calls

bool IsDeferred(const void *desc) {
  std::lock_guard<std::mutex> lock(g_deferred_mutex);
  return g_deferred.count(desc) > 0;
}

template <class First, class... Rest>
infiniStatus_t CallOnDeferred(std::string_view name, First desc, Rest... rest) {
  if (name.rfind("infiniopDestroy", 0) == 0) {
    std::lock_guard<std::mutex> lock(g_deferred_mutex);
    delete[] static_cast<const char *>(static_cast<const void *>(desc));
    g_deferred.erase(static_cast<const void *>(desc));
    return INFINI_STATUS_SUCCESS;
  }
  if constexpr (sizeof...(Rest) == 1) {
    using Size = std::tuple_element_t<0, std::tuple<Rest...>>;
    if constexpr (std::is_same_v<Size, size_t *>) {  // infiniopGet<X>WorkspaceSize
      Size size = std::get<0>(std::make_tuple(rest...));
      if (size == nullptr) return INFINI_STATUS_NULL_POINTER;
      *size = 0;
      return INFINI_STATUS_SUCCESS;
    }
  }
  return INFINI_STATUS_BAD_PARAM;
}

template <class Call, class First, class... Rest>
infiniStatus_t Deferring(std::string_view name, const Call &call, First first, Rest... rest) {
  if constexpr (std::is_pointer_v<First>) {
    if (first != nullptr && IsDeferred(static_cast<const void *>(first))) return CallOnDeferred(name, first, rest...);
  }
  const infiniStatus_t status = call();
  if constexpr (sizeof...(Rest) > 0) {
    using Out = std::tuple_element_t<0, std::tuple<Rest...>>;
    if constexpr (std::is_pointer_v<Out> && std::is_pointer_v<std::remove_pointer_t<Out>>) {
      Out out = std::get<0>(std::make_tuple(rest...));
      if (IsOperatorCreate(name) && status == INFINI_STATUS_BAD_PARAM && out != nullptr) {
        const char *stand_in = new char[1];
        std::lock_guard<std::mutex> lock(g_deferred_mutex);
        g_deferred.insert(stand_in);
        *out = reinterpret_cast<std::remove_pointer_t<Out>>(const_cast<char *>(stand_in));
        return INFINI_STATUS_SUCCESS;
      }
    }
  }
  return status;
}

namespace deferred {
#define X(name, params, args)                                                                        \
  infiniStatus_t name params {                                                                       \
    return std::apply([](const auto &...a) {                                                         \
      return Deferring(#name, [&] { return g_before_deferred.name(a...); }, a...);                  \
    }, std::make_tuple args);                                                                        \
  }
#include "backend/op_symbols.def"
#undef X
const OpTable kCalls = {
#define X(name, params, args) &name,
#include "backend/op_symbols.def"
#undef X
};
}  // namespace deferred

// Keeps the calls a behaviour wraps, then routes every export through the behaviour.
void ReplaceEveryCall(OpTable &calls, OpTable *before, const OpTable &replacement) {
  *before = calls;
  calls = replacement;
}

}  // namespace

void InstallNullArgumentsUncheckedOp(OpTable &calls) {
  ReplaceEveryCall(calls, &g_before_unchecked, unchecked::kCalls);
}
INFINICTS_FAULT(OpTable, "null_arguments_unchecked",
                "a NULL argument the target refuses with NULL_POINTER crashes the process (SIGSEGV)",
                InstallNullArgumentsUncheckedOp);

void InstallRunsWorkAtTheCallOp(OpTable &calls) {
  ReplaceEveryCall(calls, &g_before_at_call, at_call::kCalls);
}
INFINICTS_FAULT(OpTable, "runs_work_at_the_call",
                "every compute call returns once its stream is done",
                InstallRunsWorkAtTheCallOp);

void InstallRefusesStridedLayouts(OpTable &calls) {
  TrackTensorLayouts(calls);
  ReplaceEveryCall(calls, &g_before_strided, strided::kCalls);
}
INFINICTS_FAULT(OpTable, "refuses_strided_layouts",
                "RandomSample, RMSNorm and RoPE refuse at create, with BAD_TENSOR_STRIDES, any tensor that is no contiguous, offset or padded-row view",
                InstallRefusesStridedLayouts);

void InstallShapeRefusalsAsBadParam(OpTable &calls) {
  ReplaceEveryCall(calls, &g_before_shapes, shapes::kCalls);
}
INFINICTS_FAULT(OpTable, "shape_refusals_as_bad_param",
                "every create call answers BAD_PARAM where it would answer BAD_TENSOR_SHAPE",
                InstallShapeRefusalsAsBadParam);

void InstallAttributeChecksDeferred(OpTable &calls) {
  ReplaceEveryCall(calls, &g_before_deferred, deferred::kCalls);
}
INFINICTS_FAULT(OpTable, "attribute_checks_deferred",
                "a create call that would answer BAD_PARAM succeeds; its descriptor answers BAD_PARAM at compute",
                InstallAttributeChecksDeferred);

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// NULL arguments left unchecked: the probes crash on invalid input, and every other case passes.
// fault-detection: null_arguments_unchecked TIMEOUT 30 ONLY
// fault-detection:   INVALID_INPUT_CRASHES rt.device.conformance/all_device_count_null rt.device.conformance/device_count_null
// fault-detection:   rt.device.conformance/get_device_null rt.device.conformance/mem_info_null rt.stream.conformance/create_null
// fault-detection:   rt.memory.conformance/malloc_null rt.memory.conformance/memcpy_null rt.memory.conformance/memset_rejects
// fault-detection:   rt.event.conformance/create_null rt.event.conformance/null_arguments rt.event.conformance/elapsed_null
// fault-detection:   rt.event.conformance/stream_wait_null_event rt.resource_snapshot.conformance/null_snapshot
// fault-detection:   rt.graph.conformance/end_capture_refusals rt.graph.conformance/instantiate_null_exec
// fault-detection:   rt.graph.conformance/launch_null_exec
// Work run at the call: every ordering rule holds; only capture breaks (as with capture_runs_eagerly).
// fault-detection: runs_work_at_the_call TIMEOUT 30 ONLY EXPECT
// fault-detection:   rt.graph.conformance/capture_defers_work/* rt.graph.conformance/replay_matches_eager/*
// fault-detection:   rt.graph.conformance/launch_twice_rereads_inputs rt.graph.conformance/launch_on_other_stream
// fault-detection:   rt.graph.conformance/exec_outlives_graph_and_pending_destroy rt.graph.conformance/synchronize_while_capturing_refused
// fault-detection: shape_refusals_as_bad_param SUITE op TIMEOUT 30 ONLY
// fault-detection:   FILTER op.attention.* op.conv.* op.gemm.* op.add.* op.paged_attention.*
// fault-detection: refuses_strided_layouts SUITE op TIMEOUT 30 ONLY
// fault-detection:   FILTER op.random_sample.* op.rms_norm.* op.rope.*
// fault-detection:   UNSUPPORTED ${infinicts_op_refused_views}
// fault-detection:   MISSING_CAPABILITIES "layout transposed" "layout strided" "layout flipped" PARTS op.rms_norm=pass op.rope=pass
// Attributes checked at compute only: every MUST refusal of an attribute at create fails; the
// SHOULD ones (Sum's and TopK's recommended_refusal cases) pass, recorded as not refused.
// fault-detection: attribute_checks_deferred SUITE op TIMEOUT 60 ONLY
// fault-detection:   FILTER op.pad.* op.conv.* op.softmax.* op.log_softmax.* op.rope.* op.mrope.* op.sum.* op.topk.*
// fault-detection:   EXPECT op.*.conformance/bad_param/* op.*.conformance/check_order/param_before_dtype
