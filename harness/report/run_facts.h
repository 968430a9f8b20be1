// The parts of a report that describe the run rather than its cases.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace infinicts::report {

struct ToolInfo {
  std::string name = "infinicts";
  std::string version;
  std::string git;  // `git describe --always --dirty` at configure time, or "unknown"
  static ToolInfo ThisBuild();
};

struct HostInfo {
  std::string os;
  std::string cpu;
  int cores = 0;
  uint64_t memory_bytes = 0;
  static HostInfo ThisMachine();
};

struct BackendInfo {
  std::vector<std::string> libraries;
  std::string device_type;  // "cpu", "nvidia", …
  std::vector<int> device_ids;
  int device_count = 0;
  std::vector<std::string> exported;
  std::vector<std::string> missing;
};

struct RunInfo {
  std::string started;   // ISO 8601, UTC
  std::string finished;  // time of the latest write while the run goes on
  std::vector<std::string> argv;
  std::vector<std::string> suites;
  std::vector<std::string> modes;
  bool complete = false;  // false until every selected case has a result
  // What left cases of the levels out (--filter, --suite, --mode, --expect skips): such a run
  // judges no level. --level minimal leaves only the advanced parts out.
  std::vector<std::string> narrowed;
  bool minimal_only = false;
  // Failures outside every case (a suite process that died between cases or after its last
  // one, a sanitizer's report at exit), each with the process's stderr. Each fails the run.
  std::vector<std::string> failures;
};

// "2024-05-01T12:34:56Z"
std::string IsoTimeNowUtc();

}  // namespace infinicts::report
