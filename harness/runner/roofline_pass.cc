#include "runner/roofline_pass.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string_view>

#include "report/first_line.h"
#include "report/roofline.h"
#include "runner/child_process.h"

namespace infinicts::runner {
namespace {

constexpr auto kDeviceNameTimeLimit = std::chrono::seconds(5);

using report::CaseResult;
using report::FirstLine;

std::string FindInPath(const std::string &program) {
  const char *path = std::getenv("PATH");
  std::istringstream directories(path ? path : "/usr/bin:/bin");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    const std::string candidate = (directory.empty() ? "." : directory) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// The name of an NVIDIA device, for its spec-sheet peaks: $INFINICTS_DEVICE_NAME, else
// what nvidia-smi says of the first device of the run; "" when neither answers in time.
std::string NvidiaDeviceName(int device_id) {
  if (const char *name = std::getenv("INFINICTS_DEVICE_NAME"); name && *name) return name;
  const std::string smi = FindInPath("nvidia-smi");
  if (smi.empty()) return "";
  std::string error;
  auto child = ChildProcess::Start(
      smi, {"--query-gpu=name", "--format=csv,noheader", "-i", std::to_string(device_id)}, false, &error);
  if (!child) return "";
  std::string out;
  const auto sink = [&](ChildProcess::Stream stream, std::string_view data) {
    if (stream == ChildProcess::Stream::kStdout) out.append(data);
  };
  const auto deadline = std::chrono::steady_clock::now() + kDeviceNameTimeLimit;
  std::optional<int> status;
  while (!(status = child->TryReap())) {
    if (std::chrono::steady_clock::now() > deadline) return "";  // the destructor kills it
    child->Pump(50, sink);
  }
  child->Drain(sink);
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) return "";
  std::string name = FirstLine(out);
  while (!name.empty() && (name.back() == ' ' || name.back() == '\r')) name.pop_back();
  return name;
}

// After the last case of a run with perf results: the device's peaks and, on every
// perf result, how close it came to its roof (report/roofline.h).
}  // namespace

void AddRoofline(infiniDevice_t device_type, const std::string &device_type_name, int first_device_id,
                 report::Report *report) {
  const std::vector<CaseResult> &results = report->results();
  if (std::none_of(results.begin(), results.end(), [](const CaseResult &result) { return result.mode == "perf"; })) {
    return;
  }
  report::Roofline roofline;
  roofline.device = device_type_name;
  roofline.peaks = report::MeasuredPeaks(results);
  if (device_type == INFINI_DEVICE_NVIDIA) {
    const std::string name = NvidiaDeviceName(first_device_id);
    if (!name.empty()) roofline.device = name;
    const std::vector<report::Peak> spec = report::SpecSheetPeaks(name);
    roofline.peaks.insert(roofline.peaks.end(), spec.begin(), spec.end());
  }
  report->SetRoofline(std::move(roofline));
}

}  // namespace infinicts::runner
