#include "cts/call_tracing.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace infinicts::cts {
namespace {

thread_local const char *t_call = nullptr;  // the call this thread is in
std::atomic<const char *> g_latest{nullptr};  // the latest call entered and not yet left, any thread

// An invalid-input probe of this thread: its source text, the backend call it entered, and how
// that call reads in a crash message (written before the call, read by the signal handler).
thread_local const char *t_probe_source = nullptr;
thread_local const char *t_probed_call = nullptr;
thread_local char t_probed_text[512];
// The latest probed call of the running case, kept after its probe ended.
thread_local char t_last_probed_text[512];

// What a crash message needs of one argument: whether it is a NULL pointer, and an integer's value.
struct ArgumentFacts {
  bool null_pointer = false;
  bool integer = false;
  long long value = 0;
};

template <class T>
ArgumentFacts FactsOf(const T &argument) {
  if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>) {
    return {argument == nullptr, false, 0};
  } else if constexpr (std::is_enum_v<T>) {
    // Read as its bytes: probes pass values outside the enum, which UBSan refuses to load as one.
    std::underlying_type_t<T> raw{};
    std::memcpy(&raw, &argument, sizeof raw);
    return {false, true, static_cast<long long>(raw)};
  } else if constexpr (std::is_integral_v<T>) {
    return {false, true, static_cast<long long>(argument)};
  } else {
    return {};  // floats, the collectives' unique id
  }
}

template <class... T>
std::vector<ArgumentFacts> Facts(const T &...arguments) {
  return {FactsOf(arguments)...};
}

// "(infiniDevice_t device, int *count)" -> {"device", "count"}: each parameter's last identifier.
std::vector<std::string> ParameterNames(std::string_view params) {
  std::vector<std::string> names;
  if (params.size() >= 2 && params.front() == '(' && params.back() == ')') params = params.substr(1, params.size() - 2);
  size_t start = 0;
  while (start <= params.size()) {
    size_t end = params.find(',', start);
    if (end == std::string_view::npos) end = params.size();
    const std::string_view piece = params.substr(start, end - start);
    size_t last = piece.size();
    while (last > 0 && !(std::isalnum(static_cast<unsigned char>(piece[last - 1])) || piece[last - 1] == '_')) --last;
    size_t first = last;
    while (first > 0 && (std::isalnum(static_cast<unsigned char>(piece[first - 1])) || piece[first - 1] == '_')) --first;
    names.emplace_back(piece.substr(first, last - first));
    start = end + 1;
  }
  return names;
}

// "infiniopGetDescriptorDeviceType(desc_ptr = NULL)": the NULL pointers a probe passed, except
// the NULL stream (a valid stream) and a NULL buffer of size 0. Without any, the probe's source
// text from the function's name on ("infinirtFreeAsync(host.data(), nullptr)"), or what it probes.
std::string ProbedCallDescription(const char *name, const char *params, const std::vector<ArgumentFacts> &facts) {
  const std::vector<std::string> names = ParameterNames(params);
  std::string nulls;
  for (size_t i = 0; i < facts.size() && i < names.size(); ++i) {
    if (!facts[i].null_pointer || names[i] == "stream") continue;
    const bool sized_next = i + 1 < names.size() && i + 1 < facts.size() &&
                            (names[i + 1] == "size" || names[i + 1] == names[i] + "_size");
    if (sized_next && facts[i + 1].integer && facts[i + 1].value == 0) continue;
    nulls += (nulls.empty() ? "" : ", ") + names[i] + " = NULL";
  }
  if (!nulls.empty()) return std::string(name) + "(" + nulls + ")";
  const std::string_view source = t_probe_source != nullptr ? t_probe_source : "";
  const size_t at = source.find(name);
  if (at != std::string_view::npos) return std::string(source.substr(at));
  return std::string(name) + "(…), probing " + std::string(source);
}

void NoteProbedCall(const char *name, const char *params, const std::vector<ArgumentFacts> &facts) {
  const std::string text = ProbedCallDescription(name, params, facts);
  std::snprintf(t_probed_text, sizeof t_probed_text, "%s", text.c_str());
  std::snprintf(t_last_probed_text, sizeof t_last_probed_text, "%s", text.c_str());
  t_probed_call = name;
}

// Notes a call for its duration; nested calls (a backend calling itself through the table
// cannot, but a wrapper may) restore the outer one.
class InFlight {
 public:
  explicit InFlight(const char *name) : outer_(t_call), name_(name) {
    t_call = name;
    g_latest.store(name, std::memory_order_relaxed);
  }
  ~InFlight() {
    t_call = outer_;
    const char *expected = name_;
    g_latest.compare_exchange_strong(expected, outer_, std::memory_order_relaxed);
  }
  InFlight(const InFlight &) = delete;
  InFlight &operator=(const InFlight &) = delete;

 private:
  const char *outer_;
  const char *name_;
};

// The real tables the wrappers call through, filled once before any wrapper runs.
RtApi g_rt;
OpApi g_op;
CclApi g_ccl;

namespace traced {
// Probes pass enum values outside their enums on purpose (a negative device type, an unknown
// memcpy kind): the wrappers hand them on untouched, so UBSan's enum check stays out of them.
#define TRACED_CALL(table, name, params, args)                           \
  __attribute__((no_sanitize("enum"))) infiniStatus_t name params {      \
    InFlight in_flight(#name);                                           \
    if (t_probe_source != nullptr) NoteProbedCall(#name, #params, Facts args); \
    return table.name args;                                              \
  }
#define X(name, params, args) TRACED_CALL(TRACED_TABLE, name, params, args)
#define TRACED_TABLE g_rt
#include "backend/rt_symbols.def"
#undef TRACED_TABLE
#define TRACED_TABLE g_op
#include "backend/op_symbols.def"
#undef TRACED_TABLE
#define TRACED_TABLE g_ccl
#include "backend/ccl_symbols.def"
#undef TRACED_TABLE
#undef X
#undef TRACED_CALL
}  // namespace traced

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[NSIG];

void WriteAll(const char *text) {
  size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t written = write(STDERR_FILENO, text, left);
    if (written <= 0) return;
    text += written;
    left -= static_cast<size_t>(written);
  }
}

// Async-signal-safe: write(2), sigaction(2) and raise(3) only.
void OnFatalSignal(int signal_number) {
  const char *call = t_call != nullptr ? t_call : g_latest.load(std::memory_order_relaxed);
  if (t_call != nullptr && t_probed_call == t_call) {
    WriteAll("\n");
    WriteAll(kCrashedOnInvalidInputLine);
    WriteAll(t_probed_text);
    WriteAll("\n");
  } else if (call == nullptr && t_last_probed_text[0] != '\0') {
    WriteAll("\n");
    WriteAll(kCrashedAfterInvalidInputLine);
    WriteAll(t_last_probed_text);
    WriteAll("\n");
  } else if (call != nullptr) {
    WriteAll("\n");
    WriteAll(kCrashedInCallLine);
    WriteAll(call);
    WriteAll(t_call != nullptr ? "\n" : " (on another thread)\n");
  }
  sigaction(signal_number, &g_previous[signal_number], nullptr);
  raise(signal_number);
}

}  // namespace

void TraceBackendCalls(Backend &backend) {
  const Backend::Tables tables = backend.tables_to_wrap();
  RtApi &rt = tables.rt;
  OpApi &op = tables.op;
  CclApi &ccl = tables.ccl;
  g_rt = rt;
  g_op = op;
  g_ccl = ccl;
#define X(name, params, args) rt.name = &traced::name;
#include "backend/rt_symbols.def"
#undef X
#define X(name, params, args) op.name = &traced::name;
#include "backend/op_symbols.def"
#undef X
#define X(name, params, args) ccl.name = &traced::name;
#include "backend/ccl_symbols.def"
#undef X
}

void InstallCrashReporter() {
  for (int signal_number : kFatalSignals) {
    struct sigaction action {};
    action.sa_handler = &OnFatalSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NODEFER;
    sigaction(signal_number, &action, &g_previous[signal_number]);
  }
}

InvalidInputProbe::InvalidInputProbe(const char *source) {
  t_probe_source = source;
  t_probed_call = nullptr;
  t_probed_text[0] = '\0';
}

InvalidInputProbe::~InvalidInputProbe() {
  t_probe_source = nullptr;
  t_probed_call = nullptr;
  t_probed_text[0] = '\0';
}

void ForgetProbes() { t_last_probed_text[0] = '\0'; }

const char *CallInFlight() { return t_call != nullptr ? t_call : ""; }

const char *ProbedCallText() { return t_probed_text; }

}  // namespace infinicts::cts
