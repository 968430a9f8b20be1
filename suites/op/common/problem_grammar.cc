#include "common/problem_grammar.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace infinicts::op_cases {
namespace {

template <class T>
std::string Shortest(T value, int max_digits) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[64];
  for (int digits = 1; digits <= max_digits; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
    if (static_cast<T>(std::strtod(text, nullptr)) == value) break;
  }
  return text;
}

std::string Joined(const std::vector<std::string> &words) {
  std::string text;
  for (const std::string &word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

}  // namespace

std::string ShortestText(double value) { return Shortest(value, 17); }
std::string ShortestText(float value) { return Shortest(value, 9); }

bool ParseNumber(const std::string &text, double *value) {
  if (text.empty()) return false;
  errno = 0;
  char *end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  // ERANGE also flags a subnormal result, which is exact enough to keep; not an overflow to
  // infinity or an underflow to zero, which would change the value written.
  if (errno == ERANGE && (std::isinf(parsed) || parsed == 0)) return false;
  *value = parsed;
  return true;
}

FieldParser::FieldParser(const std::string &line, std::map<std::string, std::string> defaults)
    : defaults_(std::move(defaults)) {
  std::istringstream words(line);
  std::string word;
  while (words >> word) {
    const size_t equals = word.find('=');
    if (equals == std::string::npos) {
      bare_.push_back(word);
      continue;
    }
    const std::string key = word.substr(0, equals);
    if (key.empty()) Fail("'" + word + "': a value without its field's name");
    else if (!named_.emplace(key, word.substr(equals + 1)).second) Fail("field " + key + " given twice");
  }
  bare_used_.assign(bare_.size(), false);
}

std::string FieldParser::Error() const {
  if (!error_.empty()) return error_;
  for (const auto &[key, value] : named_) {
    if (std::find(used_.begin(), used_.end(), key) == used_.end())
      return "no field " + key + " (the fields: " + Joined(known_) + ")";
  }
  for (size_t i = 0; i < bare_.size(); ++i) {
    if (!bare_used_[i]) return "'" + bare_[i] + "' is no value a field takes without its name (write key=value; the fields: " +
                               Joined(known_) + ")";
  }
  for (const BoundedValue &bounded : bounded_) {
    if (bounded.value >= bounded.low && bounded.value <= bounded.high) continue;
    const auto limit = [](double value) { return std::isinf(value) ? std::string(value < 0 ? "-inf" : "inf") : ShortestText(value); };
    return "'" + bounded.key + "=" + ShortestText(bounded.value) + "': outside [" + limit(bounded.low) + ", " +
           limit(bounded.high) + "], the range the specification gives " + bounded.key;
  }
  return "";
}

std::string JoinFieldTexts(const std::vector<FieldText> &fields, const std::vector<FieldText> &defaults) {
  std::string line;
  auto append = [&line](const std::string &word) { line += (line.empty() ? "" : " ") + word; };
  for (const FieldText &field : fields) {
    if (field.bare) append(field.text);
  }
  for (const FieldText &field : fields) {
    if (field.bare) continue;
    const auto found = std::find_if(defaults.begin(), defaults.end(),
                                    [&](const FieldText &other) { return other.key == field.key; });
    const std::string &default_text = found != defaults.end() ? found->text : field.zero_text;
    if (field.text != default_text) append(field.key + "=" + field.text);
  }
  return line;
}

nlohmann::json FieldTextsJson(const std::vector<FieldText> &fields, const std::vector<FieldText> &defaults) {
  nlohmann::json json = nlohmann::json::object();
  for (const FieldText &field : fields) json[field.key] = field.json;
  json["problem"] = JoinFieldTexts(fields, defaults);
  return json;
}

}  // namespace infinicts::op_cases
