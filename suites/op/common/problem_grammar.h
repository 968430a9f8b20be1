// The problem grammar (docs/usage.md "Problem lines"): each operator's Problem declares its
// fields once, and its problem line, its JSON and its parser all come from that declaration.
//
//   struct RmsNormProblem : Param<RmsNormProblem> {
//     ...
//     template <class Field> void Fields(Field &field) {
//       field.Bare("dtype", dtype);     // written without its key: "f16"
//       field("w", w_dtype);            // "w=f32"
//       field.Bare("shape", shape);     // "7x31"
//       field("eps", epsilon).Min(0);   // "eps=1e-06"; a line giving eps=-1 is refused
//     }
//   };
//
// A line is whitespace-separated tokens: the bare fields' values, then key=value for every
// other field that differs from its default (the default-constructed problem's value, or the
// type's zero): "f16 7x31 w=f32 x=pad eps=1e-06". Parsing gives every field its default and
// then sets what the line names, so Parse(Line(p)) == p. A value's text is its codec's (FieldCodec<T>): dtypes by name, enums
// by their names (EnumNames<T>), unsigned lists joined by 'x' ("7x31"), other lists by ',',
// an empty list "none", booleans true/false.
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensor/dtype.h"

namespace infinicts::op_cases {

// The names of an enum's values; the first name of a value is the one written, the others
// are accepted when read. Specialise with: static std::vector<std::pair<T, std::string>> All();
template <class T>
struct EnumNames;

// Numbers written so that reading them back gives the same value.
std::string ShortestText(double value);
std::string ShortestText(float value);
bool ParseNumber(const std::string &text, double *value);

// How one field's value is written in a line and in JSON, and read back. Specialise for a
// field type of your own (a struct: RandomSample's rows).
template <class T, class = void>
struct FieldCodec;

template <>
struct FieldCodec<infiniDtype_t> {
  static std::string Text(infiniDtype_t value) { return DtypeName(value); }
  static bool Parse(const std::string &text, infiniDtype_t *value) {
    const auto parsed = ParseDtype(text);
    if (!parsed) return false;
    *value = *parsed;
    return true;
  }
  static nlohmann::json Json(infiniDtype_t value) { return Text(value); }
};

template <>
struct FieldCodec<bool> {
  static std::string Text(bool value) { return value ? "true" : "false"; }
  static bool Parse(const std::string &text, bool *value) {
    if (text == "true" || text == "1" || text == "yes") *value = true;
    else if (text == "false" || text == "0" || text == "no") *value = false;
    else return false;
    return true;
  }
  static nlohmann::json Json(bool value) { return value; }
};

template <class T>
struct FieldCodec<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static std::string Text(T value) { return std::to_string(value); }
  static bool Parse(const std::string &text, T *value) {
    if (text.empty()) return false;
    if (std::is_unsigned_v<T> && text[0] == '-') return false;
    try {
      size_t used = 0;
      const long long parsed = std::stoll(text, &used);
      if (used != text.size()) return false;
      if (parsed < static_cast<long long>(std::numeric_limits<T>::min()) ||
          (parsed > 0 && static_cast<unsigned long long>(parsed) > std::numeric_limits<T>::max()))
        return false;
      *value = static_cast<T>(parsed);
      return true;
    } catch (const std::exception &) {
      return false;
    }
  }
  static nlohmann::json Json(T value) { return value; }
};

template <class T>
struct FieldCodec<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static std::string Text(T value) { return ShortestText(value); }
  static bool Parse(const std::string &text, T *value) {
    double parsed = 0;
    if (!ParseNumber(text, &parsed)) return false;
    *value = static_cast<T>(parsed);
    return true;
  }
  static nlohmann::json Json(T value) { return value; }
};

template <>
struct FieldCodec<std::string> {
  static std::string Text(const std::string &value) { return value; }
  static bool Parse(const std::string &text, std::string *value) {
    if (text.empty()) return false;
    *value = text;
    return true;
  }
  static nlohmann::json Json(const std::string &value) { return value; }
};

template <class T>
struct FieldCodec<T, std::enable_if_t<std::is_enum_v<T> && !std::is_same_v<T, infiniDtype_t>>> {
  static std::string Text(T value) {
    for (const auto &[known, name] : EnumNames<T>::All()) {
      if (known == value) return name;
    }
    throw std::logic_error("an enum value without a name in EnumNames");
  }
  static bool Parse(const std::string &text, T *value) {
    for (const auto &[known, name] : EnumNames<T>::All()) {
      if (name == text) {
        *value = known;
        return true;
      }
    }
    return false;
  }
  static nlohmann::json Json(T value) { return Text(value); }
};

template <class T>
struct FieldCodec<std::vector<T>> {
  // Unsigned extents read as a shape: 7x31; anything else as a list: 5,-1.
  static constexpr char kSeparator = std::is_unsigned_v<T> ? 'x' : ',';
  static std::string Text(const std::vector<T> &values) {
    if (values.empty()) return "none";
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) text += (i ? std::string(1, kSeparator) : "") + FieldCodec<T>::Text(values[i]);
    return text;
  }
  static bool Parse(const std::string &text, std::vector<T> *values) {
    values->clear();
    if (text == "none" || text == "scalar") return true;
    size_t start = 0;
    while (true) {
      const size_t end = text.find(kSeparator, start);
      T value{};
      if (!FieldCodec<T>::Parse(text.substr(start, end == std::string::npos ? std::string::npos : end - start), &value))
        return false;
      values->push_back(value);
      if (end == std::string::npos) return true;
      start = end + 1;
    }
  }
  static nlohmann::json Json(const std::vector<T> &values) {
    nlohmann::json json = nlohmann::json::array();
    for (const T &value : values) json.push_back(FieldCodec<T>::Json(value));
    return json;
  }
};

// The range the specification gives a number field: field("topk", topk).Min(1). A line
// whose value lies outside is refused, and the fuzzer draws inside it. Other fields ignore it.
struct FieldBounds {
  double *low = nullptr, *high = nullptr;
  FieldBounds &Min(double value) {
    if (low) *low = value;
    return *this;
  }
  FieldBounds &Max(double value) {
    if (high) *high = value;
    return *this;
  }
};

// What a field holds, as the fuzzer (common/problem_fuzzing.h) varies it.
enum class FieldKind { kDtype, kBool, kInteger, kUnsigned, kReal, kEnum, kShape, kOther };

// One field as a line and JSON show it; zero_text is the text of its type's zero value;
// choices are an enum's value names.
struct FieldText {
  std::string key;
  bool bare = false;
  std::string text, zero_text;
  nlohmann::json json;
  FieldKind kind = FieldKind::kOther;
  std::vector<std::string> choices;
  double low = -HUGE_VAL, high = HUGE_VAL;  // FieldBounds
};

template <class T>
FieldKind KindOfField() {
  if constexpr (std::is_same_v<T, infiniDtype_t>) return FieldKind::kDtype;
  else if constexpr (std::is_same_v<T, bool>) return FieldKind::kBool;
  else if constexpr (std::is_enum_v<T>) return FieldKind::kEnum;
  else if constexpr (std::is_integral_v<T>) return std::is_unsigned_v<T> ? FieldKind::kUnsigned : FieldKind::kInteger;
  else if constexpr (std::is_floating_point_v<T>) return FieldKind::kReal;
  else if constexpr (std::is_same_v<T, std::vector<size_t>>) return FieldKind::kShape;
  else return FieldKind::kOther;
}

// Visits a problem's fields and records each one's text.
class FieldCollector {
 public:
  template <class T>
  FieldBounds operator()(const std::string &key, T &value) {
    return Add(key, false, value);
  }
  template <class T>
  FieldBounds Bare(const std::string &key, T &value) {
    return Add(key, true, value);
  }
  std::vector<FieldText> fields() const { return {fields_.begin(), fields_.end()}; }

 private:
  template <class T>
  FieldBounds Add(const std::string &key, bool bare, const T &value) {
    std::string text = FieldCodec<T>::Text(value);
    if (bare && text == "none") text = "scalar";  // a bare empty list is a 0-D shape
    FieldText field{key, bare, text, FieldCodec<T>::Text(T{}), FieldCodec<T>::Json(value), KindOfField<T>(), {}};
    if constexpr (std::is_enum_v<T> && !std::is_same_v<T, infiniDtype_t>) {
      std::vector<T> named;  // the first name of each value
      for (const auto &[known, name] : EnumNames<T>::All()) {
        if (std::find(named.begin(), named.end(), known) != named.end()) continue;
        named.push_back(known);
        field.choices.push_back(name);
      }
    }
    fields_.push_back(std::move(field));
    return {&fields_.back().low, &fields_.back().high};
  }
  std::deque<FieldText> fields_;
};

// Visits a problem's fields: gives each its default (the default-constructed problem's value
// for that key, else its type's zero value), then sets those the line names. What the line
// names that no field takes is an error.
class FieldParser {
 public:
  // Splits the line; a token with '=' names its field, any other fills a bare field.
  FieldParser(const std::string &line, std::map<std::string, std::string> defaults);

  template <class T>
  FieldBounds operator()(const std::string &key, T &value) {
    Reset(key, value);
    const auto found = named_.find(key);
    if (found != named_.end()) {
      if (!FieldCodec<T>::Parse(found->second, &value)) Fail("'" + key + "=" + found->second + "': not a value of " + key);
      used_.push_back(key);
    }
    return Bounded(key, value);
  }
  template <class T>
  FieldBounds Bare(const std::string &key, T &value) {
    if (named_.count(key)) return operator()(key, value);
    Reset(key, value);
    for (size_t i = 0; i < bare_.size(); ++i) {
      if (bare_used_[i]) continue;
      T parsed = value;
      if (FieldCodec<T>::Parse(bare_[i], &parsed)) {
        value = parsed;
        bare_used_[i] = true;
        break;
      }
    }
    return Bounded(key, value);
  }

  // Empty when every token found its field; else why not.
  std::string Error() const;

 private:
  template <class T>
  void Reset(const std::string &key, T &value) {
    known_.push_back(key);
    value = T{};
    const auto found = defaults_.find(key);
    if (found != defaults_.end() && !FieldCodec<T>::Parse(found->second, &value))
      throw std::logic_error("the default of field " + key + " does not read back: " + found->second);
  }
  void Fail(const std::string &why) {
    if (error_.empty()) error_ = why;
  }
  // A number's value, checked against its bounds once the declaration has given them (Error).
  struct BoundedValue {
    std::string key;
    double value = 0, low = -HUGE_VAL, high = HUGE_VAL;
  };
  template <class T>
  FieldBounds Bounded(const std::string &key, const T &value) {
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      bounded_.push_back({key, static_cast<double>(value)});
      return {&bounded_.back().low, &bounded_.back().high};
    } else {
      return {};
    }
  }
  std::deque<BoundedValue> bounded_;

  std::map<std::string, std::string> defaults_;
  std::map<std::string, std::string> named_;
  std::vector<std::string> bare_;
  std::vector<bool> bare_used_;
  std::vector<std::string> known_, used_;
  std::string error_;
};

// Whether a Problem declares its fields.
template <class Problem, class = void>
struct HasFields : std::false_type {};
template <class Problem>
struct HasFields<Problem, std::void_t<decltype(std::declval<Problem &>().Fields(std::declval<FieldCollector &>()))>>
    : std::true_type {};

template <class Problem>
std::vector<FieldText> FieldTextsOf(Problem problem) {
  FieldCollector collector;
  problem.Fields(collector);
  return collector.fields();
}

// The fields of the default-constructed problem, computed once per type.
template <class Problem>
const std::vector<FieldText> &DefaultFieldTexts() {
  static const std::vector<FieldText> defaults = FieldTextsOf(Problem{});
  return defaults;
}

// The bare fields, then key=value for each field that differs from its default.
std::string JoinFieldTexts(const std::vector<FieldText> &fields, const std::vector<FieldText> &defaults);

// Every field by its key, and the problem's line under "problem".
nlohmann::json FieldTextsJson(const std::vector<FieldText> &fields, const std::vector<FieldText> &defaults);

template <class Problem>
std::string ProblemLine(const Problem &problem) {
  return JoinFieldTexts(FieldTextsOf(problem), DefaultFieldTexts<Problem>());
}

template <class Problem>
nlohmann::json ProblemFieldsJson(const Problem &problem) {
  return FieldTextsJson(FieldTextsOf(problem), DefaultFieldTexts<Problem>());
}

// The problem a line describes. The seed gives what is not a field (an elementwise
// operator's tensor names, which operator of a shared Problem type); every field starts at
// its default. Throws std::invalid_argument saying what in the line is wrong.
template <class Problem>
Problem ParseProblemLine(const std::string &line, const Problem &seed) {
  std::map<std::string, std::string> defaults;
  for (const FieldText &field : DefaultFieldTexts<Problem>()) defaults[field.key] = field.text;
  Problem problem = seed;
  FieldParser parser(line, std::move(defaults));
  problem.Fields(parser);
  const std::string error = parser.Error();
  if (!error.empty()) throw std::invalid_argument(error);
  return problem;
}

}  // namespace infinicts::op_cases
