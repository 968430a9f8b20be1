// The runtime the real operator library runs on (the real libinfinirt.so, not the runtime
// wrapper): the operator faults wait for the real work on a stream and move between
// devices without going through the runtime wrapper and its faults.
#pragma once

#include <functional>

#include "infinirt.h"

namespace infinicts::fault {

struct TargetRuntime {
  decltype(&::infinirtStreamSynchronize) StreamSynchronize = nullptr;
  decltype(&::infinirtGetDevice) GetDevice = nullptr;
  decltype(&::infinirtSetDevice) SetDevice = nullptr;
  // The reference runtime's infinictsRefStreamEnqueue (host code in a stream's order); NULL
  // for a target without it.
  infiniStatus_t (*StreamEnqueue)(infinirtStream_t, void (*)(void *), void *) = nullptr;
};

// Loaded on first use: the libinfinirt.so the real libinfiniop.so was linked against (found
// by its soname among the loaded libraries), else the one in $INFINICTS_FAULT_TARGET.
const TargetRuntime &RealRuntime();

// Waits for the real work on `stream`; false when the runtime refused (a stream the real
// operator would refuse too: the fault then leaves the call alone).
bool WaitForStream(void *stream);

// Runs `real`; when it answers SUCCESS, waits for its work and lets `overwrite` change what
// it wrote. A stream the runtime refuses leaves the call to `real` alone.
infiniStatus_t OverwriteAfterReal(void *stream, const std::function<infiniStatus_t()> &real,
                                  const std::function<void()> &overwrite);

}  // namespace infinicts::fault
