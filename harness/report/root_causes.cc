#include "report/root_causes.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>

namespace infinicts::report {
namespace {

const std::regex &ClausePattern() {
  static const std::regex clause(R"(\b(RT|OP|CCL)-[A-Z]+-[0-9]+\b)");
  return clause;
}

std::string FirstLineOf(const std::string &text) { return text.substr(0, text.find('\n')); }

// Digits (and a hex number's letters, a sign) become one '#'.
std::string WithoutNumbers(const std::string &text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      const bool sign = text[i] == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
                        (i == 0 || text[i - 1] == ' ' || text[i - 1] == '(' || text[i - 1] == '[');
      if (!sign) out += text[i];
      ++i;
      continue;
    }
    const bool hex = text.compare(i, 2, "0x") == 0;
    i += hex ? 2 : 0;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) ||
                               (hex && std::isxdigit(static_cast<unsigned char>(text[i]))) || text[i] == '.')) {
      ++i;
    }
    out += '#';
  }
  return out;
}

}  // namespace

// A bracketed list of numbers (a shape, strides) becomes "[…]": one root cause shows on
// tensors of any rank.
std::string WithoutNumberLists(const std::string &text) {
  static const std::regex list(R"(\[[-0-9., ]*\])");
  return std::regex_replace(text, list, "[…]");
}

// Items of a list that repeat one after another (", "- or "; "-separated) kept once: a list
// of the first mismatches has one shape however many it shows.
std::string WithoutRepeats(const std::string &text, const std::string &separator) {
  std::string out, previous;
  size_t at = 0;
  bool first = true;
  while (true) {
    const size_t next = text.find(separator, at);
    const std::string item = text.substr(at, next == std::string::npos ? std::string::npos : next - at);
    if (first || item != previous) out += (first ? "" : separator) + item;
    previous = item;
    first = false;
    if (next == std::string::npos) break;
    at = next + separator.size();
  }
  return out;
}

std::string MessageShape(const std::string &line) {
  const std::string first_line = WithoutNumberLists(line);
  std::string shape;
  auto at = first_line.cbegin();
  for (std::sregex_iterator it(first_line.begin(), first_line.end(), ClausePattern()), end; it != end; ++it) {
    shape += WithoutNumbers(std::string(at, (*it)[0].first)) + (*it)[0].str();
    at = (*it)[0].second;
  }
  shape += WithoutNumbers(std::string(at, first_line.cend()));
  return WithoutRepeats(WithoutRepeats(shape, ", "), "; ");
}

std::string FirstClauseIn(const std::string &line) {
  std::smatch match;
  return std::regex_search(line, match, ClausePattern()) ? match[0].str() : "";
}

namespace {

// What a failure is, before its trigger: the kind of group it falls into and the key that
// names the group among the results of its kind.
enum class Kind {
  kInvalidInputCrash,  // over every subject, by the call and its NULL arguments
  kBlocked,            // over every subject, by the key alone (a blocking clause, a probe's missing check)
  kSubjectBound,       // by subject (or crash site), then by trigger
};

struct Signature {
  Kind kind = Kind::kSubjectBound;
  std::string key;
};

// The text after `marker` in `line` to the end, or "".
std::string After(const std::string &line, const std::string &marker) {
  const size_t at = line.find(marker);
  return at == std::string::npos ? "" : line.substr(at + marker.size());
}

bool EndsWith(const std::string &text, const std::string &tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// "infiniopCreateGemmDescriptor(c_desc = NULL, b_desc = NULL)" -> "infiniopCreate<X>Descriptor(<tensor>_desc
// = NULL)": the operator and its tensors' names out, so that one missing check reads as one group
// over every operator. The first NULL names the probe (an absent optional tensor may follow it).
std::string ProbedCallKey(const std::string &call) {
  const size_t open = call.find('(');
  const std::string function = WithOperatorAbstracted(call.substr(0, open));
  const size_t null = call.find(" = NULL");
  if (open == std::string::npos || null == std::string::npos || null < open) return function;
  std::string name = call.substr(open + 1, null - open - 1);
  name = name.substr(0, name.find(','));
  if (function == "infiniopCreate<X>Descriptor" && name != "handle" && name != "desc_ptr") name = "<tensor>_desc";
  if (function == "infiniop<X>" && name != "desc" && name != "workspace") name = "<data>";
  return function + "(" + name + " = NULL)";
}

Signature SignatureOf(const RootCauses::Facts &facts) {
  const std::string &line = facts.first_line;
  switch (facts.status) {
    case Status::kCrash: {
      if (facts.crash_on_invalid_input) {
        std::string call = After(line, "on invalid input, in the backend call ");
        if (call.empty()) call = After(line, "after the probe of invalid input ");
        return {Kind::kInvalidInputCrash, "crash on invalid input|" + ProbedCallKey(call)};
      }
      const std::string call = After(line, "in the backend call ");
      return {Kind::kSubjectBound, "crash|" + WithOperatorAbstracted(call.substr(0, call.find('(')))};
    }
    case Status::kBlocked: return {Kind::kBlocked, "blocked|" + After(line, "blocked by ")};
    case Status::kFail:
      // A probe that finds a check missing: one gap, over every operator that lacks it.
      if (facts.invalid_input) return {Kind::kBlocked, "fail on invalid input|" + facts.test + "|" + FirstClauseIn(line)};
      return {Kind::kSubjectBound, "fail|" + facts.subject_key};
    case Status::kTimeout: return {Kind::kSubjectBound, "timeout|" + facts.subject_key};
    default: return {Kind::kSubjectBound, std::string(StatusName(facts.status)) + "|" + facts.subject_key};
  }
}

std::string JoinValues(const std::set<std::string> &values) {
  std::string text;
  for (const std::string &value : values) text += (text.empty() ? "" : ", ") + value;
  return text;
}

// A group in the making: its key, and for a parameter trigger the parameter and its values.
struct Draft {
  std::string key;
  std::string parameter;         // "" for a trigger of no parameter
  std::set<std::string> values;  // the parameter's values that fail wherever they occur
  std::string trigger;           // for the others: "every case", "every case of <test>", ""
  std::vector<const RootCauses::Facts *> cases;
};

std::string TriggerText(const Draft &draft) {
  if (draft.parameter.empty()) return draft.trigger;
  if (draft.values.size() == 1) return draft.parameter + " = " + *draft.values.begin();
  return draft.parameter + " ∈ {" + JoinValues(draft.values) + "}";
}

bool Intersect(const std::set<std::string> &a, const std::set<std::string> &b) {
  for (const std::string &value : a) {
    if (b.count(value) > 0) return true;
  }
  return false;
}

// Folds drafts of one key together: a parameter trigger with another of the same parameter whose
// values meet (the same layouts failing in two tests), any other with its exact twin.
void MergeInto(std::vector<Draft> *merged, Draft draft) {
  for (Draft &existing : *merged) {
    if (existing.key != draft.key || existing.parameter != draft.parameter) continue;
    const bool same = draft.parameter.empty() ? existing.trigger == draft.trigger : Intersect(existing.values, draft.values);
    if (!same) continue;
    existing.values.insert(draft.values.begin(), draft.values.end());
    existing.cases.insert(existing.cases.end(), draft.cases.begin(), draft.cases.end());
    return;
  }
  merged->push_back(std::move(draft));
}

// The failures of one signature within one test, split by what triggers them: the parameter
// whose failing values cover most of them, again for the rest, then what is left by its clause.
void SplitByTrigger(const std::string &key, const std::vector<const RootCauses::Facts *> &failing,
                    const std::vector<const RootCauses::Facts *> &test_cases, std::vector<Draft> *drafts) {
  std::set<const RootCauses::Facts *> failing_set(failing.begin(), failing.end());
  std::vector<const RootCauses::Facts *> uncovered = failing;
  while (!uncovered.empty()) {
    std::string best_parameter;
    std::set<std::string> best_values;
    size_t best_cover = 0;
    std::set<std::string> parameters;
    for (const RootCauses::Facts *facts : uncovered) {
      for (const auto &[name, value] : facts->params) parameters.insert(name);
    }
    for (const std::string &parameter : parameters) {
      // The values of the parameter that occur in no case outside this failure.
      std::set<std::string> values;
      for (const RootCauses::Facts *facts : uncovered) {
        if (const auto found = facts->params.find(parameter); found != facts->params.end()) values.insert(found->second);
      }
      for (const RootCauses::Facts *other : test_cases) {
        if (failing_set.count(other) > 0) continue;
        if (const auto found = other->params.find(parameter); found != other->params.end()) values.erase(found->second);
      }
      size_t cover = 0;
      for (const RootCauses::Facts *facts : uncovered) {
        const auto found = facts->params.find(parameter);
        cover += found != facts->params.end() && values.count(found->second) > 0 ? 1 : 0;
      }
      if (cover > best_cover || (cover == best_cover && cover > 0 && values.size() < best_values.size())) {
        best_parameter = parameter;
        best_values = values;
        best_cover = cover;
      }
    }
    if (best_cover == 0) break;
    Draft draft{key, best_parameter, {}, "", {}};
    std::vector<const RootCauses::Facts *> rest;
    for (const RootCauses::Facts *facts : uncovered) {
      const auto found = facts->params.find(best_parameter);
      if (found != facts->params.end() && best_values.count(found->second) > 0) {
        draft.values.insert(found->second);
        draft.cases.push_back(facts);
      } else {
        rest.push_back(facts);
      }
    }
    drafts->push_back(std::move(draft));
    uncovered = std::move(rest);
  }
  // No parameter tells these from the passing cases: one group per clause their first line names.
  std::map<std::string, Draft> by_clause;
  for (const RootCauses::Facts *facts : uncovered) {
    const std::string clause = FirstClauseIn(facts->first_line);
    Draft &draft = by_clause[clause];
    draft.key = key + "|" + facts->test + "|" + clause;
    draft.cases.push_back(facts);
  }
  for (auto &[clause, draft] : by_clause) drafts->push_back(std::move(draft));
}

}  // namespace

std::string WithOperatorAbstracted(const std::string &call) {
  static const std::set<std::string> kCommon = {
      "infiniopCreateHandle",           "infiniopDestroyHandle",           "infiniopCreateTensorDescriptor",
      "infiniopDestroyTensorDescriptor", "infiniopGetDescriptorDeviceType", "infiniopGetDescriptorDeviceId"};
  if (call.rfind("infiniop", 0) != 0 || kCommon.count(call) > 0) return call;
  for (const char *verb : {"infiniopCreate", "infiniopDestroy"}) {
    if (call.rfind(verb, 0) == 0 && EndsWith(call, "Descriptor")) return std::string(verb) + "<X>Descriptor";
  }
  if (call.rfind("infiniopGet", 0) == 0 && EndsWith(call, "WorkspaceSize")) return "infiniopGet<X>WorkspaceSize";
  return "infiniop<X>";
}

void RootCauses::Add(const CaseResult &result) {
  Facts facts;
  facts.order = added_++;
  facts.id = result.id;
  facts.subject_key = result.suite + "." + result.subject;
  const size_t slash = result.id.find('/');
  const std::string rest = slash == std::string::npos ? "" : result.id.substr(slash + 1);
  facts.test = result.mode + "/" + rest.substr(0, rest.find('/'));
  facts.status = result.status;
  facts.invalid_input = result.invalid_input;
  facts.crash_on_invalid_input = result.crash_on_invalid_input;
  if (IsFailure(result.status)) {
    ++failures_;
    facts.first_line = FirstLineOf(result.message);
    const size_t rerun = result.message.rfind("\nrerun: ");
    if (rerun != std::string::npos) facts.rerun = FirstLineOf(result.message.substr(rerun + 8));
  }
  if (result.params.is_object()) {
    for (auto it = result.params.begin(); it != result.params.end(); ++it) {
      facts.params[it.key()] = it.value().is_string() ? it.value().get<std::string>() : it.value().dump();
    }
  }
  const std::string subject = facts.subject_key;
  by_subject_[subject].push_back(std::move(facts));
  stale_.insert(subject);  // its cases moved in memory, and its groups may change
}

std::vector<RootCauses::Partial> RootCauses::PartialsOf(const std::vector<Facts> &facts) const {
  std::map<std::string, std::vector<const Facts *>> failing_by_key;  // signature key -> its failures
  std::map<std::string, Kind> kind_of;
  for (const Facts &entry : facts) {
    if (!IsFailure(entry.status)) continue;
    const Signature signature = SignatureOf(entry);
    failing_by_key[signature.key].push_back(&entry);
    kind_of[signature.key] = signature.kind;
  }
  std::vector<Draft> drafts;
  for (const auto &[key, failing] : failing_by_key) {
    if (kind_of[key] != Kind::kSubjectBound) {
      drafts.push_back(Draft{key, "", {}, "", failing});
      continue;
    }
    if (failing.size() == facts.size()) {  // nothing of the subject passed
      drafts.push_back(Draft{key, "", {}, "every case", failing});
      continue;
    }
    std::map<std::string, std::vector<const Facts *>> failing_by_test, cases_by_test;
    for (const Facts *entry : failing) failing_by_test[entry->test].push_back(entry);
    for (const Facts &entry : facts) {
      if (failing_by_test.count(entry.test) > 0) cases_by_test[entry.test].push_back(&entry);
    }
    for (const auto &[test, test_failing] : failing_by_test) {
      if (test_failing.size() == cases_by_test[test].size()) {
        drafts.push_back(Draft{key + "|" + test, "", {}, "every case of " + test, test_failing});
        continue;
      }
      SplitByTrigger(key, test_failing, cases_by_test[test], &drafts);
    }
  }
  std::vector<Draft> merged;
  for (Draft &draft : drafts) MergeInto(&merged, std::move(draft));
  std::vector<Partial> partials;
  for (const Draft &draft : merged) {
    partials.push_back(Partial{draft.key + "|" + draft.parameter + "|" + JoinValues(draft.values) + "|" + draft.trigger,
                               TriggerText(draft), draft.cases});
  }
  return partials;
}

std::vector<RootCauseGroup> RootCauses::Groups() const {
  for (const std::string &subject : stale_) {
    const auto found = by_subject_.find(subject);
    if (found != by_subject_.end()) partials_[subject] = PartialsOf(found->second);
  }
  stale_.clear();
  // Partials of several subjects with one key are one group (a call that crashes in every
  // operator, a clause that blocks cases everywhere).
  std::map<std::string, size_t> index;
  std::vector<std::vector<const Facts *>> members;
  std::vector<std::string> triggers;
  for (const auto &[subject, partials] : partials_) {
    for (const Partial &partial : partials) {
      auto [it, inserted] = index.emplace(partial.key, members.size());
      if (inserted) {
        members.emplace_back();
        triggers.push_back(partial.trigger);
      }
      members[it->second].insert(members[it->second].end(), partial.cases.begin(), partial.cases.end());
    }
  }
  std::vector<RootCauseGroup> groups;
  std::vector<size_t> first_order;
  for (size_t g = 0; g < members.size(); ++g) {
    std::vector<const Facts *> &cases = members[g];
    std::sort(cases.begin(), cases.end(), [](const Facts *a, const Facts *b) { return a->order < b->order; });
    const Facts &first = *cases.front();
    RootCauseGroup group;
    group.status = first.status;
    group.clause = FirstClauseIn(first.first_line);
    group.message = first.first_line;
    group.count = static_cast<int>(cases.size());
    group.trigger = triggers[g];
    group.rerun = first.rerun;
    for (const Facts *entry : cases) {
      if (group.examples.size() < kRootCauseExamples) group.examples.push_back(entry->id);
      if (std::find(group.subjects.begin(), group.subjects.end(), entry->subject_key) == group.subjects.end()) {
        group.subjects.push_back(entry->subject_key);
      }
    }
    groups.push_back(std::move(group));
    first_order.push_back(first.order);
  }
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return groups[a].count != groups[b].count ? groups[a].count > groups[b].count : first_order[a] < first_order[b];
  });
  std::vector<RootCauseGroup> sorted;
  for (size_t i : order) sorted.push_back(std::move(groups[i]));
  return sorted;
}

std::string DescribeGroup(const RootCauseGroup &group, size_t width) {
  std::string message = group.message.empty() ? "(no message)" : group.message;
  if (message.size() > width) message = message.substr(0, width) + "…";
  std::string examples;
  for (const std::string &id : group.examples) examples += (examples.empty() ? "" : ", ") + id;
  if (group.count > static_cast<int>(group.examples.size())) examples += ", …";
  std::string where;
  for (size_t i = 0; i < group.subjects.size() && i < 3; ++i) where += (i == 0 ? " in " : ", ") + group.subjects[i];
  if (group.subjects.size() > 3) where += " and " + std::to_string(group.subjects.size() - 3) + " more";
  if (!group.trigger.empty()) where += " on " + group.trigger;
  return std::to_string(group.count) + " " + StatusName(group.status) + where + ": " + message + " (" +
         (group.count == 1 ? "" : "e.g. ") + examples + ")";
}

}  // namespace infinicts::report
