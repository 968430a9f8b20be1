// main() of every suite binary. The runner starts it as
//   <suite> --cts-list
//   <suite> --cts-draw SUBJECT|all --cts-seed S --cts-count N      (infinicts fuzz)
//   <suite> --cts-shrink SUBJECT --cts-problem LINE                  (infinicts fuzz)
//   <suite> --cts-backend PATH… --cts-device TYPE [--cts-device-ids 0,1]
//           [--cts-cases FILE] [--cts-results-fd N] [--cts-spread RANK/RANKS --cts-input-fd N]
// (--cts-spread: this process drives one rank of each collective case, cts/rank_spread.h).
// Run by hand or by ctest without options, it tests the backend named by
// $INFINICTS_BACKEND (':'-separated paths) or else the reference build, on cpu.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cts/ad_hoc_problems.h"
#include "cts/call_tracing.h"
#include "cts/case.h"
#include "cts/case_list.h"
#include "cts/rank_spread.h"
#include "cts/result_stream.h"

#ifndef INFINICTS_SUITE_NAME
#error "INFINICTS_SUITE_NAME must name the suite (rt, op, ccl)"
#endif
#ifndef INFINICTS_DEFAULT_BACKEND
#define INFINICTS_DEFAULT_BACKEND ""
#endif

namespace {

using infinicts::cts::GetContext;

struct Options {
  bool list = false;
  std::vector<std::string> backends;
  std::string device = "cpu";
  std::string device_ids;
  std::string cases_file;
  int results_fd = -1;
  std::string spread;  // "RANK/RANKS"
  int input_fd = -1;
  std::string draw, shrink, problem;  // fuzzing: see cts/ad_hoc_problems.h ProblemFuzzing
  uint64_t seed = 1;
  size_t count = 1;
};

[[noreturn]] void Usage(const std::string &why) {
  std::fprintf(stderr, "infinicts suite %s: %s\n", INFINICTS_SUITE_NAME, why.c_str());
  std::exit(2);
}

std::vector<std::string> Split(const std::string &text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, separator)) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

Options ParseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Usage(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--cts-list") options.list = true;
    else if (arg == "--cts-backend") options.backends.push_back(value());
    else if (arg == "--cts-device") options.device = value();
    else if (arg == "--cts-device-ids") options.device_ids = value();
    else if (arg == "--cts-cases") options.cases_file = value();
    else if (arg == "--cts-results-fd") options.results_fd = std::atoi(value().c_str());
    else if (arg == "--cts-spread") options.spread = value();
    else if (arg == "--cts-input-fd") options.input_fd = std::atoi(value().c_str());
    else if (arg == "--cts-draw") options.draw = value();
    else if (arg == "--cts-shrink") options.shrink = value();
    else if (arg == "--cts-problem") options.problem = value();
    else if (arg == "--cts-seed") options.seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (arg == "--cts-count") options.count = std::strtoull(value().c_str(), nullptr, 10);
    else Usage("unknown option " + arg);
  }
  if (options.backends.empty()) {
    const char *env = std::getenv("INFINICTS_BACKEND");
    options.backends = Split(env && *env ? env : INFINICTS_DEFAULT_BACKEND, ':');
  }
  return options;
}

// "1/4" -> rank 1 of 4; the results and input pipes must be there to share through.
infinicts::cts::RankSpread ParseSpread(const Options &options) {
  infinicts::cts::RankSpread spread;
  char slash = 0;
  std::istringstream text(options.spread);
  if (!(text >> spread.rank >> slash >> spread.ranks) || slash != '/' || spread.rank < 0 ||
      spread.rank >= spread.ranks || !text.eof()) {
    Usage("--cts-spread wants RANK/RANKS (0/2), not '" + options.spread + "'");
  }
  if (options.results_fd < 0 || options.input_fd < 0) Usage("--cts-spread needs --cts-results-fd and --cts-input-fd");
  spread.results_fd = options.results_fd;
  spread.input_fd = options.input_fd;
  return spread;
}

std::vector<int> ResolveDeviceIds(const Options &options, infiniDevice_t type) {
  std::vector<int> ids;
  if (!options.device_ids.empty()) {
    for (const std::string &id : Split(options.device_ids, ',')) ids.push_back(std::atoi(id.c_str()));
    return ids;
  }
  int count = 0;
  if (infinicts::cts::rt().infinirtGetDeviceCount(type, &count) != INFINI_STATUS_SUCCESS) count = 0;
  for (int id = 0; id < count; ++id) ids.push_back(id);
  return ids;
}

// One seed per subject, the same on every build (FNV-1a of its name over the run's seed).
uint64_t SubjectSeed(uint64_t seed, const std::string &subject) {
  uint64_t hash = 1469598103934665603ull ^ seed;
  for (const char c : subject) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

// Prints "<subject> <problem line>" lines, as a problems file holds them: the draws of every
// subject asked for (each from its own seed: the run's seed and its name), or the ones
// simpler than a problem.
int PrintFuzzedProblems(const Options &options) {
  const auto &subjects = infinicts::cts::ProblemSubjects();
  const std::string &asked = options.draw.empty() ? options.shrink : options.draw;
  if (!options.shrink.empty() && asked == "all") Usage("--cts-shrink takes one operator");
  if (asked != "all" && (!subjects.count(asked) || !subjects.at(asked).draw)) Usage("no operator " + asked + " takes fuzzed problems");
  for (const auto &[subject, fuzzing] : subjects) {
    if (!fuzzing.draw || (asked != "all" && subject != asked)) continue;
    const std::vector<std::string> lines =
        options.draw.empty() ? fuzzing.shrink(options.problem) : fuzzing.draw(SubjectSeed(options.seed, subject), options.count);
    for (const std::string &line : lines) std::cout << subject << " " << line << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  const Options options = ParseOptions(argc, argv);
  // Problem lines ($INFINICTS_PROBLEMS) were read while the cases were declared.
  const std::vector<std::string> problem_errors = infinicts::cts::AdHocProblemErrors();
  if (!problem_errors.empty()) {
    for (const std::string &error : problem_errors)
      std::fprintf(stderr, "infinicts suite %s: %s\n", INFINICTS_SUITE_NAME, error.c_str());
    return 2;
  }

  if (!options.draw.empty() || !options.shrink.empty()) return PrintFuzzedProblems(options);

  if (options.list) {
    for (const auto &listed : infinicts::cts::ListRegisteredCases(INFINICTS_SUITE_NAME)) {
      std::cout << infinicts::cts::ToJson(listed).dump() << "\n";
    }
    return 0;
  }

  if (!options.spread.empty()) infinicts::cts::Spread() = ParseSpread(options);
  auto &context = GetContext();
  context.suite = INFINICTS_SUITE_NAME;
  std::string error;
  context.backend = infinicts::Backend::Load(options.backends, &error);
  if (!context.backend) Usage(error);
  infinicts::cts::TraceBackendCalls(*context.backend);
  const auto type = infinicts::ParseDeviceType(options.device);
  if (!type) Usage("unknown device type " + options.device);
  context.device_type = *type;
  context.backend->rt().infinirtInit();
  context.device_ids = ResolveDeviceIds(options, *type);

  if (!options.cases_file.empty()) {
    std::ifstream file(options.cases_file);
    if (!file) Usage("cannot read " + options.cases_file);
    std::string line, filter;
    while (std::getline(file, line)) {
      if (line.empty()) continue;
      if (!filter.empty()) filter += ':';
      filter += line;
    }
    if (filter.empty()) return 0;
    GTEST_FLAG_SET(filter, filter);
  }
  if (options.results_fd >= 0) {
    testing::UnitTest::GetInstance()->listeners().Append(new infinicts::cts::ResultStream(options.results_fd));
    infinicts::cts::InstallCrashReporter();
  }
  const int failed = RUN_ALL_TESTS();
  // Under the runner the results pipe says how each case ended: any other exit status (a
  // sanitizer's at exit, a backend crashing while it unloads) is the runner's to report.
  return options.results_fd >= 0 ? 0 : failed;
}
