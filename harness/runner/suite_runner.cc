#include "runner/suite_runner.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>

#include "cts/call_tracing.h"
#include "report/temporary_files.h"
#include "runner/case_listing.h"
#include "runner/case_output.h"
#include "runner/child_process.h"
#include "runner/interrupt.h"
#include "runner/rank_link.h"
#include "runner/rank_verdict.h"

namespace infinicts::runner {
namespace {

using Clock = std::chrono::steady_clock;
using report::CaseResult;
using report::Status;

constexpr int kPollMs = 50;
// Under mpirun a peer's message (the unique id the child waits for) is only seen between
// polls of the child's pipes: short polls keep every case from waiting for it.
constexpr int kPollWithPeersMs = 2;
// A case's result line holds a message of at most 8000 bytes and a bounded number of timing
// samples: one far longer with no end means the suite process's memory was overwritten (by
// the backend it loaded), and reading on would only hold more of it.
constexpr size_t kMaxResultLineBytes = size_t{4} << 20;

double MillisecondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

std::string SecondsText(double seconds) {
  std::string text = std::to_string(seconds);
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

// What a child printed, for the message of a case it crashed or hung in.
struct CapturedOutput {
  CaseOutput out;
  CaseOutput err;
};

// A crashed or hung case's message: its own stderr (else its own stdout), never an earlier
// case's; with no case in flight, the process's latest stderr.
std::string WithOutput(std::string message, const CapturedOutput &output, bool case_in_flight) {
  std::string tail = case_in_flight ? output.err.CaseText() : output.err.ProcessText();
  std::string label = case_in_flight ? "stderr of this case" : "stderr";
  if (tail.empty() && case_in_flight) {
    tail = output.out.CaseText();
    label = "stdout of this case";
  }
  while (!tail.empty() && tail.back() == '\n') tail.pop_back();
  if (!tail.empty()) message += "\n--- " + label + " ---\n" + tail;
  return message;
}

// Where the child's crash handler saw the process die: ", in the backend call infinirtFree", or
// ", on invalid input, in the backend call infinirtFree(ptr = NULL)" when the call was a probe.
struct CrashSite {
  std::string text;
  bool invalid_input = false;
  bool in_probed_call = false;  // inside the call a probe of invalid input made
};

CrashSite CrashSiteIn(const std::string &stderr_text) {
  struct Line {
    const char *marker;
    const char *says;
    bool invalid_input;
    bool in_probed_call;
  };
  const Line lines[] = {
      {cts::kCrashedInCallLine, ", in the backend call ", false, false},
      {cts::kCrashedOnInvalidInputLine, ", on invalid input, in the backend call ", true, true},
      {cts::kCrashedAfterInvalidInputLine, ", outside any backend call, after the probe of invalid input ", true, false},
  };
  const Line *latest = nullptr;
  size_t latest_at = 0;
  for (const Line &line : lines) {
    const size_t at = stderr_text.rfind(line.marker);
    if (at != std::string::npos && (latest == nullptr || at > latest_at)) {
      latest = &line;
      latest_at = at;
    }
  }
  if (latest == nullptr) return {};
  const size_t begin = latest_at + std::string(latest->marker).size();
  const size_t end = stderr_text.find('\n', begin);
  return {latest->says + stderr_text.substr(begin, end == std::string::npos ? end : end - begin), latest->invalid_input,
          latest->in_probed_call};
}

// The cases a child runs, one GoogleTest full name a line, in a private temporary file
// named after this process: one killed before it removed its files leaves them to the next.
class CasesFile {
 public:
  explicit CasesFile(const std::vector<std::string> &tests) {
    const char *tmp = std::getenv("TMPDIR");
    const std::string dir = tmp && *tmp ? tmp : "/tmp";
    static const bool swept = (report::RemoveStaleTemporaries(dir, kPrefix, "-"), true);
    (void)swept;
    std::string pattern = dir + "/" + report::PidTaggedName(kPrefix, "-XXXXXX");
    const int fd = mkstemp(pattern.data());
    if (fd < 0) return;
    std::string text;
    for (const std::string &test : tests) text += test + "\n";
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t written = write(fd, text.data() + done, text.size() - done);
      if (written <= 0) break;
      done += static_cast<size_t>(written);
    }
    close(fd);
    if (done == text.size()) path_ = pattern;
    else unlink(pattern.c_str());
  }
  ~CasesFile() {
    if (!path_.empty()) unlink(path_.c_str());
  }
  static constexpr const char *kPrefix = "infinicts-cases-";
  const std::string &path() const { return path_; }

 private:
  std::string path_;
};

std::string BackendsText(const std::vector<std::string> &backends) {
  std::string text;
  for (const std::string &backend : backends) text += (text.empty() ? "" : ", ") + backend;
  return text;
}

}  // namespace

SuiteRunner::SuiteRunner(SuiteRunSpec spec, std::vector<cts::ListedCase> cases)
    : spec_(std::move(spec)), cases_(std::move(cases)), resolved_(cases_.size(), false) {
  for (size_t i = 0; i < cases_.size(); ++i) index_by_test_[cases_[i].test] = i;
}

std::vector<size_t> SuiteRunner::Pending() const {
  std::vector<size_t> pending;
  for (size_t i = 0; i < cases_.size(); ++i) {
    if (!resolved_[i] && cases_[i].invalid_input == invalid_input_phase_) pending.push_back(i);
  }
  return pending;
}

std::vector<std::string> SuiteRunner::ChildArguments(const std::string &cases_file) const {
  std::vector<std::string> args;
  for (const std::string &backend : spec_.backends) {
    args.push_back("--cts-backend");
    args.push_back(backend);
  }
  args.push_back("--cts-device");
  args.push_back(spec_.device);
  if (!spec_.device_ids.empty()) {
    args.push_back("--cts-device-ids");
    args.push_back(spec_.device_ids);
  }
  args.push_back("--cts-cases");
  args.push_back(cases_file);
  args.push_back("--cts-results-fd");
  args.push_back(std::to_string(kResultsFd));
  args.push_back("--gtest_brief=1");  // the runner reads results from fd 3; stdout is only drained
  if (spec_.rank_link != nullptr) {
    args.push_back("--cts-spread");
    args.push_back(std::to_string(spec_.rank_link->rank()) + "/" + std::to_string(spec_.rank_link->layout().ranks));
    args.push_back("--cts-input-fd");
    args.push_back(std::to_string(kInputFd));
  }
  return args;
}

CaseResult SuiteRunner::ResultFor(size_t index, Status status, std::string message, double duration_ms) const {
  return ResultOfListed(cases_[index], status, std::move(message), duration_ms);
}

void SuiteRunner::Resolve(size_t index, CaseResult result, const ResultSink &on_result) {
  if (resolved_[index]) return;
  resolved_[index] = true;
  on_result(std::move(result));
}

CaseResult SuiteRunner::RunAlone(size_t index, const Tick &on_tick) const {
  SuiteRunner alone(spec_, {cases_[index]});
  CaseResult result = ResultFor(index, Status::kCrash, "the rerun alone gave no result", 0);
  alone.Run([&](CaseResult got) { result = std::move(got); }, on_tick);
  return result;
}

bool SuiteRunner::Run(const ResultSink &on_result, const Tick &on_tick) {
  for (const bool invalid_input : {false, true}) {
    invalid_input_phase_ = invalid_input;
    while (!Pending().empty()) {
      if (!RunAttempt(on_result, on_tick)) return false;
    }
  }
  return true;
}

// One child over every case still pending. Returns false when interrupted.
bool SuiteRunner::RunAttempt(const ResultSink &on_result, const Tick &on_tick) {
  const std::vector<size_t> pending = Pending();
  std::vector<std::string> tests;
  for (size_t index : pending) tests.push_back(cases_[index].test);

  auto resolve_rest = [&](Status status, const std::string &message) {
    for (size_t index : pending) Resolve(index, ResultFor(index, status, message, 0), on_result);
  };

  CasesFile cases_file(tests);
  if (cases_file.path().empty()) {
    resolve_rest(Status::kCrash, "the runner could not write the list of cases for the suite process");
    return true;
  }
  std::string error;
  RankLink *const link = spec_.rank_link;
  std::unique_ptr<ChildProcess> child = ChildProcess::Start(spec_.binary, ChildArguments(cases_file.path()),
                                                            /*results_pipe=*/true, &error,
                                                            /*input_pipe=*/link != nullptr);
  if (!child) {
    resolve_rest(Status::kCrash, error);
    return true;
  }
  SetActiveChildGroup(child->pid());

  size_t resolved_here = 0;
  std::optional<size_t> in_flight;
  int shares_in_case = 0;                       // under mpirun: rank 0's shares asked for so far
  std::optional<std::string> stopped_for_peer;  // under mpirun: why the case in flight was stopped
  Clock::time_point in_flight_since = Clock::now();
  Clock::time_point last_event = Clock::now();
  std::string line_buffer;
  bool overlong_line = false;  // the child wrote more than kMaxResultLineBytes with no newline
  CapturedOutput output;
  const auto timeout = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(spec_.timeout_s));

  // The latest case this child ended: a crash in the next case may be its doing.
  std::optional<std::pair<size_t, CaseResult>> previous;
  auto resolve = [&](size_t index, CaseResult result) {
    ++resolved_here;
    if (link == nullptr) previous.emplace(index, result);
    Resolve(index, std::move(result), on_result);
  };
  auto handle_event = [&](const std::string &line) {
    const nlohmann::json event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (link != nullptr && event.is_object() && in_flight) {
      const std::string kind = event.value("event", "");
      if (kind == "share") {
        const std::string hex = event.value("data", "");
        link->Share(*in_flight, shares_in_case++, hex);
        child->WriteInput(hex + "\n");  // rank 0's own part reads back what it shared
        return;
      }
      if (kind == "need_share") {
        link->ExpectShare(*in_flight, shares_in_case++);
        return;
      }
    }
    if (!event.is_object() || !event.contains("event") || !event.contains("test")) return;
    if (!event["event"].is_string() || !event["test"].is_string()) return;
    const auto found = index_by_test_.find(event["test"].get<std::string>());
    if (found == index_by_test_.end() || resolved_[found->second]) return;
    const size_t index = found->second;
    const std::string kind = event["event"].get<std::string>();
    const Clock::time_point now = Clock::now();
    last_event = now;
    if (kind == "start") {
      if (in_flight && *in_flight != index) {
        resolve(*in_flight, ResultFor(*in_flight, Status::kCrash,
                                      "the suite process started another case before ending this one",
                                      MillisecondsBetween(in_flight_since, now)));
      }
      in_flight = index;
      in_flight_since = now;
      shares_in_case = 0;
    } else if (kind == "end") {
      const auto text = [&](const char *key) {
        return event.contains(key) && event[key].is_string() ? event[key].get<std::string>() : std::string();
      };
      const std::string status_name = text("status");
      std::optional<Status> status = report::ParseStatus(status_name);
      std::string message = text("message");
      if (!status) {
        status = Status::kFail;
        message = "the suite reported the unknown status '" + status_name + "'" + (message.empty() ? "" : ": " + message);
      }
      const double duration_ms =
          event.contains("duration_ms") && event["duration_ms"].is_number() ? event["duration_ms"].get<double>() : 0.0;
      CaseResult result = ResultFor(index, *status, message, duration_ms);
      if (event.contains("metrics") && event["metrics"].is_object()) result.metrics = event["metrics"];
      if (event.contains("timing") && event["timing"].is_object()) result.timing = event["timing"];
      result.optional_capability = text("optional_capability");
      resolve(index, std::move(result));
      if (in_flight == index) in_flight.reset();
    }
  };

  const ChildProcess::Sink sink = [&](ChildProcess::Stream stream, std::string_view data) {
    if (stream == ChildProcess::Stream::kStdout) {
      output.out.Append(data);
    } else if (stream == ChildProcess::Stream::kStderr) {
      output.err.Append(data);
    } else if (stream == ChildProcess::Stream::kResults) {
      if (overlong_line) return;
      line_buffer.append(data);
      size_t newline;
      while ((newline = line_buffer.find('\n')) != std::string::npos) {
        const std::string line = line_buffer.substr(0, newline);
        line_buffer.erase(0, newline + 1);
        handle_event(line);
      }
      if (line_buffer.size() > kMaxResultLineBytes) {
        overlong_line = true;
        line_buffer.clear();
      }
    }
  };
  const std::string overlong_text = "the suite process wrote a result line of more than " +
                                    std::to_string(kMaxResultLineBytes >> 20) +
                                    " MiB with no end: its memory was overwritten (most likely by the backend), "
                                    "and it was killed";

  std::optional<int> exit_status;
  bool timed_out = false;
  while (true) {
    child->Pump(link != nullptr ? kPollWithPeersMs : kPollMs, sink);
    on_tick(in_flight ? &cases_[*in_flight] : nullptr);
    std::optional<std::string> lost_peer;
    if (link != nullptr && !Interrupted()) lost_peer = link->LostPeer();
    if (Interrupted() || lost_peer) {
      if (lost_peer) run_failures_.push_back(*lost_peer);
      child->KillGroup();
      child->Reap();
      SetActiveChildGroup(0);
      return false;
    }
    if ((exit_status = child->TryReap())) break;
    if (overlong_line) {
      child->KillGroup();
      exit_status = child->Reap();
      break;
    }
    if (link != nullptr) {
      if (const std::optional<std::string> hex = link->TakeShare()) child->WriteInput(*hex + "\n");
      if (in_flight && (stopped_for_peer = link->StopFor(*in_flight))) {
        child->KillGroup();
        exit_status = child->Reap();
        break;
      }
    }
    const Clock::time_point now = Clock::now();
    if (now - (in_flight ? in_flight_since : last_event) > timeout) {
      timed_out = true;
      child->KillGroup();
      exit_status = child->Reap();
      break;
    }
  }
  child->Drain(sink);  // events written just before the child ended
  child->KillGroup();  // anything the suite left running
  SetActiveChildGroup(0);

  const std::string limit = SecondsText(spec_.timeout_s);
  if (in_flight) {
    const double elapsed = MillisecondsBetween(in_flight_since, Clock::now());
    if (stopped_for_peer) {
      resolve(*in_flight, ResultFor(*in_flight, Status::kBlocked, kStoppedForPeerPrefix + *stopped_for_peer, elapsed));
    } else if (overlong_line) {
      resolve(*in_flight, ResultFor(*in_flight, Status::kCrash, WithOutput(overlong_text + " during this case", output, true),
                                    elapsed));
    } else if (timed_out) {
      resolve(*in_flight, ResultFor(*in_flight, Status::kTimeout,
                                    WithOutput("the case did not finish within " + limit + " s; its process was killed",
                                               output, true),
                                    elapsed));
    } else {
      const CrashSite site = CrashSiteIn(output.err.CaseText());
      CaseResult crashed = ResultFor(
          *in_flight, Status::kCrash,
          WithOutput("the suite process " + DescribeWaitStatus(*exit_status) + " during this case" + site.text, output, true),
          elapsed);
      crashed.crash_on_invalid_input = site.invalid_input;
      // A crash inside a probed call, on the arguments it was probed with, is that case's own. Any
      // other crash after another case of the process is charged only once rerun alone: a case
      // that passes, or fails otherwise, in a process of its own was crashed by the case before it
      // (writes past its buffers, say), whose result is amended.
      if (previous && !site.in_probed_call) {
        CaseResult alone = RunAlone(*in_flight, on_tick);
        if (alone.status != Status::kCrash && alone.status != Status::kTimeout) {
          CaseResult before = previous->second;
          before.status = Status::kCrash;
          before.crash_on_invalid_input = before.crash_on_invalid_input || cases_[previous->first].invalid_input;
          before.message = "the suite process " + DescribeWaitStatus(*exit_status) + " in the case after this one, " +
                           cases_[*in_flight].id + ", which " +
                           (alone.status == Status::kPass ? "passes" : "ends " + std::string(report::StatusName(alone.status))) +
                           " when run alone: this case most likely corrupted its process (wrote past its buffers, say)" +
                           (before.message.empty() ? "" : "\n--- this case's own outcome ---\n" + before.message);
          // Its own outcome reads first (root causes group on a message's first line).
          alone.message += std::string(alone.message.empty() ? "" : "\n") + "(ran alone after its process crashed in it, following " +
                           cases_[previous->first].id + ", which the crash is charged to)";
          on_result(std::move(before));  // the amendment: a second result for that case
          resolve(*in_flight, std::move(alone));
        } else {
          crashed.message += "\n(it " + std::string(alone.status == Status::kCrash ? "crashed again" : "timed out") +
                             " when rerun alone)";
          resolve(*in_flight, std::move(crashed));
        }
      } else {
        resolve(*in_flight, std::move(crashed));
      }
    }
  } else if (overlong_line && resolved_here > 0) {
    run_failures_.push_back(WithOutput(overlong_text + " between cases (backend " + BackendsText(spec_.backends) + ")",
                                       output, false));
  } else if (!timed_out && resolved_here > 0 && *exit_status != 0) {
    // Between cases or after the last one: a backend crashing while it unloads, a sanitizer's
    // report at exit. No case owns it, and it must not pass unseen.
    run_failures_.push_back(WithOutput("the " + spec_.suite + " suite process " + DescribeWaitStatus(*exit_status) +
                                           " after its last case" + CrashSiteIn(output.err.ProcessText()).text +
                                           " (backend " + BackendsText(spec_.backends) + ")",
                                       output, false));
  }
  if (resolved_here == 0) {
    // Nothing moved: running the same cases again would do the same.
    if (timed_out) {
      resolve_rest(Status::kTimeout,
                   WithOutput("the suite process started no case within " + limit +
                                  " s (it hung before its first case, e.g. while loading the backend); it was killed",
                              output, false));
    } else if (overlong_line) {
      resolve_rest(Status::kCrash, WithOutput(overlong_text + " before it started a case", output, false));
    } else {
      resolve_rest(Status::kCrash,
                   WithOutput("the suite process " + DescribeWaitStatus(*exit_status) +
                                  " without starting this case (it started no case at all)" +
                                  CrashSiteIn(output.err.ProcessText()).text,
                              output, false));
    }
  }
  return true;
}

}  // namespace infinicts::runner
