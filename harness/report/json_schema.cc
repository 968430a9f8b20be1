#include "report/json_schema.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace infinicts::report {
namespace {

using nlohmann::json;

const std::set<std::string> kAnnotations = {"$schema", "$id",     "title",   "description",
                                            "$comment", "default", "examples", "definitions"};
const std::set<std::string> kKeywords = {"type", "required", "properties", "additionalProperties", "items",
                                         "enum", "const",    "pattern",    "minimum",              "minItems",
                                         "$ref"};
const std::set<std::string> kTypes = {"null", "boolean", "object", "array", "number", "string", "integer"};

constexpr int kMaxDepth = 64;  // a $ref cycle must not recurse forever

std::string EscapePointerToken(const std::string &token) {
  std::string escaped;
  for (char c : token) {
    if (c == '~') escaped += "~0";
    else if (c == '/') escaped += "~1";
    else escaped += c;
  }
  return escaped;
}

bool HasType(const json &value, const std::string &type) {
  if (type == "null") return value.is_null();
  if (type == "boolean") return value.is_boolean();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "number") return value.is_number();
  if (type == "integer") {
    if (value.is_number_integer()) return true;
    if (!value.is_number_float()) return false;
    const double number = value.get<double>();
    return std::isfinite(number) && std::floor(number) == number;
  }
  return false;
}

std::string TypeOf(const json &value) {
  if (value.is_number_integer()) return "integer";
  if (value.is_number()) return "number";
  return value.type_name();
}

// JSON equality as the schema means it: 1 and 1.0 are the same number.
bool JsonEqual(const json &a, const json &b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  if (a.type() != b.type()) return false;
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!JsonEqual(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto other = b.find(it.key());
      if (other == b.end() || !JsonEqual(it.value(), *other)) return false;
    }
    return true;
  }
  return a == b;
}

std::string Short(const json &value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

}  // namespace

JsonSchemaValidator::JsonSchemaValidator(json schema) : schema_(std::move(schema)) {
  CheckSchema(schema_, "#");
  if (schema_.is_object() && schema_.contains("definitions")) {
    const json &definitions = schema_["definitions"];
    if (!definitions.is_object()) throw std::invalid_argument("#/definitions must be an object");
    for (auto it = definitions.begin(); it != definitions.end(); ++it) {
      CheckSchema(it.value(), "#/definitions/" + EscapePointerToken(it.key()));
    }
  }
}

void JsonSchemaValidator::CheckSchema(const json &schema, const std::string &where) {
  if (schema.is_boolean()) return;
  if (!schema.is_object()) throw std::invalid_argument(where + ": a schema must be an object or a boolean");
  for (auto it = schema.begin(); it != schema.end(); ++it) {
    const std::string &key = it.key();
    const json &value = it.value();
    const std::string at = where + "/" + EscapePointerToken(key);
    if (kAnnotations.count(key)) continue;
    if (!kKeywords.count(key)) throw std::invalid_argument(at + ": keyword not supported by this validator");
    if (key == "type") {
      const json types = value.is_array() ? value : json::array({value});
      for (const json &type : types) {
        if (!type.is_string() || !kTypes.count(type.get<std::string>()))
          throw std::invalid_argument(at + ": unknown type " + Short(type));
      }
    } else if (key == "required") {
      if (!value.is_array()) throw std::invalid_argument(at + ": must be an array of names");
      for (const json &name : value) {
        if (!name.is_string()) throw std::invalid_argument(at + ": must be an array of names");
      }
    } else if (key == "properties") {
      if (!value.is_object()) throw std::invalid_argument(at + ": must be an object");
      for (auto property = value.begin(); property != value.end(); ++property) {
        CheckSchema(property.value(), at + "/" + EscapePointerToken(property.key()));
      }
    } else if (key == "additionalProperties" || key == "items") {
      if (value.is_array()) throw std::invalid_argument(at + ": only a single schema is supported");
      CheckSchema(value, at);
    } else if (key == "enum") {
      if (!value.is_array() || value.empty()) throw std::invalid_argument(at + ": must be a non-empty array");
    } else if (key == "pattern") {
      if (!value.is_string()) throw std::invalid_argument(at + ": must be a string");
      const std::string pattern = value.get<std::string>();
      try {
        patterns_.emplace(pattern, std::regex(pattern, std::regex::ECMAScript));
      } catch (const std::regex_error &error) {
        throw std::invalid_argument(at + ": bad regular expression: " + error.what());
      }
    } else if (key == "minimum") {
      if (!value.is_number()) throw std::invalid_argument(at + ": must be a number");
    } else if (key == "minItems") {
      if (!value.is_number_unsigned()) throw std::invalid_argument(at + ": must be a non-negative integer");
    } else if (key == "$ref") {
      if (!value.is_string()) throw std::invalid_argument(at + ": must be a string");
      Resolve(value.get<std::string>());
    }
  }
}

const json &JsonSchemaValidator::Resolve(const std::string &ref) const {
  if (ref.empty() || ref[0] != '#') throw std::invalid_argument("$ref " + ref + ": only references into this schema are supported");
  try {
    const json &target = schema_.at(json::json_pointer(ref.substr(1)));
    return target;
  } catch (const json::exception &) {
    throw std::invalid_argument("$ref " + ref + " does not resolve");
  }
}

std::vector<SchemaViolation> JsonSchemaValidator::Validate(const json &document) const {
  std::vector<SchemaViolation> violations;
  ValidateNode(schema_, document, "", &violations, 0);
  return violations;
}

void JsonSchemaValidator::ValidateNode(const json &schema, const json &value, const std::string &pointer,
                                       std::vector<SchemaViolation> *violations, int depth) const {
  auto violate = [&](const std::string &message) { violations->push_back({pointer, message}); };
  if (depth > kMaxDepth) {
    violate("schema nests deeper than " + std::to_string(kMaxDepth) + " levels ($ref cycle?)");
    return;
  }
  if (schema.is_boolean()) {
    if (!schema.get<bool>()) violate("no value is allowed here");
    return;
  }
  if (auto ref = schema.find("$ref"); ref != schema.end()) {
    // draft-07: a $ref replaces every other keyword of its schema.
    ValidateNode(Resolve(ref->get<std::string>()), value, pointer, violations, depth + 1);
    return;
  }
  if (auto type = schema.find("type"); type != schema.end()) {
    const json types = type->is_array() ? *type : json::array({*type});
    bool matches = false;
    for (const json &name : types) matches = matches || HasType(value, name.get<std::string>());
    if (!matches) {
      violate("expected " + (type->is_array() ? Short(*type) : type->get<std::string>()) + ", found " + TypeOf(value));
      return;  // the other keywords would only repeat the same complaint
    }
  }
  if (auto allowed = schema.find("enum"); allowed != schema.end()) {
    bool found = false;
    for (const json &candidate : *allowed) found = found || JsonEqual(candidate, value);
    if (!found) violate(Short(value) + " is not one of " + Short(*allowed));
  }
  if (auto constant = schema.find("const"); constant != schema.end()) {
    if (!JsonEqual(*constant, value)) violate("expected " + Short(*constant) + ", found " + Short(value));
  }
  if (auto pattern = schema.find("pattern"); pattern != schema.end() && value.is_string()) {
    const std::regex &regex = patterns_.at(pattern->get<std::string>());
    if (!std::regex_search(value.get_ref<const std::string &>(), regex))
      violate(Short(value) + " does not match " + pattern->get<std::string>());
  }
  if (auto minimum = schema.find("minimum"); minimum != schema.end() && value.is_number()) {
    if (value.get<double>() < minimum->get<double>())
      violate(Short(value) + " is less than the minimum " + Short(*minimum));
  }
  if (auto min_items = schema.find("minItems"); min_items != schema.end() && value.is_array()) {
    if (value.size() < min_items->get<size_t>())
      violate("an array of " + std::to_string(value.size()) + " item(s), fewer than the " +
              std::to_string(min_items->get<size_t>()) + " required");
  }
  if (value.is_object()) {
    if (auto required = schema.find("required"); required != schema.end()) {
      for (const json &name : *required) {
        if (!value.contains(name.get<std::string>())) violate("missing required key \"" + name.get<std::string>() + "\"");
      }
    }
    const auto properties = schema.find("properties");
    const auto additional = schema.find("additionalProperties");
    for (auto it = value.begin(); it != value.end(); ++it) {
      const std::string child = pointer + "/" + EscapePointerToken(it.key());
      if (properties != schema.end() && properties->contains(it.key())) {
        ValidateNode((*properties)[it.key()], it.value(), child, violations, depth + 1);
      } else if (additional != schema.end()) {
        if (additional->is_boolean() && !additional->get<bool>()) {
          violations->push_back({child, "key \"" + it.key() + "\" is not allowed here"});
        } else {
          ValidateNode(*additional, it.value(), child, violations, depth + 1);
        }
      }
    }
  }
  if (value.is_array()) {
    if (auto items = schema.find("items"); items != schema.end()) {
      for (size_t i = 0; i < value.size(); ++i) {
        ValidateNode(*items, value[i], pointer + "/" + std::to_string(i), violations, depth + 1);
      }
    }
  }
}

std::string FormatViolations(const std::vector<SchemaViolation> &violations) {
  std::string text;
  for (const SchemaViolation &violation : violations) {
    text += (violation.pointer.empty() ? "(document)" : violation.pointer) + ": " + violation.message + "\n";
  }
  return text;
}

}  // namespace infinicts::report
