#include "common/tensor_roles.h"

#include <cctype>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "tensor/dtype.h"

namespace infinicts::op_cases {
namespace {

struct RoleOfTensor {
  std::string name;
  std::optional<std::vector<std::string>> dims;  // absent: the create call does not describe it
  std::string dtype_of;                          // the tensor whose dtype it must have
  std::string kind;                              // "int", "float" or empty
};

[[noreturn]] void Fail(const std::string &roles, const std::string &what) {
  throw std::invalid_argument("tensor roles \"" + roles + "\": " + what);
}

std::vector<std::string> Split(const std::string &text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

bool IsIdentifier(const std::string &text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  }
  return true;
}

RoleOfTensor ParseToken(const std::string &roles, const std::string &token) {
  RoleOfTensor role;
  size_t end = token.find_first_of("[=:");
  role.name = token.substr(0, end);
  if (!IsIdentifier(role.name)) Fail(roles, "\"" + token + "\" does not start with a tensor name");
  std::string rest = end == std::string::npos ? "" : token.substr(end);
  if (!rest.empty() && rest[0] == '[') {
    const size_t close = rest.find(']');
    if (close == std::string::npos) Fail(roles, "\"" + token + "\" opens [ without closing it");
    const std::string inside = rest.substr(1, close - 1);
    role.dims = inside.empty() ? std::vector<std::string>{} : Split(inside, ',');
    for (const std::string &dim : *role.dims) {
      const std::string symbol = !dim.empty() && dim[0] == '~' ? dim.substr(1) : dim;
      if (!IsIdentifier(symbol)) Fail(roles, "\"" + token + "\" has a dim \"" + dim + "\" that is no symbol");
    }
    rest = rest.substr(close + 1);
  }
  if (rest.empty()) return role;
  const std::string value = rest.substr(1);
  if (rest[0] == '=' && IsIdentifier(value)) {
    role.dtype_of = value;
  } else if (rest[0] == ':' && (value == "int" || value == "float")) {
    role.kind = value;
  } else {
    Fail(roles, "\"" + token + "\" ends in \"" + rest + "\", not =tensor, :int or :float");
  }
  return role;
}

std::vector<RoleOfTensor> ParseRoles(const std::vector<TensorSpec> &specs, const std::string &roles) {
  std::vector<RoleOfTensor> parsed;
  std::istringstream in(roles);
  for (std::string token; in >> token;) parsed.push_back(ParseToken(roles, token));
  if (parsed.size() != specs.size()) {
    Fail(roles, "names " + std::to_string(parsed.size()) + " tensors; the specs have " + std::to_string(specs.size()));
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    const RoleOfTensor &role = parsed[i];
    if (role.name != specs[i].name) Fail(roles, "tensor " + std::to_string(i) + " is \"" + specs[i].name + "\"");
    if (role.dims && role.dims->size() != specs[i].layout.shape.size()) {
      Fail(roles, role.name + " has " + std::to_string(role.dims->size()) + " dims; its spec " +
                      ShapeText(specs[i].layout.shape));
    }
    if (role.dims && !specs[i].described) Fail(roles, role.name + " is not described by the create call: no dims");
    const bool probed = role.dims || !role.dtype_of.empty() || !role.kind.empty();
    if (probed && !specs[i].present) Fail(roles, role.name + " is absent from the probe problem: its name alone");
  }
  return parsed;
}

// A dtype of the same kind as `dtype` (float or integer) and not it: a mismatch no promotion
// rule excuses.
infiniDtype_t OtherDtypeOfKind(infiniDtype_t dtype) {
  if (IsInteger(dtype)) return dtype == INFINI_DTYPE_I64 ? INFINI_DTYPE_I32 : INFINI_DTYPE_I64;
  return dtype == INFINI_DTYPE_F16 ? INFINI_DTYPE_F32 : INFINI_DTYPE_F16;
}

size_t IndexOf(const std::vector<RoleOfTensor> &roles, const std::string &name, const std::string &line) {
  for (size_t i = 0; i < roles.size(); ++i) {
    if (roles[i].name == name) return i;
  }
  Fail(line, "no tensor \"" + name + "\"");
}

void AddDtypeProbes(const std::vector<TensorSpec> &specs, const std::vector<RoleOfTensor> &roles,
                    const std::string &line, std::vector<RoleProbe> &probes) {
  for (size_t i = 0; i < roles.size(); ++i) {
    const RoleOfTensor &role = roles[i];
    if (!role.dtype_of.empty()) {
      const size_t other = IndexOf(roles, role.dtype_of, line);
      if (specs[i].dtype != specs[other].dtype) Fail(line, role.name + "'s dtype is not " + role.dtype_of + "'s");
      const infiniDtype_t wrong = OtherDtypeOfKind(specs[other].dtype);
      probes.push_back({role.name + "_" + DtypeName(wrong) + "_" + role.dtype_of + "_" + DtypeName(specs[other].dtype),
                        INFINI_STATUS_BAD_TENSOR_DTYPE, [i, wrong](std::vector<TensorSpec> &s) { s[i].dtype = wrong; }});
    }
    if (!role.kind.empty()) {
      const bool want_int = role.kind == "int";
      if (want_int ? !IsInteger(specs[i].dtype) : !IsFloat(specs[i].dtype)) {
        Fail(line, role.name + " is not of kind " + role.kind);
      }
      const infiniDtype_t wrong = want_int ? INFINI_DTYPE_F32 : INFINI_DTYPE_I32;
      probes.push_back({role.name + "_" + DtypeName(wrong), INFINI_STATUS_BAD_TENSOR_DTYPE,
                        [i, wrong](std::vector<TensorSpec> &s) { s[i].dtype = wrong; }});
    }
  }
}

void AddTieProbes(const std::vector<TensorSpec> &specs, const std::vector<RoleOfTensor> &roles,
                  const std::string &line, std::vector<RoleProbe> &probes) {
  // Every symbol's occurrences, in the order of the line.
  std::vector<std::string> symbols;
  std::map<std::string, std::vector<std::pair<size_t, size_t>>> occurrences;
  for (size_t i = 0; i < roles.size(); ++i) {
    if (!roles[i].dims) continue;
    for (size_t d = 0; d < roles[i].dims->size(); ++d) {
      const std::string &symbol = (*roles[i].dims)[d];
      if (symbol == "_" || symbol[0] == '~') continue;
      if (occurrences.count(symbol) == 0) symbols.push_back(symbol);
      occurrences[symbol].push_back({i, d});
    }
  }
  for (const std::string &symbol : symbols) {
    const auto &at = occurrences[symbol];
    const size_t extent = specs[at[0].first].layout.shape[at[0].second];
    for (const auto &[i, d] : at) {
      if (specs[i].layout.shape[d] != extent) {
        Fail(line, symbol + " is " + std::to_string(extent) + " in " + roles[at[0].first].name + " and " +
                       std::to_string(specs[i].layout.shape[d]) + " in " + roles[i].name);
      }
    }
    if (at.size() < 2) continue;
    // One fewer: a tensor short of its partners is wrong whichever it is, where one longer
    // may be padding a kernel never reads (a block table with a spare row).
    const size_t moved = extent > 1 ? extent - 1 : extent + 1;
    for (const auto &[i, d] : at) {
      const size_t tensor = i, dim = d;
      probes.push_back({roles[i].name + "_" + symbol + "_" + std::to_string(moved), INFINI_STATUS_BAD_TENSOR_SHAPE,
                        [tensor, dim, moved](std::vector<TensorSpec> &s) {
                          Shape shape = s[tensor].layout.shape;
                          shape[dim] = moved;
                          Reshape(s[tensor], shape);
                        }});
    }
  }
}

void AddOverlapProbes(const std::vector<TensorSpec> &specs, const std::vector<RoleOfTensor> &roles,
                      std::vector<RoleProbe> &probes) {
  for (size_t i = 0; i < roles.size(); ++i) {
    if (!roles[i].dims || !IsWritten(specs[i])) continue;
    for (size_t d = 0; d < roles[i].dims->size(); ++d) {
      if (specs[i].layout.shape[d] < 2) continue;
      const std::string &symbol = (*roles[i].dims)[d];
      const std::string dim_name = symbol == "_" ? "dim" + std::to_string(d) : symbol[0] == '~' ? symbol.substr(1) : symbol;
      probes.push_back({roles[i].name + "_" + dim_name + "_stride_0", INFINI_STATUS_BAD_TENSOR_STRIDES,
                        [i, d](std::vector<TensorSpec> &s) { s[i].layout.strides[d] = 0; }});
    }
  }
}

}  // namespace

std::vector<RoleProbe> TensorRoleProbes(const std::vector<TensorSpec> &specs, const std::string &roles) {
  const std::vector<RoleOfTensor> parsed = ParseRoles(specs, roles);
  std::vector<RoleProbe> probes;
  AddDtypeProbes(specs, parsed, roles, probes);
  AddTieProbes(specs, parsed, roles, probes);
  AddOverlapProbes(specs, parsed, probes);
  return probes;
}

}  // namespace infinicts::op_cases
