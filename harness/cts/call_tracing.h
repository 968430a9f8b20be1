// The backend call in flight when a suite process crashes (docs/usage.md "How a run is
// isolated"): every call the cases make through the loaded tables goes through a wrapper that
// notes its name, and a handler for the fatal signals writes that name to stderr before the
// process dies as it would have, so the runner can name the call in the case's crash message.
#pragma once

#include "backend/backend.h"

namespace infinicts::cts {

// The line the crash handler writes, then the call's name: "…: infinirtFree".
inline constexpr const char *kCrashedInCallLine = "infinicts: the process died in the backend call ";

// Replaces every entry of the backend's tables with a wrapper that notes the call, once.
void TraceBackendCalls(Backend &backend);

// Installs the handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT; whatever handled them
// before (a sanitizer's, the default) handles them after it.
void InstallCrashReporter();

// The call the calling thread is in ("" when none): for tests.
const char *CallInFlight();

}  // namespace infinicts::cts
