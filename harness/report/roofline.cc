#include "report/roofline.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

namespace infinicts::report {
namespace {

constexpr const char *kBandwidth = "bandwidth";
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
  std::optional<Peak> bandwidth;
  std::map<std::string, Peak> compute;  // by dtype, so that the peaks come out sorted
  const double smallest_copy = SmallestMemoryBoundCopy(results);
  for (const CaseResult &result : results) {
    if (!IsPassingPerf(result)) continue;
    if (IsDeviceCopy(result)) {
      if (NumberAt(result.params, "bytes").value_or(0.0) < smallest_copy) continue;
      const auto rate = NumberAt(result.metrics, kGbytesPerS);
      if (rate && *rate > 0 && (!bandwidth || kCopyTraffic * *rate > bandwidth->value)) {
        bandwidth = Peak{kBandwidth, kCopyTraffic * *rate, kGbytesPerS, kMeasured, result.id, ""};
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

nlohmann::json RooflineMetrics(const CaseResult &result, const std::vector<Peak> &peaks, const std::string &source) {
  nlohmann::json metrics = nlohmann::json::object();
  if (!IsPassingPerf(result)) return metrics;
  const std::string prefix = source == kSpecSheet ? "spec_" : "";
  const Peak *bandwidth = FindPeak(peaks, kBandwidth, source);

  if (result.suite == "op") {
    const auto gflops = NumberAt(result.metrics, kGflops);
    if (!gflops) return metrics;
    std::optional<double> intensity = NumberAt(result.metrics, "arithmetic_intensity_flops_per_byte");
    if (!intensity || *intensity <= 0) {
      const auto flops = NumberAt(result.metrics, "flops");
      const auto bytes = NumberAt(result.metrics, "bytes");
      intensity = flops && bytes && *bytes > 0 ? std::optional<double>(*flops / *bytes) : std::nullopt;
    }
    const Peak *compute = FindPeak(peaks, ComputeName(StringAt(result.params, "dtype")), source);
    if (compute == nullptr) compute = FindPeak(peaks, ComputeName("f32"), source);
    std::optional<double> roof;
    if (compute) roof = compute->value;
    if (bandwidth && intensity && *intensity > 0) {
      const double memory_bound = *intensity * bandwidth->value;
      roof = roof ? std::min(*roof, memory_bound) : memory_bound;
    }
    if (!roof || *roof <= 0) return metrics;
    metrics[prefix + "roof_gflops"] = *roof;
    metrics[prefix + "roof_fraction"] = *gflops / *roof;
    return metrics;
  }

  const bool memory = result.suite == "rt" && result.subject == "memory";
  if ((memory || result.suite == "ccl") && bandwidth) {
    std::optional<double> rate = NumberAt(result.metrics, result.suite == "ccl" ? "busbw_gbytes_per_s" : kGbytesPerS);
    if (!rate) rate = NumberAt(result.metrics, result.suite == "ccl" ? kGbytesPerS : "busbw_gbytes_per_s");
    const double traffic = memory && StringAt(result.params, "kind") == "d2d" ? kCopyTraffic : 1.0;
    if (rate) metrics[prefix + "roof_fraction"] = traffic * *rate / bandwidth->value;
  }
  return metrics;
}

}  // namespace infinicts::report
