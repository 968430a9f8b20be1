// The roofline of a perf run: the peaks of the device (measured in this run, and the
// spec-sheet figures of known parts) and, for each perf result, how close it came to
// the roof that holds for it.
//   measured bandwidth      memory traffic (read + written) of the best passing rt memory
//                           perf case with kind d2d of at least 64 MiB (or the largest
//                           made): 2 x its gbytes_per_s, since a copy reads and writes each byte
//   measured compute:DTYPE  max gflops of the passing op.gemm.perf cases of that dtype
//   op perf result          roof_gflops = min(compute peak of its dtype (f32's when its
//                           dtype has none), arithmetic intensity x bandwidth peak);
//                           roof_fraction = gflops / roof_gflops
//   rt memory / ccl perf    roof_fraction = traffic (2 x gbytes_per_s for d2d copies,
//                           gbytes_per_s otherwise; busbw_gbytes_per_s) / bandwidth peak
// The roofs use the measured peaks; where spec-sheet peaks exist, spec_roof_gflops and
// spec_roof_fraction hold the same against the datasheet.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "report/case_result.h"

namespace infinicts::report {

struct Peak {
  std::string name;    // "bandwidth" or "compute:<dtype>"
  double value = 0;
  std::string unit;    // "gbytes_per_s" or "gflops"
  std::string source;  // "measured" or "spec_sheet"
  std::string case_id; // measured: the case that reached it
  std::string part;    // spec sheet: the product
};

struct Roofline {
  std::string device;  // "cpu", or the GPU's name when known
  std::vector<Peak> peaks;
};

nlohmann::ordered_json ToJson(const Roofline &roofline);

// The peaks the results of this run reached (bandwidth and compute per dtype).
std::vector<Peak> MeasuredPeaks(const std::vector<CaseResult> &results);

// The datasheet peaks of a known NVIDIA part, by the name nvidia-smi prints
// ("NVIDIA H200", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB"); empty when the
// part is not one whose figures are known here.
std::vector<Peak> SpecSheetPeaks(const std::string &device_name);

// The roofline metrics of one result against peaks of one source ("measured" or
// "spec_sheet"): {"roof_gflops", "roof_fraction"} (names prefixed "spec_" for the
// spec sheet); empty when the result is not a passing perf case with the metrics needed
// or no peak applies.
nlohmann::json RooflineMetrics(const CaseResult &result, const std::vector<Peak> &peaks, const std::string &source);

}  // namespace infinicts::report
