// The roofline pass after the last case of a run with perf results: the device's peaks
// (measured in the run; from the spec sheet for a known NVIDIA part, named by
// $INFINICTS_DEVICE_NAME or nvidia-smi) and, on every perf result, how close it came to
// its roof (report/roofline.h).
#pragma once

#include <string>

#include "infinicore.h"
#include "report/report.h"

namespace infinicts::runner {

// Does nothing for a run without perf results.
void AddRoofline(infiniDevice_t device_type, const std::string &device_type_name, int first_device_id,
                 report::Report *report);

}  // namespace infinicts::runner
