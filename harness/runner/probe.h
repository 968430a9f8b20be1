// What a backend is, learned in a forked child so that a backend that crashes or
// hangs while loading cannot take the runner with it: its libraries, the symbols
// it exports and lacks, infinirtInit's answer and the device count of every type.
#pragma once

#include <string>
#include <vector>

namespace infinicts::runner {

struct BackendProbe {
  std::vector<std::string> libraries;
  std::vector<std::string> exported;
  std::vector<std::string> missing;
  std::string init_status;                     // "INFINI_STATUS_SUCCESS", …
  std::vector<int> device_counts;              // by infiniDevice_t value; 0 where the call failed
  std::vector<std::string> device_count_status;  // infinirtGetDeviceCount's answer, by type
};

// Returns false and a one-line reason when the backend cannot be loaded, its
// infinirtInit fails, or loading crashes or runs past timeout_s.
bool ProbeBackend(const std::vector<std::string> &paths, double timeout_s, BackendProbe *probe, std::string *error);

}  // namespace infinicts::runner
