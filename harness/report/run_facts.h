// The parts of a report that describe the run rather than its cases.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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
  // Libraries of an interface of which the backend exports nothing ("libinfiniop.so"): their
  // suites are not run (docs/usage.md "Commands").
  std::vector<std::string> missing_libraries;
};

// A run given --shard K/N: which part of the selection it ran, and the whole selection's
// size and digest, so that `infinicts merge` knows when the union is the whole selection.
struct ShardInfo {
  int index = 1;  // K, from 1
  int count = 1;  // N
  size_t cases = 0;     // the cases of this shard
  size_t selected = 0;  // the cases of every shard together
  std::string selection;  // SelectionDigest of every shard's case ids
};

// A run under mpirun: how many rank processes ran the collectives, on how many nodes.
struct RanksInfo {
  int count = 1;
  int nodes = 1;
  int per_node = 1;  // the most ranks on one node
};

// One report a merged report was joined from.
struct MergedShard {
  std::string file;
  int index = 1;
  int count = 1;
  size_t cases = 0;
  std::string host;  // the host's cpu, as the shard's report names it
  std::string started, finished;
  bool complete = false;
};

struct RunInfo {
  std::string started;   // ISO 8601, UTC
  std::string finished;  // time of the latest write while the run goes on
  std::vector<std::string> argv;
  std::vector<std::string> suites;
  std::vector<std::string> modes;
  bool complete = false;  // false until every selected case has a result
  // What left cases of the levels out (--filter, --suite, --mode, --expect skips): such a run
  // judges no level. --level minimal (run.level) leaves only the advanced parts out.
  std::vector<std::string> narrowed;
  // Failures outside every case (a suite process that died between cases or after its last
  // one, a sanitizer's report at exit), each with the process's stderr. Each fails the run.
  std::vector<std::string> failures;
  std::optional<std::string> level;         // --level, when given: "minimal" or "advanced"
  std::optional<ShardInfo> shard;           // runs given --shard
  std::vector<MergedShard> merged_from;     // reports made by `infinicts merge`
  std::optional<RanksInfo> ranks;           // runs under mpirun
  // A run side by side (infinicts run --against): the other backend's backends, report, case
  // count and exit code (harness/cli/side_by_side.h).
  struct OtherSide {
    std::vector<std::string> backends;
    std::string report;
    size_t cases = 0;
    int exit_code = 0;
  };
  std::optional<OtherSide> against;
};

// A digest of a set of case ids, whatever their order: 16 hex digits of FNV-1a over the
// sorted ids, each ended by a newline.
std::string SelectionDigest(std::vector<std::string> ids);

// The line run.narrowed holds for a shard: a shard alone judges no level.
std::string ShardNarrowing(const ShardInfo &shard);

// "2024-05-01T12:34:56Z"
std::string IsoTimeNowUtc();

}  // namespace infinicts::report
