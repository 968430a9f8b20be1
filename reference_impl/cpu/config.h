// The shape of the virtual CPU devices, read once from the environment.
#ifndef INFINICTS_REF_CPU_CONFIG_H
#define INFINICTS_REF_CPU_CONFIG_H

#include <cstddef>

namespace infinicts::ref::cpu {

struct Config {
  int device_count;            // INFINICTS_CPU_DEVICES, default 2
  size_t device_memory_bytes;  // INFINICTS_CPU_DEVICE_MEMORY, default 8 GiB
  // INFINICTS_CPU_SYNC=1: every stream's work runs before the call that enqueues it returns
  // (as InfiniCore's CPU backend runs it), for callers that never synchronize on the CPU.
  bool synchronous;
};

// Reads the environment; a value that does not parse is reported on stderr and replaced
// by its default.
Config ReadConfig();

// A byte count: digits with an optional binary suffix K, M, G or T ("512M"). False when
// the text is not one, or is 0, or overflows.
bool ParseByteCount(const char *text, size_t *bytes);

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_CONFIG_H
