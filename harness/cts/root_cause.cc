#include "cts/root_cause.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "cts/case.h"

namespace infinicts::cts {
namespace {

struct Entry {
  const char *function;
  const char *clause;
  const char *root_case;
};

// One clause a line for each call the suites use to set a case up, and the case that checks
// that clause; the clauses are in docs/spec. Operators' and collectives' own calls are absent:
// only their cases judge them.
constexpr std::array kEntries = {
    Entry{"infinirtGetAllDeviceCount", "RT-DEV-3", "rt.device.conformance/counts_agree_with_all_device_count"},
    Entry{"infinirtGetDeviceCount", "RT-DEV-5", "rt.device.conformance/counts_agree_with_all_device_count"},
    Entry{"infinirtSetDevice", "RT-DEV-7", "rt.device.conformance/set_get_round_trip/*"},
    Entry{"infinirtGetDevice", "RT-DEV-7", "rt.device.conformance/set_get_round_trip/*"},
    Entry{"infinirtGetMemInfo", "RT-DEV-19", "rt.memory.conformance/mem_info_tracks_allocations/*"},
    Entry{"infinirtDeviceSynchronize", "RT-DEV-20", "rt.device.conformance/device_synchronize_waits_for_every_stream"},
    Entry{"infinirtStreamCreate", "RT-STREAM-2", "rt.stream.conformance/create_distinct"},
    Entry{"infinirtStreamSynchronize", "RT-STREAM-6", "rt.stream.conformance/in_order/*"},
    Entry{"infinirtStreamDestroy", "RT-STREAM-9", "rt.stream.conformance/destroy_with_pending_work/*"},
    Entry{"infinirtMalloc", "RT-MEM-2", "rt.memory.conformance/malloc_sizes/*"},
    Entry{"infinirtFree", "RT-MEM-2", "rt.memory.conformance/malloc_sizes/*"},
    Entry{"infinirtMallocHost", "RT-MEM-6", "rt.memory.conformance/malloc_host"},
    Entry{"infinirtFreeHost", "RT-MEM-6", "rt.memory.conformance/malloc_host"},
    Entry{"infinirtMemcpy", "RT-MEM-10", "rt.memory.conformance/memcpy/*"},
    Entry{"infinirtMemcpyAsync", "RT-MEM-16", "rt.memory.conformance/memcpy_async/*"},
    Entry{"infinirtMemset", "RT-MEM-17", "rt.memory.conformance/memset_pattern/*"},
    Entry{"infinirtMemsetAsync", "RT-MEM-19", "rt.memory.conformance/memset_async_odd_offsets"},
    Entry{"infinirtMallocAsync", "RT-MEM-20", "rt.memory.conformance/malloc_async_round_trip"},
    Entry{"infinirtFreeAsync", "RT-MEM-20", "rt.memory.conformance/malloc_async_round_trip"},
    Entry{"infinirtEventCreate", "RT-EVENT-2", "rt.event.conformance/synchronize_waits/*"},
    Entry{"infinirtEventCreateWithFlags", "RT-EVENT-2", "rt.event.conformance/synchronize_waits/*"},
    Entry{"infinirtEventDestroy", "RT-EVENT-2", "rt.event.conformance/synchronize_waits/*"},
    Entry{"infinirtEventRecord", "RT-EVENT-7", "rt.event.conformance/query_reflects_completion/created_stream"},
    Entry{"infinirtEventQuery", "RT-EVENT-7", "rt.event.conformance/query_reflects_completion/created_stream"},
    Entry{"infinirtEventSynchronize", "RT-EVENT-8", "rt.event.conformance/synchronize_waits/*"},
    Entry{"infinirtEventElapsedTime", "RT-EVENT-13", "rt.event.conformance/elapsed_additive"},
    Entry{"infinirtStreamWaitEvent", "RT-EVENT-17", "rt.event.conformance/stream_wait_event/*"},
    Entry{"infiniopCreateHandle", "OP-DESC-2", "op.handle.conformance/create_on_every_device"},
    Entry{"infiniopDestroyHandle", "OP-DESC-2", "op.handle.conformance/create_on_every_device"},
    Entry{"infiniopCreateTensorDescriptor", "OP-DESC-6", "op.tensor_descriptor.conformance/accepts_any_layout"},
    Entry{"infiniopDestroyTensorDescriptor", "OP-DESC-6", "op.tensor_descriptor.conformance/accepts_any_layout"},
    Entry{"infinicclCommInitAll", "CCL-COMM-1", "ccl.comm.conformance/init_all/*"},
    Entry{"infinicclCommDestroy", "CCL-COMM-11", "ccl.comm.conformance/life_cycle"},
};

bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string FunctionIn(std::string_view call_text) {
  for (size_t at = 0; at < call_text.size(); ++at) {
    if (at > 0 && IsIdentifierChar(call_text[at - 1])) continue;
    const std::string_view rest = call_text.substr(at);
    if (rest.rfind("infinirt", 0) != 0 && rest.rfind("infiniop", 0) != 0 && rest.rfind("infiniccl", 0) != 0) continue;
    size_t end = 0;
    while (end < rest.size() && IsIdentifierChar(rest[end])) ++end;
    return std::string(rest.substr(0, end));
  }
  return "";
}

std::optional<RootCause> RootCauseOf(std::string_view function) {
  const std::string name = FunctionIn(function);
  for (const Entry &entry : kEntries) {
    if (name == entry.function) return RootCause{entry.function, entry.clause, entry.root_case};
  }
  return std::nullopt;
}

bool RunningCaseCites(const std::string &clause) {
  const CaseMeta *meta = RunningCase();
  return meta != nullptr && std::find(meta->clauses.begin(), meta->clauses.end(), clause) != meta->clauses.end();
}

std::optional<RootCause> BlockingCause(std::string_view call) {
  std::optional<RootCause> cause = RootCauseOf(call);
  if (!cause || RunningCaseCites(cause->clause)) return std::nullopt;
  return cause;
}

std::string BlockedText(const std::string &what_happened, const RootCause &cause) {
  return what_happened + "; blocked by " + cause.clause + ", which " + cause.root_case + " checks";
}

std::string RepeatedStream(const std::vector<void *> &streams) {
  for (size_t i = 0; i < streams.size(); ++i) {
    for (size_t j = i + 1; j < streams.size(); ++j) {
      if (streams[i] == streams[j]) return streams[i] == nullptr ? "the NULL stream" : "the same stream";
    }
  }
  return "";
}

bool AllNullStreams(const std::vector<void *> &streams) {
  for (void *stream : streams) {
    if (stream != nullptr) return false;
  }
  return true;
}

std::string ClauseOfCall(std::string_view call) {
  const std::optional<RootCause> cause = RootCauseOf(call);
  return cause && RunningCaseCites(cause->clause) ? cause->clause + ": " : "";
}

}  // namespace infinicts::cts
