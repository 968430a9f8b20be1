// Enum arguments as C callers pass them: any int. Loading an out-of-range value as the
// C++ enum type is undefined, so the checks read the integer behind the parameter.
#ifndef INFINICTS_REF_CCL_C_ENUM_H
#define INFINICTS_REF_CCL_C_ENUM_H

#include <cstring>

namespace infinicts::ref::ccl {

template <class Enum>
int EnumValue(const Enum &value) {
  static_assert(sizeof(Enum) == sizeof(int), "the C enums of the interface are int-sized");
  int raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

}  // namespace infinicts::ref::ccl

#endif  // INFINICTS_REF_CCL_C_ENUM_H
