#include "cts/case_list.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "cts/case.h"
#include "cts/rank_spread.h"

namespace infinicts::cts {

nlohmann::json ToJson(const ListedCase &listed) {
  nlohmann::json json{{"test", listed.test},       {"id", listed.id},     {"suite", listed.suite},
                      {"subject", listed.subject}, {"mode", listed.mode}, {"clauses", listed.clauses},
                      {"params", listed.params}};
  if (listed.across_processes) json["across_processes"] = true;
  if (listed.invalid_input) json["invalid_input"] = true;
  return json;
}

ListedCase ListedCaseFromJson(const nlohmann::json &json) {
  ListedCase listed;
  listed.test = json.at("test").get<std::string>();
  listed.id = json.at("id").get<std::string>();
  listed.suite = json.at("suite").get<std::string>();
  listed.subject = json.at("subject").get<std::string>();
  listed.mode = json.at("mode").get<std::string>();
  listed.clauses = json.at("clauses").get<std::vector<std::string>>();
  listed.params = json.value("params", nlohmann::json::object());
  listed.across_processes = json.value("across_processes", false);
  listed.invalid_input = json.value("invalid_input", false);
  return listed;
}

std::string SnakeCase(const std::string &name) {
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = name[i];
    if (std::isupper(c)) {
      if (i > 0 && name[i - 1] != '_' && !std::isupper(static_cast<unsigned char>(name[i - 1]))) out += '_';
      out += static_cast<char>(std::tolower(c));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

std::string ParamPath(const std::string &param_name) {
  std::string path;
  for (size_t i = 0; i < param_name.size(); ++i) {
    if (param_name.compare(i, 2, "__") == 0) {
      path += '/';
      ++i;
    } else {
      path += param_name[i];
    }
  }
  return path;
}

[[noreturn]] void SuiteBug(const std::string &message) {
  std::fprintf(stderr, "infinicts suite error: %s\n", message.c_str());
  std::exit(3);
}

}  // namespace

std::vector<ListedCase> ListRegisteredCases(const std::string &suite) {
  std::vector<ListedCase> cases;
  std::set<std::string> ids;
  testing::UnitTest *unit = testing::UnitTest::GetInstance();
  for (int s = 0; s < unit->total_test_suite_count(); ++s) {
    const testing::TestSuite *test_suite = unit->GetTestSuite(s);
    for (int t = 0; t < test_suite->total_test_count(); ++t) {
      const testing::TestInfo *info = test_suite->GetTestInfo(t);
      const std::string suite_name = info->test_suite_name();
      const std::string test_name = info->name();
      ListedCase listed;
      listed.test = suite_name + "." + test_name;
      listed.suite = suite;

      // Parameterised: suite "<mode>/<Fixture>", test "<test>/<param>".
      std::string mode, fixture = suite_name, test = test_name, param;
      if (auto slash = suite_name.find('/'); slash != std::string::npos) {
        mode = suite_name.substr(0, slash);
        fixture = suite_name.substr(slash + 1);
      }
      if (auto slash = test_name.find('/'); slash != std::string::npos) {
        test = test_name.substr(0, slash);
        param = test_name.substr(slash + 1);
      }
      const CaseMeta *meta = FindCase(fixture, test);
      if (meta == nullptr) SuiteBug(listed.test + " was not declared with CTS_TEST_P / CTS_TEST_F");
      if (!meta->mode.empty()) mode = meta->mode;
      if (mode != "conformance" && mode != "accuracy" && mode != "perf")
        SuiteBug(listed.test + " has mode '" + mode + "'; expected conformance, accuracy or perf");

      listed.subject = meta->subject;
      listed.mode = mode;
      listed.clauses = meta->clauses;
      listed.across_processes = RunsAcrossProcesses(fixture);
      listed.invalid_input = meta->input == CaseInput::kInvalid;
      listed.id = suite + "." + meta->subject + "." + mode + "/" + SnakeCase(test);
      if (!param.empty()) listed.id += "/" + ParamPath(param);
      if (const char *value = info->value_param()) {
        listed.params = nlohmann::json::parse(value, nullptr, /*allow_exceptions=*/false);
        if (!listed.params.is_object()) listed.params = nlohmann::json{{"value", value}};
      }
      if (!ids.insert(listed.id).second) SuiteBug("two cases share the id " + listed.id);
      cases.push_back(std::move(listed));
    }
  }
  return cases;
}

}  // namespace infinicts::cts
