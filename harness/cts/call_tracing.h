// The backend call in flight when a suite process crashes (docs/usage.md "How a run is
// isolated"): every call the cases make through the loaded tables goes through a wrapper that
// notes its name, and a handler for the fatal signals writes that name to stderr before the
// process dies as it would have, so the runner can name the call in the case's crash message.
// A call made as a probe of invalid input (cts/case.h's status assertions) is named with the
// arguments that made it invalid, so the runner counts its crash apart from a crash on valid input.
#pragma once

#include "backend/backend.h"

namespace infinicts::cts {

// The line the crash handler writes, then the call's name: "…: infinirtFree".
inline constexpr const char *kCrashedInCallLine = "infinicts: the process died in the backend call ";
// Written instead when the call was a probe of invalid input, then the call with its NULL
// arguments named: "…: infiniopGetDescriptorDeviceType(desc_ptr = NULL)".
inline constexpr const char *kCrashedOnInvalidInputLine =
    "infinicts: the process died on invalid input, in the backend call ";

// Written when the process died outside every backend call, after a probe of invalid input in
// the same case (a backend that accepted a foreign pointer, say, and corrupted the heap with it).
inline constexpr const char *kCrashedAfterInvalidInputLine =
    "infinicts: the process died outside any backend call, after the probe of invalid input ";

// Replaces every entry of the backend's tables with a wrapper that notes the call, once.
void TraceBackendCalls(Backend &backend);

// Installs the handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT; whatever handled them
// before (a sanitizer's, the default) handles them after it.
void InstallCrashReporter();

// While one lives, the backend calls of the calling thread probe invalid input; `source` is the
// probing call's source text, shown when no argument of the call is NULL ("infinirtFree(p)" of a
// double free). Probes do not nest.
class InvalidInputProbe {
 public:
  explicit InvalidInputProbe(const char *source);
  ~InvalidInputProbe();
  InvalidInputProbe(const InvalidInputProbe &) = delete;
  InvalidInputProbe &operator=(const InvalidInputProbe &) = delete;
};

// Forgets the probes made so far (each case starts without any).
void ForgetProbes();

// The call the calling thread is in ("" when none): for tests.
const char *CallInFlight();
// How the calling thread's latest probed call reads in a crash message ("" when none): for tests.
const char *ProbedCallText();

}  // namespace infinicts::cts
