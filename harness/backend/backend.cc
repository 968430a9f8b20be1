#include "backend/backend.h"

#include <dlfcn.h>
#include <sys/stat.h>

namespace infinicts {
namespace {

// Stand-ins for symbols a backend lacks: calling one is never a crash.
namespace unexported {
#define X(name, params, args) \
  infiniStatus_t name params { return INFINI_STATUS_NOT_IMPLEMENTED; }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "backend/rt_symbols.def"
#include "backend/op_symbols.def"
#include "backend/ccl_symbols.def"
#pragma GCC diagnostic pop
#undef X
}  // namespace unexported

bool IsDirectory(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsFile(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The libraries of a backend directory, runtime first: the others may depend on it.
const char *const kBackendLibraryNames[] = {"libinfinirt.so", "libinfiniop.so", "libinfiniccl.so"};

}  // namespace

const std::vector<std::string> &KnownRtSymbols() {
  static const std::vector<std::string> names = {
#define X(name, params, args) #name,
#include "backend/rt_symbols.def"
#undef X
  };
  return names;
}

const std::vector<std::string> &KnownOpSymbols() {
  static const std::vector<std::string> names = {
#define X(name, params, args) #name,
#include "backend/op_symbols.def"
#undef X
  };
  return names;
}

const std::vector<std::string> &KnownCclSymbols() {
  static const std::vector<std::string> names = {
#define X(name, params, args) #name,
#include "backend/ccl_symbols.def"
#undef X
  };
  return names;
}

std::unique_ptr<Backend> Backend::Load(const std::vector<std::string> &paths, std::string *error) {
  std::vector<std::string> files;
  for (const std::string &path : paths) {
    if (IsDirectory(path)) {
      std::string dir = path;
      while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
      if (!IsFile(dir + "/libinfinirt.so")) {
        *error = "backend directory " + path + " has no libinfinirt.so";
        return nullptr;
      }
      for (const char *name : kBackendLibraryNames) {
        if (IsFile(dir + "/" + name)) files.push_back(dir + "/" + name);
      }
    } else if (IsFile(path)) {
      files.push_back(path);
    } else {
      *error = "backend path " + path + " is neither a library file nor a directory";
      return nullptr;
    }
  }
  if (files.empty()) {
    *error = "no backend given";
    return nullptr;
  }

  std::unique_ptr<Backend> backend(new Backend());
  for (const std::string &file : files) {
    dlerror();
    void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char *why = dlerror();
      *error = "cannot load " + file + ": " + (why ? why : "unknown dlopen error");
      return nullptr;
    }
    backend->handles_.push_back(handle);
    backend->libraries_.push_back(file);
  }

#define X(name, params, args)                                              \
  if (void *symbol = backend->Resolve(#name)) {                            \
    backend->rt_.name = reinterpret_cast<decltype(&::name)>(symbol);       \
    backend->exported_.insert(#name);                                      \
  } else {                                                                 \
    backend->rt_.name = &unexported::name;                                 \
    backend->missing_.push_back(#name);                                    \
  }
#include "backend/rt_symbols.def"
#undef X

  std::vector<std::string> op_missing;
#define X(name, params, args)                                              \
  if (void *symbol = backend->Resolve(#name)) {                            \
    backend->op_.name = reinterpret_cast<decltype(&::name)>(symbol);       \
    backend->exported_.insert(#name);                                      \
  } else {                                                                 \
    backend->op_.name = &unexported::name;                                 \
    op_missing.push_back(#name);                                           \
  }
#include "backend/op_symbols.def"
#undef X
  if (op_missing.size() < KnownOpSymbols().size()) {
    backend->missing_.insert(backend->missing_.end(), op_missing.begin(), op_missing.end());
  }

  std::vector<std::string> ccl_missing;
#define X(name, params, args)                                              \
  if (void *symbol = backend->Resolve(#name)) {                            \
    backend->ccl_.name = reinterpret_cast<decltype(&::name)>(symbol);      \
    backend->exported_.insert(#name);                                      \
  } else {                                                                 \
    backend->ccl_.name = &unexported::name;                                \
    ccl_missing.push_back(#name);                                          \
  }
#include "backend/ccl_symbols.def"
#undef X
  if (ccl_missing.size() < KnownCclSymbols().size()) {
    backend->missing_.insert(backend->missing_.end(), ccl_missing.begin(), ccl_missing.end());
  }

  if (!backend->Exports("infinirtSetDevice") || !backend->Exports("infinirtMalloc")) {
    *error = "no InfiniRT library among the backend's libraries (infinirtSetDevice and infinirtMalloc not exported)";
    return nullptr;
  }
  return backend;
}

void *Backend::Resolve(const char *symbol) const {
  for (void *handle : handles_) {
    if (void *found = dlsym(handle, symbol)) return found;
  }
  return nullptr;
}

Backend::~Backend() {
  // Libraries stay loaded: a backend's threads may still run code from them at exit.
}

}  // namespace infinicts
