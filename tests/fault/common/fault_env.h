// What every fault-injecting wrapper library shares: the fault asked for by
// $INFINICTS_FAULT and the real library it wraps, found in $INFINICTS_FAULT_TARGET
// (a directory or a library file) or else in the folder `lib` next to the wrapper's
// own folder (build/fault -> build/lib).
#pragma once

#include <string>
#include <vector>

namespace infinicts::fault {

// The value of $INFINICTS_FAULT; empty when it is unset or "none" (pure forwarding).
const std::string &RequestedFaultName();

// The faults $INFINICTS_FAULT asks for: a comma-separated list, in which a backend's name
// ("infinicore_cpu_like") stands for the faults that make a backend behave like it.
const std::vector<std::string> &RequestedFaults();
bool FaultRequested(const std::string &name);

// dlopens the real library `file_name` (e.g. "libinfinirt.so") with RTLD_NOW|RTLD_LOCAL.
// `anchor` is any address inside the calling wrapper: it locates the default target and
// guards against a target that is the wrapper itself. Never returns null: a wrapper
// without its target cannot answer anything, so it stops the process with a reason.
void *OpenTargetLibrary(const char *file_name, const void *anchor);

// Prints "infinicts fault backend: <why>" on stderr and aborts.
[[noreturn]] void Die(const std::string &why);

}  // namespace infinicts::fault
