#include "cli/outputs.h"

#include <cstdlib>
#include <ctime>

#include <sys/stat.h>

namespace infinicts::cli {
namespace {

// Whether two outputs would land in the same file: the same final name, or the same inode.
bool SameFile(const std::string &a, const std::string &b) {
  if (a == "-" || b == "-") return a == b;
  if (report::FinalPathOf(a) == report::FinalPathOf(b)) return true;
  struct stat sa {}, sb {};
  return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool IsStandardOutput(const std::string &path) { return path == "-" || path == "/dev/stdout"; }

}  // namespace

NamedOutput MarkdownOutput(const std::string &path) {
  return {"--md", path, report::IsJobSummary(path) ? report::WriteMode::kAppend : report::WriteMode::kReplace};
}

std::string RefusedOutputs(const std::vector<NamedOutput> &outputs, const std::vector<std::string> &inputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    const NamedOutput &output = outputs[i];
    if (output.path.empty()) continue;
    const std::string input = report::InputOverwrittenBy(output.path, inputs);
    if (!input.empty()) {
      return output.flag + " " + output.path + " is the input " + input + ": writing it would destroy the input";
    }
    for (size_t j = 0; j < i; ++j) {
      const NamedOutput &other = outputs[j];
      if (other.path.empty()) continue;
      // Several parts may go to standard output, one after another.
      if (IsStandardOutput(output.path) && IsStandardOutput(other.path)) continue;
      if (SameFile(output.path, other.path)) {
        return other.flag + " and " + output.flag + " name the same file (" + output.path + "): one would replace the other";
      }
    }
  }
  return "";
}

bool WriteNamedOutput(const NamedOutput &output, const std::string &text, std::string *error) {
  if (output.path.empty()) return true;
  return report::WriteOutput(output.path, text, output.mode, /*durable=*/false, error);
}

std::string DefaultReportPath(const std::string &prefix, const std::string &device) {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  return "reports/out/" + prefix + device + "-" + stamp + ".json";
}

std::string MakeWorkingDirectory(const std::string &purpose, std::string *error) {
  const char *tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/infinicts-" + purpose + "-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    *error = "cannot make a directory " + pattern;
    return "";
  }
  return pattern;
}

}  // namespace infinicts::cli
