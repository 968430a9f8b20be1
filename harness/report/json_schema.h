// A JSON Schema (draft-07) validator for the keywords infinicts' schemas use:
// type, required, properties, additionalProperties, items, enum, const, pattern,
// minimum and $ref to a JSON pointer in the same document ("#/definitions/…").
// Annotation keywords ($schema, $id, title, description, definitions, $comment,
// default, examples) are accepted and ignored; any other keyword is refused when
// the schema is loaded, so that a schema never checks less than it says.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <string>
#include <vector>

namespace infinicts::report {

struct SchemaViolation {
  std::string pointer;  // JSON pointer into the document ("" is the whole document)
  std::string message;
};

class JsonSchemaValidator {
 public:
  // Throws std::invalid_argument for a keyword it does not implement, a bad
  // pattern or a $ref it cannot resolve.
  explicit JsonSchemaValidator(nlohmann::json schema);

  std::vector<SchemaViolation> Validate(const nlohmann::json &document) const;

 private:
  void CheckSchema(const nlohmann::json &schema, const std::string &where);
  const nlohmann::json &Resolve(const std::string &ref) const;
  void ValidateNode(const nlohmann::json &schema, const nlohmann::json &value, const std::string &pointer,
                    std::vector<SchemaViolation> *violations, int depth) const;

  nlohmann::json schema_;
  std::map<std::string, std::regex> patterns_;
};

// "/results/3/status: \"passed\" is not one of …", one violation a line.
std::string FormatViolations(const std::vector<SchemaViolation> &violations);

}  // namespace infinicts::report
