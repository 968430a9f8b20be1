#include "cts/call_tracing.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace infinicts::cts {
namespace {

thread_local const char *t_call = nullptr;  // the call this thread is in
std::atomic<const char *> g_latest{nullptr};  // the latest call entered and not yet left, any thread

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
#define TRACED_CALL(table, name, params, args) \
  infiniStatus_t name params {                \
    InFlight in_flight(#name);                \
    return table.name args;                   \
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
  if (call != nullptr) {
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

const char *CallInFlight() { return t_call != nullptr ? t_call : ""; }

}  // namespace infinicts::cts
