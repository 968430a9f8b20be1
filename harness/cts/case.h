// The vocabulary of a case: GoogleTest fixtures and value-parameterised tests,
// plus what infinicts adds: case metadata (subject, spec clauses), the backend
// under test, metrics, and the `unsupported` outcome.
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

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "backend/names.h"

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

// How a perf case took its time, and every sample (the result's `timing`).
void RecordTiming(const nlohmann::json &timing);

// The perf profile the run asked for (INFINICTS_PROFILE): "quick" (the default) or
// "full", which adds the long sweeps. Perf parameter lists read it when they register.
bool FullProfile();

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
struct NameFromParam {
  template <class P>
  std::string operator()(const testing::TestParamInfo<P> &info) const {
    return info.param.Name();
  }
};

// Case metadata, registered next to each test by the CTS_TEST_* macros.
struct CaseMeta {
  std::string mode;  // empty for parameterised cases: the instantiation prefix names it
  std::string subject;
  std::vector<std::string> clauses;
};
bool RegisterCase(const char *fixture, const char *test, const char *mode, const char *subject,
                  std::vector<std::string> clauses);
const CaseMeta *FindCase(const std::string &fixture, const std::string &test);

// Every case starts on the first device under test, or is skipped when there is none.
class CaseBase : public testing::Test {
 protected:
  void SetUp() override;
};
template <class P>
class ParamCase : public CaseBase, public testing::WithParamInterface<P> {};

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

// Ends the case `unsupported` when the backend lacks the symbol.
#define CTS_REQUIRE_SYMBOL(symbol)                                                                          \
  do {                                                                                                     \
    if (!::infinicts::cts::GetContext().backend->Exports(#symbol))                                         \
      GTEST_SKIP() << ::infinicts::cts::kUnsupportedPrefix << "the backend does not export " #symbol;      \
  } while (0)

// Asserts SUCCESS; NOT_IMPLEMENTED / DEVICE_TYPE_NOT_SUPPORTED end the case `unsupported`.
#define CTS_ASSERT_OK(call)                                                                                \
  do {                                                                                                     \
    const int cts_status_ = static_cast<int>(call);                                                        \
    if (::infinicts::cts::IsUnsupportedStatus(cts_status_))                                                \
      GTEST_SKIP() << ::infinicts::cts::kUnsupportedPrefix << #call " answered "                           \
                   << ::infinicts::StatusName(cts_status_);                                                \
    ASSERT_TRUE(cts_status_ == INFINI_STATUS_SUCCESS)                                                      \
        << #call " answered " << ::infinicts::StatusName(cts_status_) << ", expected INFINI_STATUS_SUCCESS"; \
  } while (0)

// Asserts a given status (for bad input); NOT_IMPLEMENTED ends the case `unsupported`
// unless it is the status expected.
#define CTS_ASSERT_STATUS(call, expected)                                                                  \
  do {                                                                                                     \
    const int cts_status_ = static_cast<int>(call);                                                        \
    const int cts_expected_ = static_cast<int>(expected);                                                  \
    if (cts_status_ != cts_expected_ && cts_status_ == INFINI_STATUS_NOT_IMPLEMENTED)                      \
      GTEST_SKIP() << ::infinicts::cts::kUnsupportedPrefix << #call " answered "                           \
                   << ::infinicts::StatusName(cts_status_);                                                \
    ASSERT_TRUE(cts_status_ == cts_expected_) << #call " answered " << ::infinicts::StatusName(cts_status_) \
                                              << ", expected " << ::infinicts::StatusName(cts_expected_);   \
  } while (0)

// Asserts any status but SUCCESS, for input whose exact error status the spec leaves open.
#define CTS_ASSERT_ERROR(call)                                                                             \
  do {                                                                                                     \
    const int cts_status_ = static_cast<int>(call);                                                        \
    ASSERT_TRUE(cts_status_ != INFINI_STATUS_SUCCESS) << #call " answered INFINI_STATUS_SUCCESS, expected an error status"; \
  } while (0)
