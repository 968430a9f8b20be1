// The `infinicts` command: list, run, merge, compare, report, info (docs/usage.md "Commands").
#include <CLI/CLI.hpp>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/case_selection.h"
#include "cli/checked_values.h"
#include "cli/commands.h"
#include "cli/fuzz_command.h"
#include "cli/suggest.h"
#include "report/run_facts.h"

namespace {

using namespace infinicts::cli;

const char *const kSuites[] = {"rt", "op", "ccl"};
constexpr double kMinTimeoutSeconds = 0.01;
constexpr double kMaxTimeoutSeconds = 86400;  // a day: beyond it a hang is not a case's time
constexpr double kMaxPerfBudgetMs = 600000;   // ten minutes of timed iterations per case
constexpr double kMaxRepeat = 100;            // passes over the perf cases
constexpr double kMinThreshold = 0.0001;
constexpr double kMaxThreshold = 100;

// Parse errors in one line, as every other usage error: "infinicts: <what>".
std::string OneLineFailure(const CLI::App *, const CLI::Error &error) {
  return std::string("infinicts: ") + error.what() + " (`infinicts --help` tells more)\n";
}

// The flag of `subcommand` nearest a mistyped one, for the error that names it.
std::string FlagSuggestion(CLI::App *subcommand, int argc, char **argv) {
  std::vector<std::string> flags;
  for (const CLI::Option *option : subcommand->get_options()) {
    for (const std::string &name : option->get_lnames()) flags.push_back("--" + name);
  }
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.rfind("--", 0) != 0) continue;
    word = word.substr(0, word.find('='));
    if (std::find(flags.begin(), flags.end(), word) != flags.end()) continue;
    const std::string nearest = NearestWord(word, flags);
    if (!nearest.empty()) return "; did you mean " + nearest + "?";
  }
  return "";
}

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

// --backend and --device, as run, fuzz and info take them; --device-ids too where `device_ids`.
void AddBackendOptions(CLI::App *command, std::vector<std::string> *backends, std::string *device,
                       std::string *device_ids, const std::string &backend_help) {
  ListOption(command, "--backend", backends, backend_help)->type_name("DIR|LIB")->delimiter('\0')->required();
  command->add_option("--device", *device, "device type: cpu, nvidia, another type name, or its number")
      ->type_name("cpu|nvidia|NAME|INT")
      ->required();
  if (device_ids) {
    command->add_option("--device-ids", *device_ids, "the devices to use (default: every device of the type)")
        ->type_name("0,1");
  }
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
      ->type_name("GLOB")
      ->check(WellFormedGlob());
}

void AddProblemOptions(CLI::App *command, ProblemOptions *problems) {
  command->add_option("--op", problems->op, "the operator of --problem (its snake_case name: rms_norm)")
      ->type_name("NAME");
  command->add_option("--problem", problems->problems,
                      "a problem of --op in the problem grammar, run instead of the operator's compiled-in ones "
                      "(docs/usage.md \"Problem lines\"); repeatable")
      ->type_name("'LINE'")
      ->delimiter('\0');
  command->add_option("--cases", problems->cases_file,
                      "a file of problem lines, `<operator> <problem>` each, run instead of the compiled-in problems")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
}

void AddSweepOptions(CLI::App *command, CollectiveSweepOptions *sweep) {
  command->add_option("--coll", sweep->collective,
                      "sweep one collective's perf cases as nccl-tests does (all_reduce, all_gather, reduce_scatter, "
                      "broadcast, all_gather_v, reduce_scatter_v, or all) instead of the compiled-in sizes")
      ->type_name("NAME");
  command->add_option("--min-bytes", sweep->min_bytes, "the sweep's first size (nccl-tests -b; K, M, G; default 8)")
      ->type_name("BYTES");
  command->add_option("--max-bytes", sweep->max_bytes,
                      "the sweep's last size at most (nccl-tests -e; default 64M, or --min-bytes when larger)")
      ->type_name("BYTES");
  command->add_option("--step-factor", sweep->step_factor, "each size times this gives the next (nccl-tests -f; default 2)")
      ->type_name("N");
  command->add_option("--dtype", sweep->dtype, "the sweep's dtype (nccl-tests -d; default f32)")->type_name("DTYPE");
  command->add_option("--reduce", sweep->reduce, "the reductions' operation (nccl-tests -o: sum, prod, max, min, avg; "
                      "default sum)")
      ->type_name("OP");
}

CLI::Option *AddProfileOption(CLI::App *command, std::string *profile) {
  return command->add_option("--profile", *profile, "perf sweep size: quick (default) or full (every shape and size)")
      ->type_name("quick|full")
      ->check(Quiet(CLI::IsMember({"quick", "full"})));
}

// The suites read what shapes the perf cases have and how long they are timed from
// the environment the runner passes on to them.
void ExportPerfSettings(const std::string &profile, double budget_ms, bool cold_cache, int iters = 0, int warmup = -1) {
  setenv("INFINICTS_PROFILE", profile.c_str(), 1);
  if (iters > 0) setenv("INFINICTS_PERF_ITERS", std::to_string(iters).c_str(), 1);
  if (warmup >= 0) setenv("INFINICTS_PERF_WARMUP", std::to_string(warmup).c_str(), 1);
  if (budget_ms > 0) setenv("INFINICTS_PERF_BUDGET_MS", std::to_string(budget_ms).c_str(), 1);
  if (cold_cache) setenv("INFINICTS_PERF_COLD_CACHE", "1", 1);
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
  CLI::App *list_command =
      app.add_subcommand("list", "print the ids of the selected cases, one a line, and (on stderr) how many");
  AddSelectionOptions(list_command, &list.suites, &list.modes, &list.filters);
  AddProfileOption(list_command, &list.profile);
  list_command->add_flag("--long", list.long_format, "each case's clauses and parameters after its id, tab-separated");
  AddProblemOptions(list_command, &list.problems);
  AddSweepOptions(list_command, &list.sweep);

  RunOptions run;
  double timeout = kDefaultTimeoutSeconds;
  std::string level;
  CLI::App *run_command = app.add_subcommand("run", "run the selected cases against a backend and write a JSON report");
  AddBackendOptions(run_command, &run.backends, &run.device, &run.device_ids,
                    "a directory holding libinfinirt.so / libinfiniop.so / libinfiniccl.so, or one library; repeatable");
  ListOption(run_command, "--against", &run.against,
             "another backend (directory or library; repeatable) to run the same problems on first: outputs "
             "compared case by case (accuracy/matches_against), perf medians side by side")
      ->type_name("DIR|LIB")
      ->delimiter('\0');
  run_command->add_option("--against-device", run.against_device,
                          "the --against backend's device type (default: --device's): a vendor's accelerator "
                          "against the CPU reference")
      ->type_name("cpu|nvidia|NAME|INT");
  run_command->add_option("--against-device-ids", run.against_device_ids,
                          "the --against backend's devices (default: --device-ids with the same device type, "
                          "else every device of its type)")
      ->type_name("0,1");
  AddSelectionOptions(run_command, &run.suites, &run.modes, &run.filters);
  run_command->add_option("--level", level,
                          "take only the cases of a conformance level; exit 1 unless the run reaches it")
      ->type_name("minimal|advanced")
      ->check(Quiet(CLI::IsMember({"minimal", "advanced"})));
  CLI::Option *timeout_option =
      run_command->add_option("--timeout", timeout, "seconds a case may run before it is killed as `timeout` (default 60)")
          ->type_name("SECONDS")
          ->check(NumberWithin(kMinTimeoutSeconds, kMaxTimeoutSeconds, "seconds"));
  run_command->add_option("--out", run.out, "report file (default: reports/out/<device>-<yyyymmdd-hhmmss>.json)")
      ->type_name("FILE.json");
  run_command->add_flag("--quiet", run.quiet, "no progress line: print only failing cases and the summary");
  run_command->add_option("--expect", run.expect_file,
                          "expectations file: lines `xfail|flaky|skip GLOB [# why]` (known failures end `xfail`, "
                          "flaky cases are rerun to confirm, skips are not run)")
      ->type_name("FILE")
      ->check(CLI::ExistingFile);
  AddProfileOption(run_command, &run.profile);
  AddProblemOptions(run_command, &run.problems);
  AddSweepOptions(run_command, &run.sweep);
  run_command->add_option("--iters", run.iters,
                          "timed iterations of every perf case, whatever --perf-budget-ms (nccl-tests -n)")
      ->type_name("N")
      ->check(NumberWithin(1, 1000000, "iterations"));
  run_command->add_option("--warmup", run.warmup, "warm-up iterations of every perf case (nccl-tests -w)")
      ->type_name("N")
      ->check(NumberWithin(0, 1000000, "iterations"));
  run_command->add_option("--perf-budget-ms", run.perf_budget_ms,
                          "time each perf case spends on timed iterations (default 100)")
      ->type_name("MS")
      ->check(NumberWithin(1, kMaxPerfBudgetMs, "milliseconds"));
  run_command->add_option("--repeat", run.repeat,
                          "run the perf cases N times over, pass after pass, and keep every pass's median: compare "
                          "then holds a slowdown against the spread between passes (default 1)")
      ->type_name("N")
      ->check(NumberWithin(1, kMaxRepeat, "passes"));
  run_command->add_flag("--cold-cache", run.cold_cache, "perf: flush the device's caches before every timed iteration");
  run_command->add_flag("--allow-no-device", run.allow_no_device,
                        "a device type of which the backend has no device: skip every case and exit 0 (else exit 2; "
                        "exit 1 with --level, which such a run cannot judge)");
  run_command->add_option("--shard", run.shard,
                          "run only the K-th of N parts of the selected cases, balanced by expected duration; "
                          "`infinicts merge` joins the N reports")
      ->type_name("K/N");
  run_command->footer("Exit codes: 0 nothing failed, crashed or timed out (and the --level was reached); 1 otherwise; "
                      "2 bad usage or a backend that cannot be loaded.");

  FuzzOptions fuzz;
  std::string budget = "60s";
  CLI::App *fuzz_command = app.add_subcommand(
      "fuzz", "run random problems of the operators against the oracle; shrink each failure to a minimal problem line");
  AddBackendOptions(fuzz_command, &fuzz.backends, &fuzz.device, &fuzz.device_ids,
                    "a backend directory or library; repeatable");
  fuzz_command->add_option("--op", fuzz.op, "the operator to fuzz, or all (default)")->type_name("NAME|all");
  fuzz_command->add_option("--seed", fuzz.seed, "the draws' seed: the same seed draws the same problems (default 1)")
      ->type_name("S");
  fuzz_command->add_option("--budget", budget, "time to spend drawing problems: 60s, 5m, 1h (default 60s); shrinking "
                                               "a failure found goes on past it")
      ->type_name("TIME");
  fuzz_command->add_option("--draws", fuzz.draws, "problems per operator in each round (default 8)")
      ->type_name("N")
      ->check(NumberWithin(1, 10000, "problems"));
  fuzz_command->add_option("--timeout", fuzz.timeout_s, "seconds a case may run (default 60)")
      ->type_name("SECONDS")
      ->check(NumberWithin(kMinTimeoutSeconds, kMaxTimeoutSeconds, "seconds"));
  fuzz_command->add_option("--out", fuzz.out, "report file (default: reports/out/fuzz-<device>-<yyyymmdd-hhmmss>.json)")
      ->type_name("FILE.json");
  fuzz_command->footer("Exit codes: 0 no problem failed; 1 one failed (each shrunk and printed with its rerun line); "
                       "2 bad usage, a backend that cannot be loaded, or an operator that takes no problem lines.");

  MergeOptions merge;
  CLI::App *merge_command = app.add_subcommand("merge", "join the reports of a sharded run (--shard K/N) into one report");
  merge_command->add_option("shards", merge.inputs, "the shards' reports")->type_name("SHARD.json")->required();
  merge_command->add_option("--out", merge.out, "the joined report")->type_name("FILE.json")->required();
  merge_command->add_flag("--allow-partial", merge.allow_partial,
                          "a set with shards missing: exit as the joined cases say (else exit 1)");
  merge_command->footer("Exit codes: 0 the joined report holds no failure, crash or timeout; 1 it holds one, or a "
                        "shard is missing (unless --allow-partial); "
                        "2 bad usage, an unreadable report, or reports that overlap or come from different "
                        "builds, backends, device types or selections.");

  ShowOptions show;
  CLI::App *show_command = app.add_subcommand("show", "print one case's whole record from a report");
  show_command->add_option("id", show.id, "the case's id, or a glob of ids")->type_name("ID")->required();
  show_command->add_option("report", show.report, "the report")->type_name("FILE.json")->required()
      ->check(CLI::ExistingFile);

  InfoOptions info;
  CLI::App *info_command = app.add_subcommand("info", "print what a backend exports and which devices it reports");
  AddBackendOptions(info_command, &info.backends, &info.device, nullptr, "a backend directory or library; repeatable");

  CompareOptions compare;
  CLI::App *compare_command =
      app.add_subcommand("compare", "compare a report with one or more baselines: conformance changes, accuracy "
                                    "drift, performance ratios");
  compare_command
      ->add_option("reports", compare.reports,
                   "baseline reports, then the report to judge; several baselines (runs of one build) show how "
                   "much its times vary from run to run, and a slowdown must exceed that too")
      ->type_name("BASE.json [BASE2.json ...] NEW.json")
      ->expected(2, CLI::detail::expected_max_vector_size)
      ->required()
      ->check(CLI::ExistingFile);
  compare_command->add_option("--threshold", compare.threshold,
                              "relative performance change below which nothing counts (default 0.05)")
      ->type_name("FRACTION")
      ->check(NumberWithin(kMinThreshold, kMaxThreshold, "as a fraction: 0.05 is 5 %"));
  compare_command->add_option("--md", compare.md, "write the comparison as Markdown")->type_name("FILE");
  compare_command->add_option("--md-append", compare.md_append,
                              "add the comparison as Markdown at the end of FILE (a CI job summary)")
      ->type_name("FILE");
  compare_command->add_option("--html", compare.html, "write the comparison as a self-contained HTML page")
      ->type_name("FILE");
  compare_command->footer("Exit codes: 0 no regression; 1 a regression (a case newly failing, an accuracy loss "
                          "or a slowdown beyond the threshold and the runs' spread, between the baselines and within each "
                          "run); 2 bad usage or an unreadable report.");

  ReportOptions report_options;
  CLI::App *report_command = app.add_subcommand("report", "render a report as HTML, Markdown or JUnit XML");
  report_command->add_option("input", report_options.input, "the report")->type_name("FILE.json")->required()
      ->check(CLI::ExistingFile);
  report_command->add_option("--html", report_options.html, "self-contained HTML page with inline SVG charts")
      ->type_name("FILE");
  report_command->add_option("--md", report_options.md,
                             "Markdown summary; appended to when FILE is $GITHUB_STEP_SUMMARY, replaced otherwise")
      ->type_name("FILE");
  report_command->add_option("--md-append", report_options.md_append,
                             "add the Markdown summary at the end of FILE (a CI job summary)")
      ->type_name("FILE");
  report_command->add_option("--junit", report_options.junit, "JUnit XML, one testcase per case")->type_name("FILE");
  ListOption(report_command, "--benchmark", &report_options.benchmarks,
             "a Google Benchmark JSON file (--benchmark_out) to show with the report; repeatable")
      ->type_name("FILE")
      ->delimiter('\0')
      ->check(CLI::ExistingFile);

  app.footer("Exit codes: 0 success; 1 a case failed, crashed or timed out; 2 bad usage or a backend that cannot be "
             "loaded. `infinicts SUBCOMMAND --help` tells more.");
  app.failure_message(OneLineFailure);
  // A mistyped subcommand would read "A subcommand is required": name the nearest instead.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App *command : app.get_subcommands({})) names.push_back(command->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      const std::string nearest = NearestWord(argv[1], names);
      std::string known;
      for (const std::string &name : names) known += (known.empty() ? "" : ", ") + name;
      return UsageError("'" + std::string(argv[1]) + "' is not a command" +
                        (nearest.empty() ? "" : "; did you mean `infinicts " + nearest + "`?") + " (commands: " + known +
                        ")");
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &error) {
    if (dynamic_cast<const CLI::ExtrasError *>(&error) != nullptr) {
      for (CLI::App *command : app.get_subcommands({})) {
        if (command->parsed() || (argc > 1 && command->get_name() == argv[1])) {
          std::fprintf(stderr, "infinicts: %s%s\n", error.what(), FlagSuggestion(command, argc, argv).c_str());
          return kExitUsage;
        }
      }
    }
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitUsage;
  }

  if (list_command->parsed()) {
    ExportPerfSettings(list.profile, 0, false);
    return ListCommand(list);
  }
  if (compare_command->parsed()) return CompareCommand(compare);
  if (report_command->parsed()) return ReportCommand(report_options);
  if (info_command->parsed()) return InfoCommand(info);
  if (show_command->parsed()) return ShowCommand(show);
  if (fuzz_command->parsed()) {
    if (!ParseBudget(budget, &fuzz.budget_s)) return UsageError("--budget wants a time such as 60s, 5m or 1h, not '" + budget + "'");
    fuzz.argv.assign(argv, argv + argc);
    return FuzzCommand(fuzz);
  }
  if (merge_command->parsed()) {
    merge.argv.assign(argv, argv + argc);
    return MergeCommand(merge);
  }
  ExportPerfSettings(run.profile, run.perf_budget_ms, run.cold_cache, run.iters, run.warmup);
  run.timeout_s = timeout;
  if (!level.empty()) run.level = level;
  if (timeout_option->count() > 0) run.timeout_text = timeout_option->as<std::string>();
  run.argv.assign(argv, argv + argc);
  return RunCommand(run);
}
