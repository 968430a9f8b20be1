// Parameters shared by the runtime cases: which device under test (the first or the
// last of cts::device_ids(), resolved when the case runs), buffer sizes, copy kinds.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "cts/case.h"

namespace infinicts::rt_cases {

template <class P>
using Param = cts::Param<P>;

enum class DevicePick { kFirst, kLast };

inline const char *PickName(DevicePick pick) { return pick == DevicePick::kFirst ? "dev_first" : "dev_last"; }

// The device id a pick stands for in this run (cases are skipped when there is none).
inline int PickedId(DevicePick pick) {
  const auto &ids = cts::device_ids();
  return pick == DevicePick::kFirst ? ids.front() : ids.back();
}

inline const std::vector<DevicePick> kBothDevices = {DevicePick::kFirst, DevicePick::kLast};

struct DeviceParam : Param<DeviceParam> {
  DevicePick pick = DevicePick::kFirst;
  explicit DeviceParam(DevicePick p) : pick(p) {}
  std::string Name() const { return PickName(pick); }
  std::string Json() const { return nlohmann::json{{"device", PickName(pick)}}.dump(); }
};

inline std::vector<DeviceParam> DeviceParams() { return {DeviceParam(DevicePick::kFirst), DeviceParam(DevicePick::kLast)}; }

// The sizes the brief of every memory case draws from: empty, one byte, odd, just past a
// page, just past a MiB, and large enough to take measurable device time.
inline const std::vector<size_t> kAllSizes = {0, 1, 777, 4097, (size_t{1} << 20) + 3, size_t{64} << 20};

inline std::string SizeName(size_t bytes) { return "bytes_" + std::to_string(bytes); }

struct SizeParam : Param<SizeParam> {
  size_t bytes = 0;
  explicit SizeParam(size_t b) : bytes(b) {}
  std::string Name() const { return SizeName(bytes); }
  std::string Json() const { return nlohmann::json{{"bytes", bytes}}.dump(); }
};

inline const char *KindName(infinirtMemcpyKind_t kind) {
  switch (kind) {
    case INFINIRT_MEMCPY_H2H: return "h2h";
    case INFINIRT_MEMCPY_H2D: return "h2d";
    case INFINIRT_MEMCPY_D2H: return "d2h";
    case INFINIRT_MEMCPY_D2D: return "d2d";
  }
  return "kind";
}

inline const std::vector<infinirtMemcpyKind_t> kAllKinds = {INFINIRT_MEMCPY_H2H, INFINIRT_MEMCPY_H2D,
                                                            INFINIRT_MEMCPY_D2H, INFINIRT_MEMCPY_D2D};

struct CopyParam : Param<CopyParam> {
  infinirtMemcpyKind_t kind = INFINIRT_MEMCPY_H2H;
  size_t bytes = 0;
  CopyParam(infinirtMemcpyKind_t k, size_t b) : kind(k), bytes(b) {}
  std::string Name() const { return std::string(KindName(kind)) + "__" + SizeName(bytes); }
  std::string Json() const { return nlohmann::json{{"kind", KindName(kind)}, {"bytes", bytes}}.dump(); }
};

inline std::vector<SizeParam> SizeParams(const std::vector<size_t> &sizes) {
  return std::vector<SizeParam>(sizes.begin(), sizes.end());
}

inline std::vector<CopyParam> CopyMatrix(const std::vector<size_t> &sizes) {
  std::vector<CopyParam> params;
  for (infinirtMemcpyKind_t kind : kAllKinds) {
    for (size_t bytes : sizes) params.emplace_back(kind, bytes);
  }
  return params;
}

}  // namespace infinicts::rt_cases
