// include/ against InfiniCore's public headers: every fact of infinicore_abi.def (written by
// refresh_abi.py from InfiniCore's headers, for every name include/ declares) is checked by
// the compiler, and the loader's function tables list exactly the functions it names.
#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <string>
#include <type_traits>

#include "infiniccl.h"
#include "infiniop.h"
#include "infinirt.h"

namespace {

#define ABI_FUNCTION(name, ret, params) \
  static_assert(std::is_same_v<decltype(&::name), ret(*) params>, #name "'s signature differs from InfiniCore's");
#define ABI_TYPEDEF(name, type) static_assert(std::is_same_v<name, type>, #name " aliases another type than InfiniCore's");
#define ABI_ENUM(enumerator, value) \
  static_assert(static_cast<long long>(enumerator) == (value), #enumerator " has another value than InfiniCore's");
#if defined(__x86_64__) && defined(__linux__)
#define ABI_STRUCT(name, size) static_assert(sizeof(name) == (size), #name " has another size than InfiniCore's");
#define ABI_FIELD(name, field, offset) \
  static_assert(offsetof(name, field) == (offset), #name "::" #field " lies elsewhere than in InfiniCore's");
#else
#define ABI_STRUCT(name, size)
#define ABI_FIELD(name, field, offset)
#endif
#include "infinicore_abi.def"
#undef ABI_FIELD
#undef ABI_STRUCT
#undef ABI_ENUM
#undef ABI_TYPEDEF
#undef ABI_FUNCTION

std::set<std::string> AbiFunctions() {
  std::set<std::string> names;
#define ABI_FUNCTION(name, ret, params) names.insert(#name);
#define ABI_TYPEDEF(name, type)
#define ABI_ENUM(enumerator, value)
#define ABI_STRUCT(name, size)
#define ABI_FIELD(name, field, offset)
#include "infinicore_abi.def"
#undef ABI_FIELD
#undef ABI_STRUCT
#undef ABI_ENUM
#undef ABI_TYPEDEF
#undef ABI_FUNCTION
  return names;
}

std::set<std::string> LoaderFunctions() {
  std::set<std::string> names;
#define X(name, params, args) names.insert(#name);
#include "backend/ccl_symbols.def"
#include "backend/op_symbols.def"
#include "backend/rt_symbols.def"
#undef X
  return names;
}

// A function the loader binds must be one InfiniCore declares with the same signature, and a
// function the facts list (include/ declares it) must be one the loader binds.
TEST(Abi, LoaderTablesListTheCheckedFunctions) {
  const std::set<std::string> abi = AbiFunctions(), loader = LoaderFunctions();
  for (const std::string &name : loader) {
    EXPECT_TRUE(abi.count(name)) << name << " is bound by the loader but not in infinicore_abi.def: run "
                                 << "tests/abi/refresh_abi.py on InfiniCore's include/";
  }
  for (const std::string &name : abi) EXPECT_TRUE(loader.count(name)) << name << " is declared but never loaded";
}

}  // namespace
