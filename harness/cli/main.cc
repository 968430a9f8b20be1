// The `infinicts` command: list, run, info (CONTRACT.md "The command").
#include <CLI/CLI.hpp>

#include <cstdio>

#include "cli/commands.h"
#include "report/run_facts.h"

namespace {

using namespace infinicts::cli;

const char *const kSuites[] = {"rt", "op", "ccl"};

// A validator that checks without adding its description to the option's help line
// (the type name already shows the choices).
CLI::Validator Quiet(CLI::Validator validator) {
  validator.description("");
  return validator;
}

// Each occurrence takes one value, commas split it, occurrences accumulate.
CLI::Option *ListOption(CLI::App *app, const std::string &name, std::vector<std::string> *values,
                        const std::string &help) {
  return app->add_option(name, *values, help)
      ->delimiter(',')
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
}

void AddSelectionOptions(CLI::App *command, std::vector<std::string> *suites, std::vector<std::string> *modes,
                         std::vector<std::string> *filters) {
  ListOption(command, "--suite", suites, "suites to take, comma-separated (default: every suite built)")
      ->type_name("rt,op,ccl")
      ->check(Quiet(CLI::IsMember({kSuites[0], kSuites[1], kSuites[2]})));
  ListOption(command, "--mode", modes, "modes to take, comma-separated (default: conformance,accuracy)")
      ->type_name("conformance,accuracy,perf")
      ->check(Quiet(CLI::IsMember({"conformance", "accuracy", "perf"})));
  ListOption(command, "--filter", filters,
             "fnmatch globs on case ids, comma-separated; a glob starting with '-' excludes "
             "(write --filter=-GLOB when the first one does)")
      ->type_name("GLOB");
}

}  // namespace

int main(int argc, char **argv) {
  CLI::App app{"infinicts: conformance and performance suites for InfiniCore backends (InfiniRT, InfiniOP, "
               "InfiniCCL)",
               "infinicts"};
  const infinicts::report::ToolInfo tool = infinicts::report::ToolInfo::ThisBuild();
  app.set_version_flag("--version", "infinicts " + tool.version + " (" + tool.git + ")");
  app.require_subcommand(1);

  ListOptions list;
  CLI::App *list_command = app.add_subcommand("list", "print the ids of the selected cases, one a line");
  AddSelectionOptions(list_command, &list.suites, &list.modes, &list.filters);

  RunOptions run;
  double timeout = kDefaultTimeoutSeconds;
  std::string level;
  CLI::App *run_command = app.add_subcommand("run", "run the selected cases against a backend and write a JSON report");
  ListOption(run_command, "--backend", &run.backends,
             "a directory holding libinfinirt.so / libinfiniop.so / libinfiniccl.so, or one library; repeatable")
      ->type_name("DIR|LIB")
      ->delimiter('\0')
      ->required();
  run_command->add_option("--device", run.device, "device type: cpu, nvidia, another type name, or its number")
      ->type_name("cpu|nvidia|NAME|INT")
      ->required();
  run_command->add_option("--device-ids", run.device_ids, "the devices to use (default: every device of the type)")
      ->type_name("0,1");
  AddSelectionOptions(run_command, &run.suites, &run.modes, &run.filters);
  run_command->add_option("--level", level,
                          "take only the cases of a conformance level; exit 1 unless the run reaches it")
      ->type_name("minimal|advanced")
      ->check(Quiet(CLI::IsMember({"minimal", "advanced"})));
  CLI::Option *timeout_option =
      run_command->add_option("--timeout", timeout, "seconds a case may run before it is killed as `timeout` (default 60)")
          ->type_name("SECONDS")
          ->check(Quiet(CLI::PositiveNumber));
  run_command->add_option("--out", run.out, "report file (default: reports/out/<device>-<yyyymmdd-hhmmss>.json)")
      ->type_name("FILE.json");
  run_command->add_flag("--quiet", run.quiet, "no progress line: print only failing cases and the summary");
  run_command->footer("Exit codes: 0 nothing failed, crashed or timed out (and the --level was reached); 1 otherwise; "
                      "2 bad usage or a backend that cannot be loaded.");

  InfoOptions info;
  CLI::App *info_command = app.add_subcommand("info", "print what a backend exports and which devices it reports");
  ListOption(info_command, "--backend", &info.backends, "a backend directory or library; repeatable")
      ->type_name("DIR|LIB")
      ->delimiter('\0')
      ->required();
  info_command->add_option("--device", info.device, "device type: cpu, nvidia, another type name, or its number")
      ->type_name("cpu|nvidia|NAME|INT")
      ->required();

  app.footer("Exit codes: 0 success; 1 a case failed, crashed or timed out; 2 bad usage or a backend that cannot be "
             "loaded. `infinicts SUBCOMMAND --help` tells more.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &error) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (list_command->parsed()) return ListCommand(list);
  if (info_command->parsed()) return InfoCommand(info);
  run.timeout_s = timeout;
  if (!level.empty()) run.level = level;
  if (timeout_option->count() > 0) run.timeout_text = timeout_option->as<std::string>();
  run.argv.assign(argv, argv + argc);
  return RunCommand(run);
}
