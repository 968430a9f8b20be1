#include "regression/status_change.h"

namespace infinicts::regression {

std::optional<StatusChangeKind> ClassifyStatusChange(report::Status base, report::Status next) {
  using report::Status;
  if (base == next) return std::nullopt;
  // fail -> crash and the like: still failing, only differently.
  if (report::IsFailure(next)) return report::IsFailure(base) ? StatusChangeKind::kOtherChange : StatusChangeKind::kNewlyFailing;
  if (next == Status::kPass) return StatusChangeKind::kNewlyPassing;
  if (base == Status::kPass && next == Status::kUnsupported) return StatusChangeKind::kLostCapability;
  if (base == Status::kPass && next == Status::kSkip) return StatusChangeKind::kNoLongerRun;
  return StatusChangeKind::kOtherChange;
}

}  // namespace infinicts::regression
