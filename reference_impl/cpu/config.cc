#include "cpu/config.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <string>
#include <cstdlib>

namespace infinicts::ref::cpu {
namespace {

constexpr int kDefaultDeviceCount = 2;
constexpr int kMaxDeviceCount = 1024;
constexpr size_t kDefaultDeviceMemory = size_t{8} << 30;

bool ParseDeviceCount(const char *text, int *count) {
  char *end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value < 0 || value > kMaxDeviceCount) return false;
  *count = static_cast<int>(value);
  return true;
}

}  // namespace

bool ParseByteCount(const char *text, size_t *bytes) {
  if (text == nullptr || !std::isdigit(static_cast<unsigned char>(*text))) return false;
  char *end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  unsigned shift = 0;
  switch (std::toupper(static_cast<unsigned char>(*end))) {
    case '\0': break;
    case 'K': shift = 10; ++end; break;
    case 'M': shift = 20; ++end; break;
    case 'G': shift = 30; ++end; break;
    case 'T': shift = 40; ++end; break;
    default: return false;
  }
  if (*end != '\0' || value == 0 || value > (SIZE_MAX >> shift)) return false;
  *bytes = static_cast<size_t>(value) << shift;
  return true;
}

Config ReadConfig() {
  Config config{kDefaultDeviceCount, kDefaultDeviceMemory, false};
  if (const char *text = std::getenv("INFINICTS_CPU_DEVICES")) {
    if (!ParseDeviceCount(text, &config.device_count)) {
      std::fprintf(stderr, "infinirt (cpu): INFINICTS_CPU_DEVICES=\"%s\" is not a count in 0..%d; using %d\n", text,
                   kMaxDeviceCount, kDefaultDeviceCount);
      config.device_count = kDefaultDeviceCount;
    }
  }
  if (const char *text = std::getenv("INFINICTS_CPU_DEVICE_MEMORY")) {
    if (!ParseByteCount(text, &config.device_memory_bytes)) {
      std::fprintf(stderr, "infinirt (cpu): INFINICTS_CPU_DEVICE_MEMORY=\"%s\" is not a byte count; using 8 GiB\n",
                   text);
      config.device_memory_bytes = kDefaultDeviceMemory;
    }
  }
  if (const char *text = std::getenv("INFINICTS_CPU_SYNC")) {
    const std::string value = text;
    if (value == "1") config.synchronous = true;
    else if (value != "0" && !value.empty())
      std::fprintf(stderr, "infinirt (cpu): INFINICTS_CPU_SYNC=\"%s\" is neither 0 nor 1; streams stay asynchronous\n",
                   text);
  }
  return config;
}

}  // namespace infinicts::ref::cpu
