// The vocabulary of a case: GoogleTest fixtures and value-parameterised tests,
// plus what infinicts adds: case metadata (subject, spec clauses), the backend
// under test, metrics, and the `unsupported` and `blocked` outcomes.
//
//   class MemcpyKinds : public cts::ParamCase<MemcpyParam> {};
//   CTS_TEST_P(MemcpyKinds, round_trip, "memory", "RT-MEM-3", "RT-MEM-5") { ... }
//   INSTANTIATE_TEST_SUITE_P(conformance, MemcpyKinds, testing::ValuesIn(...), cts::NameFromParam());
//
// The instantiation prefix is the mode (conformance, accuracy, perf); a case's id
// is <suite>.<subject>.<mode>/<test>[/<param name, "__" read as "/">].
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/names.h"
#include "cts/call_tracing.h"
#include "cts/root_cause.h"

namespace infinicts::cts {

// The backend and devices under test; set once by the suite's main.
struct Context {
  std::unique_ptr<Backend> backend;
  infiniDevice_t device_type = INFINI_DEVICE_CPU;
  std::vector<int> device_ids;  // the devices cases may use; the first is the default
  std::string suite;            // "rt", "op", "ccl"
};
Context &GetContext();
inline const RtApi &rt() { return GetContext().backend->rt(); }
inline const OpApi &op() { return GetContext().backend->op(); }
inline const CclApi &ccl() { return GetContext().backend->ccl(); }
inline infiniDevice_t device_type() { return GetContext().device_type; }
inline const std::vector<int> &device_ids() { return GetContext().device_ids; }

// A number the running case measured; the name carries its unit (max_abs_err, time_ms_median).
void RecordMetric(const std::string &name, double value);
// Records, for a SHOULD clause, whether `status` is one of `recommended` (CTS_SHOULD_ANSWER).
void RecordShould(const std::string &metric, int status, std::initializer_list<int> recommended);

// A call refused bad input as it must, but with `status` where the spec names `named`: the exact
// status is a SHOULD. Counts `refused_with_other_status` and says which call in the case's message.
void RecordOtherRefusal(const std::string &call, int status, int named);

// The running case tests a capability the spec leaves optional ("f64", "i32"): refused, it ends
// `unsupported` without keeping a level from being reached, and is listed as missing.
void NoteOptionalCapability(const std::string &capability);

// How a perf case took its time, and every sample (the result's `timing`).
void RecordTiming(const nlohmann::json &timing);

// The perf profile the run asked for (INFINICTS_PROFILE): "quick" (the default) or
// "full", which adds the long sweeps. Perf parameter lists read it when they register.
bool FullProfile();

// A line the running case's message carries even when it passes: how it ran where the backend
// left it a choice ("ran its two streams' calls on the NULL stream, which StreamCreate handed out").
void NoteHowItRan(const std::string &note);

// A seed derived from the running case's full name: every random input is reproducible.
uint64_t CaseSeed();

// A test parameter derives from cts::Param<itself> and provides
//   std::string Name() const;   // GoogleTest-safe: letters, digits, '_' ("__" stands for '/')
//   std::string Json() const;   // a JSON object text: the result's `params`
// Param's PrintTo is a plain friend function: GoogleTest 1.12 finds it by ADL and
// prefers it over its own PrintTo template (a template here would be ambiguous).
struct ParamBase {};
template <class P>
struct Param : ParamBase {
  friend void PrintTo(const P &param, std::ostream *os) { *os << param.Json(); }
};
// A parameter name GoogleTest takes (letters, digits, '_'), written as the op suite's
// NumberName writes numbers: '-' as 'm', '.' as '_', '+' left out, anything else as '_'.
// A problem line may give any value (norm=-1), and GoogleTest aborts on a name it refuses.
inline std::string GTestSafeName(const std::string &name) {
  std::string safe;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') safe += c;
    else if (c == '-') safe += 'm';
    else if (c != '+') safe += '_';
  }
  return safe;
}

struct NameFromParam {
  template <class P>
  std::string operator()(const testing::TestParamInfo<P> &info) const {
    return GTestSafeName(info.param.Name());
  }
};

// What a case feeds the backend: valid input, or invalid input it must refuse (NULL or bad
// arguments, a double free). Cases of invalid input run after the others of their suite, and
// a crash in one of their probes is counted apart from a crash on valid input.
enum class CaseInput { kValid, kInvalid };

// Case metadata, registered next to each test by the CTS_TEST_* and CTS_PROBE_* macros.
struct CaseMeta {
  std::string mode;  // empty for parameterised cases: the instantiation prefix names it
  std::string subject;
  std::vector<std::string> clauses;
  CaseInput input = CaseInput::kValid;
};
bool RegisterCase(const char *fixture, const char *test, const char *mode, const char *subject,
                  std::vector<std::string> clauses, CaseInput input = CaseInput::kValid);
const CaseMeta *FindCase(const std::string &fixture, const std::string &test);
// The metadata of a registered test, and of the case running now (nullptr outside a case).
const CaseMeta *CaseMetaOf(const testing::TestInfo &info);
const CaseMeta *RunningCase();

// Every case starts on the first device under test, or is skipped when there is none.
class CaseBase : public testing::Test {
 protected:
  void SetUp() override;
};
template <class P>
class ParamCase : public CaseBase, public testing::WithParamInterface<P> {};

// Makes `call` (answering a status) as a probe of invalid input: a crash inside it names the
// call and its NULL arguments and counts as a crash on invalid input (cts/call_tracing.h).
template <class Call>
int ProbeInvalidInput(const char *source, Call &&call) {
  InvalidInputProbe probe(source);
  return static_cast<int>(call());
}

// NOT_IMPLEMENTED and DEVICE_TYPE_NOT_SUPPORTED mean the backend does not support the call.
bool IsUnsupportedStatus(int status);
inline constexpr const char *kUnsupportedPrefix = "unsupported: ";

}  // namespace infinicts::cts

#define CTS_TEST_P(Fixture, Test, subject, ...)                                                            \
  static const bool cts_case_##Fixture##_##Test [[maybe_unused]] =                                         \
      ::infinicts::cts::RegisterCase(#Fixture, #Test, "", subject, {__VA_ARGS__});                        \
  TEST_P(Fixture, Test)

#define CTS_TEST_F(Fixture, Test, mode, subject, ...)                                                      \
  static const bool cts_case_##Fixture##_##Test [[maybe_unused]] =                                         \
      ::infinicts::cts::RegisterCase(#Fixture, #Test, mode, subject, {__VA_ARGS__});                      \
  TEST_F(Fixture, Test)

// Cases of invalid input (cts::CaseInput::kInvalid): their probes use CTS_ASSERT_STATUS,
// CTS_ASSERT_ERROR or CTS_SHOULD_ANSWER, and a case of valid input holds none.
#define CTS_PROBE_P(Fixture, Test, subject, ...)                                                           \
  static const bool cts_case_##Fixture##_##Test [[maybe_unused]] = ::infinicts::cts::RegisterCase(         \
      #Fixture, #Test, "", subject, {__VA_ARGS__}, ::infinicts::cts::CaseInput::kInvalid);                 \
  TEST_P(Fixture, Test)

#define CTS_PROBE_F(Fixture, Test, mode, subject, ...)                                                     \
  static const bool cts_case_##Fixture##_##Test [[maybe_unused]] = ::infinicts::cts::RegisterCase(         \
      #Fixture, #Test, mode, subject, {__VA_ARGS__}, ::infinicts::cts::CaseInput::kInvalid);               \
  TEST_F(Fixture, Test)

// Ends the case `unsupported` when the backend lacks the symbol.
#define CTS_REQUIRE_SYMBOL(symbol)                                                                          \
  do {                                                                                                     \
    if (!::infinicts::cts::GetContext().backend->Exports(#symbol))                                         \
      GTEST_SKIP() << ::infinicts::cts::kUnsupportedPrefix << "the backend does not export " #symbol;      \
  } while (0)

// Text from stream insertions: CTS_TEXT_("answered " << name).
#define CTS_TEXT_(what)                                                                                    \
  ([&] {                                                                                                   \
    std::ostringstream cts_text_;                                                                          \
    cts_text_ << what;                                                                                     \
    return cts_text_.str();                                                                                \
  }())

// Ends the case `blocked` by `cause` (a cts::RootCause): `what` (stream insertions) happened to
// a call it needs but does not check.
#define CTS_BLOCK(what, cause) \
  GTEST_SKIP() << ::infinicts::cts::kBlockedPrefix << ::infinicts::cts::BlockedText(CTS_TEXT_(what), (cause))

// Asserts SUCCESS. NOT_IMPLEMENTED / DEVICE_TYPE_NOT_SUPPORTED end the case `unsupported`. Another
// status ends it `blocked` when the call is one the case only needs (its clause, cts/root_cause.h,
// is not among the case's), else fails it, naming the call's clause where the case cites it.
#define CTS_ASSERT_OK(call) CTS_ASSERT_OK_(call, true)
// The same for a call the case checks whatever its clause: never `blocked`.
#define CTS_CHECK_OK(call) CTS_ASSERT_OK_(call, false)

#define CTS_ASSERT_OK_(call, may_block) CTS_ASSERT_OK_AS(static_cast<int>(call), std::string(#call), may_block)

// CTS_ASSERT_OK for a status already in hand, `call_text` (a std::string) naming the call.
#define CTS_ASSERT_OK_AS(status, call_text, may_block)                                                     \
  do {                                                                                                     \
    const int cts_status_ = (status);                                                                      \
    if (cts_status_ != INFINI_STATUS_SUCCESS) {                                                            \
      const std::string cts_call_ = (call_text);                                                           \
      if (::infinicts::cts::IsUnsupportedStatus(cts_status_))                                              \
        GTEST_SKIP() << ::infinicts::cts::kUnsupportedPrefix << cts_call_ << " answered "                  \
                     << ::infinicts::StatusName(cts_status_);                                              \
      if (const auto cts_cause_ = (may_block) ? ::infinicts::cts::BlockingCause(cts_call_) : std::nullopt) \
        CTS_BLOCK(cts_cause_->function << " answered " << ::infinicts::StatusName(cts_status_), *cts_cause_); \
      GTEST_FATAL_FAILURE_((::infinicts::cts::ClauseOfCall(cts_call_) + cts_call_ + " answered " +         \
                            ::infinicts::StatusName(cts_status_) + ", expected INFINI_STATUS_SUCCESS")     \
                               .c_str());                                                                  \
    }                                                                                                      \
  } while (0)

// Ends the case for a call that went wrong, as CTS_ASSERT_OK would: `call_text` names it
// ("infinirtMalloc"), `status` is what it answered, `what` (a std::string) the whole story
// (a device-layer error's what()). Unsupported, blocked, or a failure naming the clause.
#define CTS_END_FOR_CALL(call_text, status, what)                                                         \
  do {                                                                                                     \
    const std::string cts_call_ = (call_text), cts_what_ = (what);                                         \
    if (::infinicts::cts::IsUnsupportedStatus(status)) GTEST_SKIP() << ::infinicts::cts::kUnsupportedPrefix << cts_what_; \
    if (const auto cts_cause_ = ::infinicts::cts::BlockingCause(cts_call_)) CTS_BLOCK(cts_what_, *cts_cause_); \
    GTEST_FATAL_FAILURE_((::infinicts::cts::ClauseOfCall(cts_call_) + cts_what_).c_str());                  \
  } while (0)

// After `call` answered SUCCESS, the handle or pointer it gave must not be NULL; `what` says
// what came back ("a NULL pointer for " << n << " bytes"). Blocked or failed as CTS_ASSERT_OK is.
#define CTS_ASSERT_GAVE(call, handle, what) CTS_ASSERT_GAVE_AS((handle) == nullptr, std::string(#call), what)

// The same with the test and the call's text (a std::string) in hand.
#define CTS_ASSERT_GAVE_AS(is_null, call_text, what)                                                      \
  do {                                                                                                     \
    if (is_null) {                                                                                         \
      const std::string cts_call_ = (call_text);                                                           \
      if (const auto cts_cause_ = ::infinicts::cts::BlockingCause(cts_call_))                              \
        CTS_BLOCK(cts_cause_->function << " answered SUCCESS with " << what, *cts_cause_);                 \
      GTEST_FATAL_FAILURE_(                                                                                \
          (::infinicts::cts::ClauseOfCall(cts_call_) + cts_call_ + " answered SUCCESS with " + CTS_TEXT_(what)).c_str()); \
    }                                                                                                      \
  } while (0)

// For a case that runs work on several created streams side by side. A runtime that hands out
// the NULL stream from every StreamCreate (one that runs work at the call, say) keeps every
// ordering rule on it: the case runs its calls on that one stream, interleaved as before, and
// says so. The same non-NULL stream twice breaks RT-STREAM-2: the case ends `blocked`.
#define CTS_REQUIRE_DISTINCT_STREAMS(...)                                                                 \
  do {                                                                                                     \
    const std::vector<void *> cts_streams_{__VA_ARGS__};                                                  \
    if (const std::string cts_same_ = ::infinicts::cts::RepeatedStream(cts_streams_); !cts_same_.empty()) { \
      if (!::infinicts::cts::AllNullStreams(cts_streams_))                                                 \
        CTS_BLOCK("infinirtStreamCreate answered SUCCESS with " << cts_same_                               \
                                                                 << " twice, and this case needs distinct streams", \
                  *::infinicts::cts::RootCauseOf("infinirtStreamCreate"));                                 \
      ::infinicts::cts::NoteHowItRan("ran its streams' work on the NULL stream, which infinirtStreamCreate handed out"); \
    }                                                                                                      \
  } while (0)

// For a case that checks what passes between two streams (a cross-stream wait, an event's time on
// one stream while another works), which one stream cannot show: skipped where StreamCreate hands
// out the NULL stream, `blocked` where it gave the same non-NULL stream twice (RT-STREAM-2).
#define CTS_REQUIRE_TWO_STREAMS(...)                                                                      \
  do {                                                                                                     \
    const std::vector<void *> cts_streams_{__VA_ARGS__};                                                  \
    if (const std::string cts_same_ = ::infinicts::cts::RepeatedStream(cts_streams_); !cts_same_.empty()) { \
      if (::infinicts::cts::AllNullStreams(cts_streams_))                                                  \
        GTEST_SKIP() << "needs two streams, and infinirtStreamCreate hands out the NULL stream only";     \
      CTS_BLOCK("infinirtStreamCreate answered SUCCESS with " << cts_same_                                 \
                                                               << " twice, and this case needs distinct streams", \
                *::infinicts::cts::RootCauseOf("infinirtStreamCreate"));                                   \
    }                                                                                                      \
  } while (0)

// Asserts a given status (for bad input). NOT_IMPLEMENTED and DEVICE_TYPE_NOT_SUPPORTED, unless
// expected, end the case `unsupported`: the backend lacks the function or the device type. Another
// error status than the one expected is a refusal all the same: the exact status is a SHOULD
// (docs/spec/README.md "Statuses"), recorded by RecordOtherRefusal, and the case goes on.
#define CTS_ASSERT_STATUS(call, expected) \
  CTS_ASSERT_STATUS_AS(::infinicts::cts::ProbeInvalidInput(#call, [&] { return call; }), std::string(#call), expected)

// CTS_ASSERT_STATUS for a status already in hand, `call_text` (a std::string) naming the call.
#define CTS_ASSERT_STATUS_AS(status, call_text, expected)                                                  \
  do {                                                                                                     \
    const int cts_status_ = (status);                                                                      \
    const int cts_expected_ = static_cast<int>(expected);                                                  \
    if (cts_status_ != cts_expected_) {                                                                    \
      const std::string cts_call_ = (call_text);                                                           \
      if (::infinicts::cts::IsUnsupportedStatus(cts_status_))                                              \
        GTEST_SKIP() << ::infinicts::cts::kUnsupportedPrefix << cts_call_ << " answered "                  \
                     << ::infinicts::StatusName(cts_status_);                                              \
      if (cts_expected_ == INFINI_STATUS_SUCCESS || cts_status_ == INFINI_STATUS_SUCCESS)                  \
        GTEST_FATAL_FAILURE_((cts_call_ + " answered " + ::infinicts::StatusName(cts_status_) + ", expected " + \
                              ::infinicts::StatusName(cts_expected_))                                      \
                                 .c_str());                                                                \
      ::infinicts::cts::RecordOtherRefusal(cts_call_, cts_status_, cts_expected_);                         \
    }                                                                                                      \
  } while (0)

// For a SHOULD clause (recorded, passing): records `metric` as 1 when `call` answered one of the
// recommended statuses and 0 when not, and `metric`_status as the status it answered.
#define CTS_SHOULD_ANSWER(call, metric, ...) \
  ::infinicts::cts::RecordShould(metric, ::infinicts::cts::ProbeInvalidInput(#call, [&] { return call; }), {__VA_ARGS__})

// Asserts any status but SUCCESS, for input whose exact error status the spec leaves open.
#define CTS_ASSERT_ERROR(call)                                                                             \
  do {                                                                                                     \
    const int cts_status_ = ::infinicts::cts::ProbeInvalidInput(#call, [&] { return call; });              \
    if (cts_status_ == INFINI_STATUS_SUCCESS)                                                              \
      GTEST_FATAL_FAILURE_(#call " answered INFINI_STATUS_SUCCESS, expected an error status");             \
  } while (0)
