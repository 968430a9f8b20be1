// How a case's status moved between two runs of it.
#pragma once

#include <optional>

#include "regression/comparison.h"
#include "report/status.h"

namespace infinicts::regression {

// None when the status stayed the same.
std::optional<StatusChangeKind> ClassifyStatusChange(report::Status base, report::Status next);

}  // namespace infinicts::regression
