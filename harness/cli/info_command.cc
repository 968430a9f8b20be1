// `infinicts info`: what the backend exports and what devices it reports.
#include <cstdio>

#include "backend/names.h"
#include "cli/case_selection.h"
#include "cli/checked_values.h"
#include "cli/commands.h"
#include "runner/probe.h"

namespace infinicts::cli {

int InfoCommand(const InfoOptions &options) {
  const auto device_type = ParseDeviceType(options.device);
  if (!device_type) return UsageError("unknown device '" + options.device + "'");
  if (const std::string bad = BadReferenceEnvironment(); !bad.empty()) return UsageError(bad);
  runner::BackendProbe probe;
  std::string error;
  if (!runner::ProbeBackend(options.backends, kDefaultTimeoutSeconds, &probe, &error)) return UsageError(error);

  std::printf("libraries:\n");
  for (const std::string &library : probe.libraries) std::printf("  %s\n", library.c_str());
  std::printf("infinirtInit: %s\n", probe.init_status.c_str());
  std::printf("devices (infinirtGetDeviceCount):\n");
  for (int type = 0; type < static_cast<int>(probe.device_counts.size()); ++type) {
    const bool selected = type == *device_type;
    std::printf("%s %-10s %d  (%s)\n", selected ? "*" : " ", DeviceTypeName(type).c_str(), probe.device_counts[type],
                probe.device_count_status[type].c_str());
  }
  std::printf("exported (%zu):\n", probe.exported.size());
  for (const std::string &symbol : probe.exported) std::printf("  %s\n", symbol.c_str());
  std::printf("missing (%zu):\n", probe.missing.size());
  for (const std::string &symbol : probe.missing) std::printf("  %s\n", symbol.c_str());
  const int count = probe.device_counts.at(*device_type);
  if (count == 0) {
    std::printf("the backend has no %s device: a run on it skips every case\n", DeviceTypeName(*device_type).c_str());
  } else {
    std::printf("%s: %d device(s), ids 0..%d\n", DeviceTypeName(*device_type).c_str(), count, count - 1);
  }
  return kExitOk;
}

}  // namespace infinicts::cli
