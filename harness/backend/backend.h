// Loads a backend (any set of InfiniRT / InfiniOP / InfiniCCL shared libraries)
// and resolves every interface symbol into its interface's table (RtApi, OpApi, CclApi).
// A symbol the backend does not export is replaced by a stand-in answering
// INFINI_STATUS_NOT_IMPLEMENTED, so a case that needs it ends `unsupported`
// instead of calling through NULL.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "infiniccl.h"
#include "infiniop.h"
#include "infinirt.h"

namespace infinicts {

struct RtApi {
#define X(name, params, args) decltype(&::name) name = nullptr;
#include "backend/rt_symbols.def"
#undef X
};

struct OpApi {
#define X(name, params, args) decltype(&::name) name = nullptr;
#include "backend/op_symbols.def"
#undef X
};

struct CclApi {
#define X(name, params, args) decltype(&::name) name = nullptr;
#include "backend/ccl_symbols.def"
#undef X
};

class Backend {
 public:
  // Each path is a directory (libinfinirt.so, libinfiniop.so, libinfiniccl.so are
  // loaded from it, each that exists) or one library file. Returns nullptr and a
  // one-line reason in *error when nothing usable could be loaded.
  static std::unique_ptr<Backend> Load(const std::vector<std::string> &paths, std::string *error);

  ~Backend();
  Backend(const Backend &) = delete;
  Backend &operator=(const Backend &) = delete;

  const RtApi &rt() const { return rt_; }
  const OpApi &op() const { return op_; }
  const CclApi &ccl() const { return ccl_; }
  bool Exports(const std::string &symbol) const { return exported_.count(symbol) != 0; }
  const std::vector<std::string> &libraries() const { return libraries_; }
  std::vector<std::string> exported() const { return {exported_.begin(), exported_.end()}; }
  // The interface symbols the backend lacks. InfiniOP's (InfiniCCL's) are listed only when
  // the backend exports some of them: a backend without libinfiniop.so does not list every
  // operator function.
  const std::vector<std::string> &missing() const { return missing_; }

  // The tables themselves, for a wrapper that routes every call through its own functions
  // (the suites' call tracing, cts/call_tracing.h).
  struct Tables {
    RtApi &rt;
    OpApi &op;
    CclApi &ccl;
  };
  Tables tables_to_wrap() { return {rt_, op_, ccl_}; }

 private:
  Backend() = default;
  void *Resolve(const char *symbol) const;

  std::vector<void *> handles_;
  std::vector<std::string> libraries_;
  std::set<std::string> exported_;
  std::vector<std::string> missing_;
  RtApi rt_;
  OpApi op_;
  CclApi ccl_;
};

// The names of the interface symbols the loader knows, in declaration order.
const std::vector<std::string> &KnownRtSymbols();
const std::vector<std::string> &KnownOpSymbols();
const std::vector<std::string> &KnownCclSymbols();

}  // namespace infinicts
