#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "report/atomic_file.h"
#include "report/levels.h"
#include "report/report.h"
#include "run_cli.h"

namespace infinicts::report {
namespace {

CaseResult Result(const std::string &suite, const std::string &subject, Status status, const std::string &test = "t") {
  CaseResult result;
  result.suite = suite;
  result.subject = subject;
  result.mode = "conformance";
  result.id = suite + "." + subject + ".conformance/" + test;
  result.status = status;
  return result;
}

void AddMinimalPasses(LevelTally *tally) {
  for (const char *subject : {"device", "stream", "memory", "guard"}) tally->Add(Result("rt", subject, Status::kPass));
  tally->Add(Result("op", "gemm", Status::kPass));
}

TEST(Levels, MinimalNeedsEveryPartPassing) {
  LevelTally tally;
  AddMinimalPasses(&tally);
  LevelOutcomes outcomes = tally.Evaluate();
  EXPECT_TRUE(outcomes.minimal.reached);
  EXPECT_FALSE(outcomes.advanced.reached);
  EXPECT_EQ(outcomes.advanced.reasons, (std::vector<std::string>{"rt.event cases not run", "ccl suite not run"}));

  tally.Add(Result("rt", "event", Status::kPass));
  tally.Add(Result("ccl", "all_reduce", Status::kPass));
  tally.Add(Result("ccl", "comm", Status::kSkip));  // skip is neutral
  EXPECT_TRUE(tally.Evaluate().advanced.reached);
}

TEST(Levels, EachBlockingStatusKeepsTheLevel) {
  for (Status status :
       {Status::kFail, Status::kUnsupported, Status::kBlocked, Status::kCrash, Status::kTimeout, Status::kXfail}) {
    LevelTally tally;
    AddMinimalPasses(&tally);
    tally.Add(Result("op", "add", status, "bad"));
    const LevelOutcomes outcomes = tally.Evaluate();
    EXPECT_FALSE(outcomes.minimal.reached) << StatusName(status);
    EXPECT_TRUE(outcomes.minimal.judged);
    EXPECT_STREQ(outcomes.minimal.Verdict(), "not reached");
    ASSERT_EQ(outcomes.minimal.reasons.size(), 1u);
    // Failures show by root cause, the rest by part.
    // The one case of op.add failed: its group says so (a blocked case's says what blocks it).
    const std::string where = status == Status::kBlocked ? " in op.add" : " in op.add on every case";
    EXPECT_EQ(outcomes.minimal.reasons[0],
              IsFailure(status) ? std::string("1 ") + StatusName(status) + where + ": (no message) (op.add.conformance/bad)"
                                : std::string("op.add: 1 ") + StatusName(status) + " (first: op.add.conformance/bad)");
  }
}

TEST(Levels, PerfResultsNeitherReachNorBlockALevel) {
  LevelTally tally;
  CaseResult slow = Result("op", "gemm", Status::kFail, "slow");
  slow.mode = "perf";
  tally.Add(slow);
  EXPECT_EQ(tally.Evaluate().minimal.reasons.back(), "op suite not run");
  AddMinimalPasses(&tally);
  EXPECT_TRUE(tally.Evaluate().minimal.reached);
}

TEST(Levels, APartWhoseCasesWereAllSkippedWasNotTested) {
  LevelTally tally;
  for (const char *subject : {"device", "stream", "memory", "guard"}) tally.Add(Result("rt", subject, Status::kPass));
  tally.Add(Result("op", "gemm", Status::kSkip));
  const LevelOutcomes outcomes = tally.Evaluate();
  EXPECT_FALSE(outcomes.minimal.reached);
  EXPECT_EQ(outcomes.minimal.reasons, std::vector<std::string>{"op.gemm: all 1 cases skipped"});
}

TEST(Levels, OneRootCauseIsOneLineHoweverManyPartsItReaches) {
  LevelTally tally;
  AddMinimalPasses(&tally);
  for (const char *op : {"add", "gemm", "rope"}) {
    CaseResult blocked = Result("op", op, Status::kBlocked, "null_stream");
    blocked.message = "infinirtMalloc answered SUCCESS with a NULL pointer for " + std::to_string(std::strlen(op) * 64) +
                      " bytes; blocked by RT-MEM-2, which rt.memory.conformance/malloc_sizes/* checks";
    tally.Add(blocked);
  }
  const LevelOutcome minimal = tally.Evaluate().minimal;
  ASSERT_EQ(minimal.reasons.size(), 1u);
  EXPECT_EQ(minimal.reasons[0].rfind("3 blocked in op.add, op.gemm, op.rope: infinirtMalloc answered SUCCESS with a NULL "
                                     "pointer for 192 bytes; "
                                     "blocked by RT-MEM-2",
                                     0),
            0u)
      << minimal.reasons[0];
  EXPECT_NE(minimal.reasons[0].find("(e.g. op.add.conformance/null_stream, op.gemm.conformance/null_stream, "
                                    "op.rope.conformance/null_stream)"),
            std::string::npos)
      << minimal.reasons[0];
  const std::vector<PartVerdict> parts = tally.Parts();
  ASSERT_EQ(parts.size(), 7u);
  EXPECT_EQ(parts[0].part, "rt.device");
  EXPECT_EQ(parts[4].part, "op.add");
  EXPECT_EQ(parts[4].verdict, "fail");
  EXPECT_EQ(parts[5].part, "op.gemm");
  EXPECT_EQ(parts[5].verdict, "fail");  // one pass, one blocked
}

TEST(Levels, ANarrowedOrUnfinishedRunJudgesNoLevel) {
  LevelTally tally;
  AddMinimalPasses(&tally);
  tally.Add(Result("rt", "event", Status::kPass));
  tally.Add(Result("ccl", "all_reduce", Status::kPass));
  EXPECT_TRUE(tally.Evaluate().advanced.reached);

  RunScope filtered;
  filtered.narrowed = {"--filter rt.* selected 3 of 9 cases"};
  const LevelOutcomes narrowed = tally.Evaluate(filtered);
  for (const LevelOutcome &outcome : {narrowed.minimal, narrowed.advanced}) {
    EXPECT_FALSE(outcome.reached);
    EXPECT_FALSE(outcome.judged);
    EXPECT_STREQ(outcome.Verdict(), "not judged");
    EXPECT_EQ(outcome.reasons, std::vector<std::string>{"--filter rt.* selected 3 of 9 cases"});
  }

  RunScope killed;
  killed.complete = false;
  EXPECT_EQ(tally.Evaluate(killed).minimal.Verdict(), std::string("not judged"));

  RunScope minimal_only;
  minimal_only.minimal_only = true;
  const LevelOutcomes only = tally.Evaluate(minimal_only);
  EXPECT_TRUE(only.minimal.reached);
  EXPECT_STREQ(only.advanced.Verdict(), "not judged");

  RunScope perf;
  perf.conformance_modes = false;
  EXPECT_FALSE(tally.Evaluate(perf).minimal.judged);
}

TEST(RootCauses, OneShapeForMessagesThatDifferInNumbersOnly) {
  EXPECT_EQ(MessageShape("OP-ACC-1: output c: i32 [7, 31] strides [31, 1] offset 0: 3 of 217 elements"),
            MessageShape("OP-ACC-1: output c: i32 [2, 3, 5] strides [15, 5, 1] offset 4: 30 of 30 elements"));
  EXPECT_NE(MessageShape("RT-MEM-2: malloc answered SUCCESS with NULL"), MessageShape("RT-MEM-4: malloc answered SUCCESS with NULL"))
      << "the clause's own number stays";
  EXPECT_EQ(FirstClauseIn("blocked by RT-STREAM-2, which …"), "RT-STREAM-2");
  EXPECT_EQ(WithOperatorAbstracted("infiniopCreateGemmDescriptor"), "infiniopCreate<X>Descriptor");
  EXPECT_EQ(WithOperatorAbstracted("infiniopGetRMSNormWorkspaceSize"), "infiniopGet<X>WorkspaceSize");
  EXPECT_EQ(WithOperatorAbstracted("infiniopGetDescriptorDeviceType"), "infiniopGetDescriptorDeviceType");
  EXPECT_EQ(WithOperatorAbstracted("infinirtMalloc"), "infinirtMalloc");
}

// A case of op.<subject>'s accuracy test with a dtype and a layout, failing with `message` or passing.
CaseResult AccuracyCase(const std::string &subject, const std::string &test, const std::string &dtype,
                        const std::string &layout, const std::string &message) {
  CaseResult result = Result("op", subject, message.empty() ? Status::kPass : Status::kFail,
                             test + "/" + dtype + "__x_" + layout);
  result.mode = "accuracy";
  result.id = "op." + subject + ".accuracy/" + test + "/" + dtype + "/x_" + layout;
  result.params = nlohmann::json{{"dtype", dtype}, {"x_layout", layout}};
  result.message = message.empty() ? "" : message + "\nrerun: infinicts run --filter " + result.id;
  return result;
}

// Three bugs, each in its own operator, each seen in 4 dtypes x 3 layouts x 2 clauses (the
// accuracy clause in one test, the memory clause in another), with the contiguous cases passing
// and different numbers in every message: three groups, each headed by its own subject, each
// naming the layouts that trigger it and a case to rerun.
TEST(RootCauses, OneBugIsOneGroupAcrossDtypesLayoutsAndClauses) {
  RootCauses causes;
  int n = 0;
  for (const char *subject : {"softplus", "conv", "log_softmax"}) {
    for (const char *dtype : {"f16", "bf16", "f32", "f64"}) {
      for (const char *layout : {"contiguous", "transposed", "broadcast", "flipped"}) {
        const bool failing = std::string(layout) != "contiguous";
        ++n;
        causes.Add(AccuracyCase(subject, "matches_oracle", dtype, layout,
                                failing ? "OP-ACC-1: output y: " + std::string(dtype) + " [" + std::to_string(n) +
                                              ", 7]: " + std::to_string(n % 5 + 1) + " of 90 elements differ"
                                        : ""));
        causes.Add(AccuracyCase(subject, "gaps_untouched", dtype, layout,
                                failing ? "OP-MEM-1: output y: the operator wrote " + std::to_string(n * 3) +
                                              " storage elements its layout does not address"
                                        : ""));
      }
    }
  }
  const std::vector<RootCauseGroup> groups = causes.Groups();
  ASSERT_EQ(groups.size(), 3u);
  std::set<std::string> subjects;
  for (const RootCauseGroup &group : groups) {
    EXPECT_EQ(group.count, 24);
    ASSERT_EQ(group.subjects.size(), 1u);
    subjects.insert(group.subjects.front());
    EXPECT_EQ(group.trigger, "x_layout ∈ {broadcast, flipped, transposed}");
    EXPECT_EQ(group.rerun.rfind("infinicts run --filter op." + group.subjects.front().substr(3), 0), 0u) << group.rerun;
  }
  EXPECT_EQ(subjects, (std::set<std::string>{"op.conv", "op.log_softmax", "op.softplus"}));
}

// Two bugs in one operator are two groups: one on a dtype, one on a layout.
TEST(RootCauses, TwoBugsOfOneSubjectAreTwoGroups) {
  RootCauses causes;
  for (const char *dtype : {"f32", "f64"}) {
    for (const char *layout : {"contiguous", "transposed"}) {
      std::string message;
      if (std::string(dtype) == "f64") message = "OP-ACC-1: 9 of 90 elements differ (f64 computed in f32)";
      if (std::string(layout) == "transposed" && message.empty()) message = "OP-ACC-1: 30 of 90 elements differ";
      causes.Add(AccuracyCase("hardswish", "matches_oracle", dtype, layout, message));
    }
  }
  for (const char *layout : {"contiguous", "padded"}) {
    causes.Add(AccuracyCase("hardswish", "matches_oracle", "f16", layout, ""));
  }
  const std::vector<RootCauseGroup> groups = causes.Groups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].trigger, "dtype = f64");
  EXPECT_EQ(groups[0].count, 2);
  EXPECT_EQ(groups[1].trigger, "x_layout = transposed");
  EXPECT_EQ(groups[1].count, 1);
}

// A NULL argument left unchecked is one group over every operator; a blocking clause is one group.
TEST(RootCauses, CrashesOnInvalidInputGroupByCallAndArgument) {
  RootCauses causes;
  for (const char *subject : {"gemm", "add", "relu"}) {
    const std::string name = std::string(subject) == "gemm" ? "Gemm" : std::string(subject) == "add" ? "Add" : "Relu";
    CaseResult crashed = Result("op", subject, Status::kCrash, "create_null_pointers/f32");
    crashed.crash_on_invalid_input = true;
    crashed.message = "the suite process was killed by signal 11 (SIGSEGV) during this case, on invalid input, in the "
                      "backend call infiniopCreate" + name + "Descriptor(handle = NULL)";
    causes.Add(crashed);
    crashed.id = "op." + std::string(subject) + ".conformance/compute_null_pointers/f32";
    crashed.message = "the suite process was killed by signal 11 (SIGSEGV) during this case, on invalid input, in the "
                      "backend call infiniop" + name + "(desc = NULL)";
    causes.Add(crashed);
    CaseResult blocked = Result("op", subject, Status::kBlocked, "two_streams/f32");
    blocked.message = "infinirtStreamCreate answered SUCCESS with the same stream twice, and this case needs distinct "
                      "streams; blocked by RT-STREAM-2, which rt.stream.conformance/create_distinct checks";
    causes.Add(blocked);
    causes.Add(Result("op", subject, Status::kPass, "matches_oracle/f32"));
  }
  const std::vector<RootCauseGroup> groups = causes.Groups();
  ASSERT_EQ(groups.size(), 3u);
  for (const RootCauseGroup &group : groups) {
    EXPECT_EQ(group.count, 3);
    EXPECT_EQ(group.subjects.size(), 3u);
  }
}

TEST(Levels, ARefusedOptionalCapabilityIsListedNotBlocking) {
  LevelTally tally;
  AddMinimalPasses(&tally);
  CaseResult f64 = Result("op", "gemm", Status::kUnsupported, "f64");
  f64.optional_capability = "f64";
  tally.Add(f64);
  EXPECT_TRUE(tally.Evaluate().minimal.reached);
  ASSERT_EQ(tally.MissingCapabilities().size(), 1u);
  EXPECT_EQ(tally.MissingCapabilities()[0].part, "op.gemm");
  EXPECT_EQ(tally.MissingCapabilities()[0].capability, "f64");
  EXPECT_EQ(tally.Parts()[4].verdict, "pass");
  // A required dtype refused, or an optional one computed wrongly, still blocks.
  CaseResult f16 = Result("op", "gemm", Status::kUnsupported, "f16");
  tally.Add(f16);
  EXPECT_FALSE(tally.Evaluate().minimal.reached);
  LevelTally wrong;
  AddMinimalPasses(&wrong);
  f64.status = Status::kFail;
  wrong.Add(f64);
  EXPECT_FALSE(wrong.Evaluate().minimal.reached);
}

TEST(Levels, OptionalPartsAreReportedButDecideNoLevel) {
  for (Status status : {Status::kFail, Status::kUnsupported, Status::kCrash}) {
    LevelTally tally;
    AddMinimalPasses(&tally);
    tally.Add(Result("rt", "event", Status::kPass));
    tally.Add(Result("ccl", "all_reduce", Status::kPass));
    tally.Add(Result("rt", "graph", status, "g"));
    tally.Add(Result("rt", "resource_snapshot", Status::kPass, "s"));
    const LevelOutcomes outcomes = tally.Evaluate();
    EXPECT_TRUE(outcomes.minimal.reached) << StatusName(status);
    EXPECT_TRUE(outcomes.advanced.reached) << StatusName(status);
    std::map<std::string, PartVerdict> parts;
    for (const PartVerdict &part : tally.Parts()) parts[part.part] = part;
    ASSERT_EQ(parts.count("rt.graph"), 1u);
    EXPECT_EQ(parts["rt.graph"].level, "optional");
    EXPECT_EQ(parts["rt.graph"].verdict, status == Status::kUnsupported ? "unsupported" : "fail");
    EXPECT_EQ(parts["rt.resource_snapshot"].verdict, "pass");
  }
}

TEST(Levels, AdvancedOnlyParts) {
  EXPECT_TRUE(IsAdvancedOnly("rt", "event"));
  EXPECT_TRUE(IsAdvancedOnly("ccl", "all_reduce"));
  EXPECT_FALSE(IsAdvancedOnly("rt", "memory"));
  EXPECT_FALSE(IsAdvancedOnly("op", "event"));
}

TEST(Report, CountsStatusesAndKeepsResultsInOrder) {
  Report report;
  report.Add(Result("rt", "memory", Status::kPass, "a"));
  report.Add(Result("rt", "memory", Status::kCrash, "b"));
  report.Add(Result("rt", "stream", Status::kSkip, "c"));
  const nlohmann::json document = nlohmann::json::parse(report.Serialize());
  EXPECT_EQ(document["summary"]["total"], 3);
  EXPECT_EQ(document["summary"]["pass"], 1);
  EXPECT_EQ(document["summary"]["crash"], 1);
  EXPECT_EQ(document["summary"]["skip"], 1);
  EXPECT_EQ(document["summary"]["fail"], 0);
  EXPECT_EQ(document["summary"]["levels"]["minimal"], false);
  ASSERT_EQ(document["results"].size(), 3u);
  EXPECT_EQ(document["results"][1]["id"], "rt.memory.conformance/b");
  EXPECT_EQ(document["results"][1]["status"], "crash");
  EXPECT_EQ(document["schema_version"], kSchemaVersion);
}

TEST(Report, SerializesEmptyAndKeepsInvalidUtf8FromBreakingIt) {
  Report report;
  EXPECT_EQ(nlohmann::json::parse(report.Serialize())["results"], nlohmann::json::array());
  CaseResult result = Result("rt", "memory", Status::kFail);
  result.message = "backend said \xff\xfe";
  report.Add(result);
  EXPECT_NO_THROW(nlohmann::json::parse(report.Serialize()));
}

TEST(AtomicFile, ReplacesTheFileAndLeavesNoTemporary) {
  const std::string dir = testing_support::ScratchDir("atomic");
  const std::string path = dir + "/nested/report.json";
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, "first", false, &error)) << error;
  ASSERT_TRUE(WriteFileAtomically(path, "second", true, &error)) << error;
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_EQ(text.str(), "second");
  struct stat st {};
  EXPECT_NE(stat((path + ".tmp").c_str(), &st), 0);
  EXPECT_FALSE(WriteFileAtomically(path + "/below-a-file", "x", false, &error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace infinicts::report
