// How docs/spec/op.md names an operator's clauses: OP-<SUBJECT>-<n>, the subject upper-cased
// without its underscores ("gelu_tanh" -> OP-GELUTANH-1).
#pragma once

#include <cctype>
#include <string>

namespace infinicts::cts {

// "gelu_tanh" -> "OP-GELUTANH-"; the operator's first clause is that and "1".
inline std::string OperatorClausePrefix(const std::string &subject) {
  std::string prefix = "OP-";
  for (char c : subject) {
    if (c != '_') prefix += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return prefix + "-";
}

}  // namespace infinicts::cts
