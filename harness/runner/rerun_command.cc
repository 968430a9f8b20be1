#include "runner/rerun_command.h"

namespace infinicts::runner {

std::string ShellQuote(const std::string &word) {
  const bool plain = !word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                "0123456789_-./:=,+@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') quoted += "'\\''";
    else quoted += c;
  }
  return quoted + "'";
}

std::string RerunCommand(const RerunContext &context, const report::CaseResult &result) {
  std::string command = ShellQuote(context.program) + " run";
  for (const std::string &backend : context.backends) command += " --backend " + ShellQuote(backend);
  for (const std::string &other : context.against) command += " --against " + ShellQuote(other);
  if (!context.against.empty() && !context.against_device.empty()) {
    command += " --against-device " + ShellQuote(context.against_device);
  }
  if (!context.against.empty() && !context.against_device_ids.empty()) {
    command += " --against-device-ids " + ShellQuote(context.against_device_ids);
  }
  command += " --device " + ShellQuote(context.device);
  if (!context.device_ids.empty()) command += " --device-ids " + ShellQuote(context.device_ids);
  if (!context.timeout.empty()) command += " --timeout " + ShellQuote(context.timeout);
  // Suite and mode too: a perf case is not among the default modes.
  command += " --suite " + result.suite + " --mode " + result.mode;
  if (result.mode == "perf") {
    if (!context.profile.empty() && context.profile != "quick") command += " --profile " + ShellQuote(context.profile);
    if (!context.perf_budget_ms.empty()) command += " --perf-budget-ms " + ShellQuote(context.perf_budget_ms);
    if (context.cold_cache) command += " --cold-cache";
    if (!context.iters.empty()) command += " --iters " + ShellQuote(context.iters);
    if (!context.warmup.empty()) command += " --warmup " + ShellQuote(context.warmup);
    const auto bytes = result.params.find("bytes"), dtype = result.params.find("dtype");
    if (context.collective_sweep && result.suite == "ccl" && bytes != result.params.end() && bytes->is_number() &&
        dtype != result.params.end() && dtype->is_string()) {
      const std::string size = std::to_string(bytes->get<size_t>());
      command += " --coll " + ShellQuote(result.subject) + " --min-bytes " + size + " --max-bytes " + size +
                 " --dtype " + ShellQuote(dtype->get<std::string>());
      const auto op = result.params.find("op");
      if (op != result.params.end() && op->is_string()) command += " --reduce " + ShellQuote(op->get<std::string>());
    }
  }
  // A case of an operator's problem reruns from its problem line (docs/usage.md "Problem
  // lines"), which can be edited; a bad-descriptor variant's problem is no case of its own.
  const auto problem = result.params.find("problem");
  if (result.suite == "op" && problem != result.params.end() && problem->is_string() &&
      !result.params.contains("variant")) {
    command += " --op " + ShellQuote(result.subject) + " --problem " + ShellQuote(problem->get<std::string>());
  }
  command += " --filter " + ShellQuote(result.id);
  return command;
}

}  // namespace infinicts::runner
