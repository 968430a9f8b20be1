#include "common/fault_env.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>

namespace infinicts::fault {
namespace {

bool IsDirectory(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string ParentOf(const std::string &path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// The file the wrapper was loaded from, as the dynamic loader knows it.
std::string OwnLibraryPath(const void *anchor) {
  Dl_info info {};
  if (dladdr(anchor, &info) == 0 || info.dli_fname == nullptr) {
    Die("cannot find the wrapper's own file with dladdr");
  }
  return info.dli_fname;
}

std::string TargetLibraryPath(const char *file_name, const void *anchor) {
  const char *target = std::getenv("INFINICTS_FAULT_TARGET");
  std::string location;
  if (target != nullptr && *target != '\0') {
    location = target;
  } else {
    const std::string own_folder = ParentOf(OwnLibraryPath(anchor));
    location = ParentOf(own_folder) + "/lib";
  }
  if (!IsDirectory(location)) return location;  // a library file named directly
  while (location.size() > 1 && location.back() == '/') location.pop_back();
  return location + "/" + file_name;
}

}  // namespace

void Die(const std::string &why) {
  std::fprintf(stderr, "infinicts fault backend: %s\n", why.c_str());
  std::fflush(stderr);
  std::abort();
}

const std::string &RequestedFaultName() {
  static const std::string name = [] {
    const char *value = std::getenv("INFINICTS_FAULT");
    std::string text = value != nullptr ? value : "";
    return text == "none" ? std::string() : text;
  }();
  return name;
}

namespace {

// Backends the faults imitate together, each by what the interface allows it and it does.
struct Imitation {
  const char *name;
  std::vector<std::string> faults;
};

const std::vector<Imitation> &Imitations() {
  // InfiniCore's CPU build (docs/spec's Why texts name each behaviour): a runtime that hands out
  // the NULL stream and runs work at the call, no StreamWaitEvent, no graphs, no collectives for
  // the CPU, no NULL checks, malloc's 16-byte alignment, clean refusals of strided layouts, other
  // error statuses on some refusals, unstable top-k ties, shapes checked before dtypes.
  static const std::vector<Imitation> imitations = {
      {"infinicore_cpu_like",
       // In this order: the faults that wrap every call of a table come last, around the others.
       {"stream_create_null", "stream_wait_event_not_implemented", "graphs_not_supported", "no_collectives",
        "add_checks_shapes_first", "topksoftmax_ties_to_higher_index", "refuses_strided_layouts",
        "shape_refusals_as_bad_param", "malloc_16_byte_aligned", "runs_work_at_the_call", "null_arguments_unchecked"}},
  };
  return imitations;
}

}  // namespace

const std::vector<std::string> &RequestedFaults() {
  static const std::vector<std::string> faults = [] {
    std::vector<std::string> names;
    const std::string &requested = RequestedFaultName();
    size_t at = 0;
    while (at < requested.size()) {
      size_t end = requested.find(',', at);
      if (end == std::string::npos) end = requested.size();
      const std::string name = requested.substr(at, end - at);
      at = end + 1;
      if (name.empty()) continue;
      bool imitation = false;
      for (const Imitation &entry : Imitations()) {
        if (name != entry.name) continue;
        names.insert(names.end(), entry.faults.begin(), entry.faults.end());
        imitation = true;
      }
      if (!imitation) names.push_back(name);
    }
    return names;
  }();
  return faults;
}

bool FaultRequested(const std::string &name) {
  for (const std::string &requested : RequestedFaults()) {
    if (requested == name) return true;
  }
  return false;
}

void *OpenTargetLibrary(const char *file_name, const void *anchor) {
  const std::string path = TargetLibraryPath(file_name, anchor);
  dlerror();
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char *why = dlerror();
    Die("cannot load the target " + path + ": " + (why != nullptr ? why : "unknown dlopen error") +
        " (set INFINICTS_FAULT_TARGET to the real backend's folder)");
  }
  // Forwarding to ourselves would recurse until the stack runs out.
  void *own = dlopen(OwnLibraryPath(anchor).c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (own != nullptr) {
    dlclose(own);
    if (own == handle) Die("the target " + path + " is the fault wrapper itself");
  }
  return handle;
}

}  // namespace infinicts::fault

// The cases that must catch this file's faults, a `fault-detection:` declaration each, which
// tests/fault/CMakeLists.txt makes a ctest entry of (infinicts_fault_detection's arguments).
// A StreamCreate that answers SUCCESS with the NULL stream (as InfiniCore's CPU runtime does): a
// conformant runtime (RT-STREAM-2). Every case runs on the stream it gave, the cases that alternate
// streams run both on it; only those that can show nothing on one stream (cross-stream waits, an
// event's time while another stream works) or must capture a stream of their own are skipped.
// fault-detection: stream_create_null TIMEOUT 30 ONLY
// fault-detection:   SKIPPED rt.event.conformance/stream_wait_event/* rt.event.conformance/time_is_when_the_stream_reaches_the_event
// fault-detection:   rt.event.conformance/elapsed_across_streams rt.graph.conformance/*
// The runtime behaviours of InfiniCore's CPU build together (common/fault_env.cc): nothing fails and
// nothing is blocked. The NULL probes crash, on invalid input; StreamWaitEvent and the graphs are
// unsupported (a graph case asks before it makes anything).
// fault-detection: infinicore_cpu_like TIMEOUT 30 ONLY
// fault-detection:   INVALID_INPUT_CRASHES rt.device.conformance/all_device_count_null rt.device.conformance/device_count_null
// fault-detection:   rt.device.conformance/get_device_null rt.device.conformance/mem_info_null rt.stream.conformance/create_null
// fault-detection:   rt.memory.conformance/malloc_null rt.memory.conformance/memcpy_null rt.memory.conformance/memset_rejects
// fault-detection:   rt.event.conformance/create_null rt.event.conformance/null_arguments rt.event.conformance/elapsed_null
// fault-detection:   rt.resource_snapshot.conformance/null_snapshot
// fault-detection:   UNSUPPORTED rt.event.conformance/stream_wait_* rt.event.conformance/time_is_when_the_stream_reaches_the_event
// fault-detection:   rt.event.conformance/wait_for_another_devices_event rt.graph.conformance/*
// fault-detection:   SKIPPED rt.event.conformance/elapsed_across_streams
// fault-detection:   PARTS rt.graph=unsupported
// fault-detection: infinicore_cpu_like SUITE op TIMEOUT 30 ONLY ${infinicts_op_sample}
// fault-detection:   INVALID_INPUT_CRASHES ${infinicts_op_null_probes}
// fault-detection:   UNSUPPORTED ${infinicts_op_refused_views}
// fault-detection:   MISSING_CAPABILITIES "layout transposed" "layout strided" "layout flipped"
// Each behaviour alone: StreamCreate answering the NULL stream runs every case, those that alternate
// two streams on it twice; a create refusing bad shapes with BAD_PARAM refuses all the same;
// equal logits in another order are the same selection. Every case passes.
// fault-detection: stream_create_null SUITE op TIMEOUT 30 ONLY ${infinicts_op_sample}
// StreamCreate answering the NULL stream, under the collective suite: the ranks' streams are all
// the NULL stream, which keeps every collective's order; the case that needs several groups
// side by side runs on it too. Every case passes.
// fault-detection: stream_create_null ${infinicts_ccl_on_4_devices} TIMEOUT 60 MAX_SECONDS 240 ONLY
// InfiniCore's CPU build has no CPU InfiniCCL: every collective case unsupported, the part too.
// fault-detection: infinicore_cpu_like ${infinicts_ccl_on_4_devices} TIMEOUT 60 MAX_SECONDS 240 ONLY
// fault-detection:   UNSUPPORTED ccl.* PARTS ccl=unsupported
