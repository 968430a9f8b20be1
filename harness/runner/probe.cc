#include "runner/probe.h"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "backend/backend.h"
#include "backend/names.h"
#include "runner/child_process.h"

namespace infinicts::runner {
namespace {

void WriteAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = write(fd, text.data() + done, text.size() - done);
    if (written <= 0) return;
    done += static_cast<size_t>(written);
  }
}

constexpr int kMaxDevicesPerType = 4096;  // far past any node's accelerators

// Runs in the forked child: load, init, count, answer in one JSON object.
int ProbeInChild(const std::vector<std::string> &paths, int results_fd) {
  nlohmann::json answer;
  std::string error;
  std::unique_ptr<Backend> backend = Backend::Load(paths, &error);
  if (!backend) {
    answer["error"] = error;
    WriteAll(results_fd, answer.dump());
    return 0;
  }
  const int init = backend->rt().infinirtInit();
  answer["libraries"] = backend->libraries();
  answer["exported"] = backend->exported();
  answer["missing"] = backend->missing();
  answer["init_status"] = StatusName(init);
  if (init != INFINI_STATUS_SUCCESS && init != INFINI_STATUS_NOT_IMPLEMENTED) {
    answer["error"] = "infinirtInit() answered " + StatusName(init);
  }
  nlohmann::json counts = nlohmann::json::array(), statuses = nlohmann::json::array();
  for (int type = 0; type < INFINI_DEVICE_TYPE_COUNT; ++type) {
    int count = 0;
    const int status = backend->rt().infinirtGetDeviceCount(static_cast<infiniDevice_t>(type), &count);
    // A count no machine has is the backend's bug, never a size to allocate by.
    if (status == INFINI_STATUS_SUCCESS && (count < 0 || count > kMaxDevicesPerType)) {
      answer["error"] = "infinirtGetDeviceCount(" + DeviceTypeName(static_cast<infiniDevice_t>(type)) + ") answered " +
                        std::to_string(count) + " devices: not a device count (0 to " +
                        std::to_string(kMaxDevicesPerType) + ")";
      WriteAll(results_fd, answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      return 0;
    }
    counts.push_back(status == INFINI_STATUS_SUCCESS ? count : 0);
    statuses.push_back(StatusName(status));
  }
  answer["device_counts"] = counts;
  answer["device_count_status"] = statuses;
  WriteAll(results_fd, answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return 0;
}

std::string LastLine(const std::string &text) {
  size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  const size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

}  // namespace

bool ProbeBackend(const std::vector<std::string> &paths, double timeout_s, BackendProbe *probe, std::string *error) {
  auto child = ChildProcess::Fork([&](int results_fd) { return ProbeInChild(paths, results_fd); }, error);
  if (!child) return false;
  std::string answer_text;
  OutputTail output;
  const auto sink = [&](ChildProcess::Stream stream, std::string_view data) {
    if (stream == ChildProcess::Stream::kResults) answer_text.append(data);
    else output.Append(data);
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  std::optional<int> status;
  while (!(status = child->TryReap())) {
    if (std::chrono::steady_clock::now() > deadline) {
      child->KillGroup();
      child->Reap();
      *error = "the backend did not finish loading within " + std::to_string(static_cast<int>(timeout_s)) + " s";
      return false;
    }
    child->Pump(50, sink);
  }
  child->Drain(sink);
  child->KillGroup();  // whatever the backend started while loading goes with the probe

  const std::string last_output = LastLine(output.Text());
  const std::string output_note = last_output.empty() ? "" : " (last output: " + last_output + ")";
  if (!WIFEXITED(*status) || WEXITSTATUS(*status) != 0) {
    *error = "the backend crashed while loading: the probe " + DescribeWaitStatus(*status) + output_note;
    return false;
  }
  const nlohmann::json answer = nlohmann::json::parse(answer_text, nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object()) {
    *error = "the backend probe gave no answer" + output_note;
    return false;
  }
  if (answer.contains("error")) {
    *error = answer["error"].get<std::string>();
    return false;
  }
  probe->libraries = answer["libraries"].get<std::vector<std::string>>();
  probe->exported = answer["exported"].get<std::vector<std::string>>();
  probe->missing = answer["missing"].get<std::vector<std::string>>();
  probe->init_status = answer["init_status"].get<std::string>();
  probe->device_counts = answer["device_counts"].get<std::vector<int>>();
  probe->device_count_status = answer["device_count_status"].get<std::vector<std::string>>();
  return true;
}

}  // namespace infinicts::runner
