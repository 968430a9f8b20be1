// What a case needs but does not check (docs/usage.md "Statuses", `blocked`). A case makes
// streams, memory and handles to get at what it checks; when one of those calls fails, the
// case ends `blocked`, naming the clause the call broke and the case that checks it, so one
// root cause shows as one failure and the cases that merely needed it say so.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace infinicts::cts {

inline constexpr const char *kBlockedPrefix = "blocked: ";

struct RootCause {
  std::string function;   // "infinirtStreamCreate"
  std::string clause;     // the clause a successful call is specified by: "RT-STREAM-2"
  std::string root_case;  // the case (or glob of cases) that checks it
};

// The interface function a call's text names: the first identifier starting "infinirt",
// "infiniop" or "infiniccl" ("rt().infinirtMalloc(&p, n)" -> "infinirtMalloc"); empty if none.
std::string FunctionIn(std::string_view call_text);

// The clause and root case of `function` (an interface name or call text), when the spec has
// one clause for its success; nullopt for the calls only their own cases judge (operators,
// collectives).
std::optional<RootCause> RootCauseOf(std::string_view function);

// Whether the running case cites `clause`.
bool RunningCaseCites(const std::string &clause);

// The root cause to block on when `call` (text naming an interface function) fails in the
// running case: nullopt when the case checks that function's clause itself, or the function
// has none; the failure is then the case's own.
std::optional<RootCause> BlockingCause(std::string_view call);

// "<what happened>; blocked by RT-STREAM-2, which rt.stream.conformance/create_distinct checks"
// (without the prefix).
std::string BlockedText(const std::string &what_happened, const RootCause &cause);

// "the NULL stream" or "the same stream" when two of `streams` are one; empty when all differ.
std::string RepeatedStream(const std::vector<void *> &streams);
// Whether every one of `streams` is the NULL stream (a runtime that hands out nothing else).
bool AllNullStreams(const std::vector<void *> &streams);

// A clause the case names for its own failure of `call`: "RT-MEM-16: " when the call's
// clause is one the running case cites, else empty.
std::string ClauseOfCall(std::string_view call);

}  // namespace infinicts::cts
