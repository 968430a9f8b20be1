#include "report/roofline.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

namespace infinicts::report {
namespace {

constexpr const char *kBandwidth = "bandwidth";
// The best copy small enough to run in a cache: the roof of a point above the memory's.
constexpr const char *kCacheBandwidth = "bandwidth:cache";
// Above a roof by more than this share: the roof is wrong for it (timing noise aside).
constexpr double kAboveRoofSlack = 1.02;
constexpr const char *kGbytesPerS = "gbytes_per_s";
constexpr const char *kGflops = "gflops";
constexpr const char *kMeasured = "measured";
constexpr const char *kSpecSheet = "spec_sheet";
// The bandwidth roof is memory traffic (bytes read + bytes written per second), as an
// operator's bytes and a datasheet's figure count it; a device-to-device copy of S bytes
// moves 2·S.
constexpr double kCopyTraffic = 2.0;

std::string ComputeName(const std::string &dtype) { return "compute:" + dtype; }

// A finite, non-negative number under key, or nothing.
std::optional<double> NumberAt(const nlohmann::json &object, const char *key) {
  if (!object.is_object()) return std::nullopt;
  const auto found = object.find(key);
  if (found == object.end() || !found->is_number()) return std::nullopt;
  const double value = found->get<double>();
  if (!std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

std::string StringAt(const nlohmann::json &object, const char *key) {
  if (!object.is_object()) return "";
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

// timing.resolved false: timed near the timer's resolution, so no figure to hold to a roof.
bool TimerUnresolved(const nlohmann::json &timing) {
  if (!timing.is_object()) return false;
  const auto resolved = timing.find("resolved");
  return resolved != timing.end() && resolved->is_boolean() && !resolved->get<bool>();
}

bool IsPassingPerf(const CaseResult &result) {
  return result.mode == "perf" && result.status == Status::kPass && !TimerUnresolved(result.timing);
}

const Peak *FindPeak(const std::vector<Peak> &peaks, const std::string &name, const std::string &source) {
  for (const Peak &peak : peaks) {
    if (peak.name == name && peak.source == source && peak.value > 0) return &peak;
  }
  return nullptr;
}

std::string Lower(std::string text) {
  for (char &c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool Contains(const std::string &text, const char *part) { return text.find(part) != std::string::npos; }

struct PartFigures {
  const char *part;
  double bandwidth_gbytes_per_s;
  double f16_tflops, bf16_tflops, tf32_tflops, f32_tflops;  // dense (no 2:4 sparsity)
};

// NVIDIA's datasheets quote tensor-core figures "with sparsity"; the dense figures here
// are half of those. NVIDIA's own pages were not reachable from here; the figures were
// checked against secondary copies of the datasheet tables:
//   H100 SXM  https://glennklockwood.com/garden/processors/h100 (from NVIDIA's Hopper
//             whitepaper): 3.35 TB/s HBM3; FP16/BF16 tensor 989.4 dense; TF32 494.7
//             dense; FP32 66.9 TFLOPS.
//   H200 SXM  the same GH100 die and clocks with HBM3e at 4.8 TB/s:
//             https://itkb.uw.cz/2026/06/nvidia-h200-vs-b300-precisions-cores.html
//             (FP16/BF16 ~989 dense) and https://hmc-tech.com/gpu/nvidia-h100-vs-nvidia-h200-sxm-vs-nvidia-gb200
//             (FP32 66.91 TFLOPS).
//   A100 SXM 80GB  https://glennklockwood.com/garden/processors/A100, which cites
//             https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf:
//             2,039 GB/s HBM2e; FP16/BF16 tensor 312 dense; TF32 156 dense; FP32 19.5.
constexpr PartFigures kH200Sxm = {"NVIDIA H200 SXM", 4800, 989, 989, 494, 67};
constexpr PartFigures kH100Sxm = {"NVIDIA H100 SXM", 3350, 989, 989, 494, 67};
constexpr PartFigures kA100Sxm80 = {"NVIDIA A100 SXM 80GB", 2039, 312, 312, 156, 19.5};

// PCIe and NVL variants run at lower clocks and power: their figures differ, so they are not guessed.
const PartFigures *KnownPart(const std::string &device_name) {
  const std::string name = Lower(device_name);
  if (Contains(name, "pcie") || Contains(name, "nvl")) return nullptr;
  if (Contains(name, "h200")) return &kH200Sxm;  // "NVIDIA H200"
  if (Contains(name, "h100") && (Contains(name, "sxm") || Contains(name, "hbm3"))) return &kH100Sxm;  // "NVIDIA H100 80GB HBM3"
  if (Contains(name, "a100") && Contains(name, "sxm") && Contains(name, "80gb")) return &kA100Sxm80;  // "NVIDIA A100-SXM4-80GB"
  return nullptr;
}

}  // namespace

nlohmann::ordered_json ToJson(const Roofline &roofline) {
  nlohmann::ordered_json peaks = nlohmann::ordered_json::array();
  for (const Peak &peak : roofline.peaks) {
    nlohmann::ordered_json json{{"name", peak.name}, {"value", peak.value}, {"unit", peak.unit}, {"source", peak.source}};
    if (!peak.case_id.empty()) json["case_id"] = peak.case_id;
    if (!peak.part.empty()) json["part"] = peak.part;
    peaks.push_back(std::move(json));
  }
  return nlohmann::ordered_json{{"device", roofline.device}, {"peaks", std::move(peaks)}};
}

namespace {

bool IsDeviceCopy(const CaseResult &result) {
  return IsPassingPerf(result) && result.suite == "rt" && result.subject == "memory" &&
         StringAt(result.params, "kind") == "d2d";
}

// A copy that fits in a cache measures the cache, and the roof is the memory's: only
// copies of at least kMemoryBoundBytes count, or the largest made when none is that large.
double SmallestMemoryBoundCopy(const std::vector<CaseResult> &results) {
  constexpr double kMemoryBoundBytes = 64.0 * 1024 * 1024;
  double largest = 0;
  for (const CaseResult &result : results) {
    if (IsDeviceCopy(result)) largest = std::max(largest, NumberAt(result.params, "bytes").value_or(0.0));
  }
  return std::min(largest, kMemoryBoundBytes);
}

}  // namespace

std::vector<Peak> MeasuredPeaks(const std::vector<CaseResult> &results) {
  std::optional<Peak> bandwidth, cache_bandwidth;
  std::map<std::string, Peak> compute;  // by dtype, so that the peaks come out sorted
  const double smallest_copy = SmallestMemoryBoundCopy(results);
  for (const CaseResult &result : results) {
    if (!IsPassingPerf(result)) continue;
    if (IsDeviceCopy(result)) {
      const auto rate = NumberAt(result.metrics, kGbytesPerS);
      if (!rate || *rate <= 0) continue;
      std::optional<Peak> &best =
          NumberAt(result.params, "bytes").value_or(0.0) < smallest_copy ? cache_bandwidth : bandwidth;
      if (!best || kCopyTraffic * *rate > best->value) {
        best = Peak{&best == &bandwidth ? kBandwidth : kCacheBandwidth, kCopyTraffic * *rate, kGbytesPerS, kMeasured,
                    result.id, ""};
      }
    } else if (result.suite == "op" && result.subject == "gemm") {
      const std::string dtype = StringAt(result.params, "dtype");
      const auto rate = NumberAt(result.metrics, kGflops);
      if (dtype.empty() || !rate || *rate <= 0) continue;
      auto found = compute.find(dtype);
      if (found == compute.end() || *rate > found->second.value) {
        compute[dtype] = Peak{ComputeName(dtype), *rate, kGflops, kMeasured, result.id, ""};
      }
    }
  }
  std::vector<Peak> peaks;
  if (bandwidth) peaks.push_back(*bandwidth);
  // Drawn only where a cache beats the memory: the level points above the memory's roof ran in.
  if (cache_bandwidth && (!bandwidth || cache_bandwidth->value > bandwidth->value)) peaks.push_back(*cache_bandwidth);
  for (auto &[dtype, peak] : compute) peaks.push_back(std::move(peak));
  return peaks;
}

std::vector<Peak> SpecSheetPeaks(const std::string &device_name) {
  const PartFigures *part = KnownPart(device_name);
  if (part == nullptr) return {};
  const auto spec = [&](std::string name, double value, const char *unit) {
    return Peak{std::move(name), value, unit, kSpecSheet, "", part->part};
  };
  return {spec(kBandwidth, part->bandwidth_gbytes_per_s, kGbytesPerS),
          spec(ComputeName("bf16"), part->bf16_tflops * 1e3, kGflops),
          spec(ComputeName("f16"), part->f16_tflops * 1e3, kGflops),
          spec(ComputeName("f32"), part->f32_tflops * 1e3, kGflops),
          spec(ComputeName("tf32"), part->tf32_tflops * 1e3, kGflops)};
}

namespace {

// The roof a throughput is held to at one bandwidth: min(compute, intensity x bandwidth) for an
// operator, the bandwidth itself for a copy or a collective (rate and roof in GB/s then).
struct Held {
  double rate = 0;
  std::optional<double> roof;
};

Held HoldOp(const CaseResult &result, const Peak *compute, const Peak *bandwidth) {
  Held held;
  const auto gflops = NumberAt(result.metrics, kGflops);
  if (!gflops) return held;
  held.rate = *gflops;
  std::optional<double> intensity = NumberAt(result.metrics, "arithmetic_intensity_flops_per_byte");
  if (!intensity || *intensity <= 0) {
    const auto flops = NumberAt(result.metrics, "flops");
    const auto bytes = NumberAt(result.metrics, "bytes");
    intensity = flops && bytes && *bytes > 0 ? std::optional<double>(*flops / *bytes) : std::nullopt;
  }
  if (compute) held.roof = compute->value;
  if (bandwidth && intensity && *intensity > 0) {
    const double memory_bound = *intensity * bandwidth->value;
    held.roof = held.roof ? std::min(*held.roof, memory_bound) : memory_bound;
  }
  return held;
}

Held HoldTraffic(const CaseResult &result, const Peak *bandwidth) {
  Held held;
  const bool memory = result.suite == "rt" && result.subject == "memory";
  std::optional<double> rate = NumberAt(result.metrics, result.suite == "ccl" ? "busbw_gbytes_per_s" : kGbytesPerS);
  if (!rate) rate = NumberAt(result.metrics, result.suite == "ccl" ? kGbytesPerS : "busbw_gbytes_per_s");
  if (!rate || !bandwidth) return held;
  held.rate = (memory && StringAt(result.params, "kind") == "d2d" ? kCopyTraffic : 1.0) * *rate;
  held.roof = bandwidth->value;
  return held;
}

}  // namespace

nlohmann::json RooflineMetrics(const CaseResult &result, const std::vector<Peak> &peaks, const std::string &source) {
  nlohmann::json metrics = nlohmann::json::object();
  if (!IsPassingPerf(result)) return metrics;
  const std::string prefix = source == kSpecSheet ? "spec_" : "";
  const Peak *bandwidth = FindPeak(peaks, kBandwidth, source);
  const Peak *cache = FindPeak(peaks, kCacheBandwidth, source);
  const bool op = result.suite == "op";
  const bool traffic = (result.suite == "rt" && result.subject == "memory") || result.suite == "ccl";
  if (!op && !traffic) return metrics;
  const Peak *compute = nullptr;
  if (op) {
    compute = FindPeak(peaks, ComputeName(StringAt(result.params, "dtype")), source);
    if (compute == nullptr) compute = FindPeak(peaks, ComputeName("f32"), source);
  }
  const auto hold = [&](const Peak *at) { return op ? HoldOp(result, compute, at) : HoldTraffic(result, at); };

  Held held = hold(bandwidth);
  if (!held.roof || *held.roof <= 0) return metrics;
  // Above the memory's roof: the point ran in a cache, held to the cache's roof where one was
  // measured; above every roof, it is flagged (a roof, or the figure, is wrong).
  std::string level = "memory";
  if (held.rate > kAboveRoofSlack * *held.roof && cache != nullptr) {
    const Held in_cache = hold(cache);
    if (in_cache.roof && *in_cache.roof > *held.roof) {
      held = in_cache;
      level = "cache";
    }
  }
  if (op) metrics[prefix + "roof_gflops"] = *held.roof;
  metrics[prefix + "roof_fraction"] = held.rate / *held.roof;
  if (level == "cache") metrics[prefix + "roof_level_cache"] = 1;
  if (held.rate > kAboveRoofSlack * *held.roof) metrics[prefix + "above_roof"] = 1;
  return metrics;
}

}  // namespace infinicts::report
