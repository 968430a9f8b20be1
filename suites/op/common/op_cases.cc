#include "common/op_cases.h"

namespace infinicts::op_cases {

std::vector<std::string> Joined(std::vector<std::string> common, const std::vector<std::string> &own) {
  common.insert(common.end(), own.begin(), own.end());
  return common;
}

}  // namespace infinicts::op_cases
