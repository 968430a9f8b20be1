#include "report/run_facts.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <fstream>

#include "report/fnv1a.h"

#ifndef INFINICTS_VERSION
#define INFINICTS_VERSION "unknown"
#endif
#ifndef INFINICTS_GIT
#define INFINICTS_GIT "unknown"
#endif

namespace infinicts::report {
namespace {

std::string Trim(const std::string &text) {
  const size_t begin = text.find_first_not_of(" \t\"");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" \t\"");
  return text.substr(begin, end - begin + 1);
}

// The value of the first "key: value" / "KEY=value" line of a file, or "".
std::string FirstValue(const char *path, const std::string &key, char separator) {
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    const size_t at = line.find(separator);
    if (at != std::string::npos && Trim(line.substr(0, at)) == key) return Trim(line.substr(at + 1));
  }
  return "";
}

}  // namespace

ToolInfo ToolInfo::ThisBuild() {
  ToolInfo tool;
  tool.version = INFINICTS_VERSION;
  tool.git = *INFINICTS_GIT ? INFINICTS_GIT : "unknown";
  return tool;
}

HostInfo HostInfo::ThisMachine() {
  HostInfo host;
  struct utsname names {};
  std::string machine;
  if (uname(&names) == 0) {
    host.os = std::string(names.sysname) + " " + names.release;
    machine = names.machine;
  }
  const std::string distribution = FirstValue("/etc/os-release", "PRETTY_NAME", '=');
  if (!distribution.empty()) host.os += " (" + distribution + ")";
  host.cpu = FirstValue("/proc/cpuinfo", "model name", ':');
  if (host.cpu.empty()) host.cpu = machine.empty() ? "unknown" : machine;
  host.cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) host.memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  return host;
}

std::string IsoTimeNowUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc {};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string SelectionDigest(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  Fnv1a hash;
  for (const std::string &id : ids) {
    hash.Add(id.data(), id.size());
    hash.Add('\n');
  }
  char text[17];
  std::snprintf(text, sizeof(text), "%016" PRIx64, hash.value());
  return text;
}

std::string ShardNarrowing(const ShardInfo &shard) {
  return "--shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) + " ran " +
         std::to_string(shard.cases) + " of the " + std::to_string(shard.selected) +
         " selected cases (`infinicts merge` of every shard judges the levels)";
}

}  // namespace infinicts::report
