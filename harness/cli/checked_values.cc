#include "cli/checked_values.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace infinicts::cli {
namespace {

constexpr long kMaxCpuDevices = 1024;                       // as the CPU reference allows
constexpr unsigned long long kMaxDeviceMemory = 1ULL << 50;  // 1 PiB: past any host's memory

// 86400 -> "86400", 0.001 -> "0.001", 1e+12 -> "1e+12": never 309 digits of DBL_MAX.
std::string Readable(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

// What is wrong with a glob, or "".
std::string GlobProblem(const std::string &glob) {
  for (size_t i = 0; i < glob.size(); ++i) {
    if (glob[i] == '\\') {
      if (i + 1 == glob.size()) return "it ends with a lone backslash";
      ++i;
      continue;
    }
    if (glob[i] != '[') continue;
    size_t j = i + 1;
    if (j < glob.size() && (glob[j] == '!' || glob[j] == '^')) ++j;
    if (j < glob.size() && glob[j] == ']') ++j;  // a ']' first is a member, not the end
    while (j < glob.size() && glob[j] != ']') ++j;
    if (j == glob.size()) return "the '[' at column " + std::to_string(i + 1) + " is never closed by ']'";
    i = j;
  }
  return "";
}

// Digits with an optional K, M, G or T (powers of 1024), more than 0; false otherwise.
bool ParseBytes(const std::string &text, unsigned long long *bytes) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  size_t end = 0;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  if (end > 16) return false;
  unsigned long long value = std::strtoull(text.substr(0, end).c_str(), nullptr, 10);
  const std::string suffix = text.substr(end);
  int shift = 0;
  if (suffix == "K" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "m") shift = 20;
  else if (suffix == "G" || suffix == "g") shift = 30;
  else if (suffix == "T" || suffix == "t") shift = 40;
  else if (!suffix.empty()) return false;
  if (value == 0 || value > (kMaxDeviceMemory >> shift)) return false;
  *bytes = value << shift;
  return true;
}

}  // namespace

CLI::Validator NumberWithin(double low, double high, const std::string &unit) {
  return CLI::Validator(
      [low, high, unit](std::string &text) -> std::string {
        errno = 0;
        char *end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || end == text.c_str() || *end != '\0' || errno == ERANGE || !std::isfinite(value)) {
          return "'" + text + "' is not a number of " + unit;
        }
        if (value < low || value > high) {
          return text + " is outside " + Readable(low) + " to " + Readable(high) + " " + unit;
        }
        return "";
      },
      "", "NumberWithin");
}

CLI::Validator WellFormedGlob() {
  return CLI::Validator(
      [](std::string &glob) -> std::string {
        const std::string body = !glob.empty() && glob[0] == '-' ? glob.substr(1) : glob;
        const std::string problem = GlobProblem(body);
        return problem.empty() ? "" : "'" + glob + "' is not a glob: " + problem;
      },
      "", "WellFormedGlob");
}

std::string BadReferenceEnvironment() {
  if (const char *text = std::getenv("INFINICTS_CPU_DEVICES")) {
    const std::string value = text;
    const bool digits = !value.empty() && value.size() <= 5 && value.find_first_not_of("0123456789") == std::string::npos;
    if (!digits || std::atol(text) > kMaxCpuDevices) {
      return "INFINICTS_CPU_DEVICES=\"" + value + "\" is not a device count from 0 to " +
             std::to_string(kMaxCpuDevices);
    }
  }
  if (const char *text = std::getenv("INFINICTS_CPU_DEVICE_MEMORY")) {
    unsigned long long bytes = 0;
    if (!ParseBytes(text, &bytes)) {
      return "INFINICTS_CPU_DEVICE_MEMORY=\"" + std::string(text) +
             "\" is not a byte count (digits, then K, M, G or T for powers of 1024; more than 0, at most 1 PiB)";
    }
  }
  if (const char *text = std::getenv("INFINICTS_CPU_SYNC")) {
    const std::string value = text;
    if (!value.empty() && value != "0" && value != "1") return "INFINICTS_CPU_SYNC=\"" + value + "\" is neither 0 nor 1";
  }
  return "";
}

}  // namespace infinicts::cli
