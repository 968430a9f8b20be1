#include "report/status.h"

namespace infinicts::report {

const char *StatusName(Status status) {
  switch (status) {
    case Status::kPass: return "pass";
    case Status::kFail: return "fail";
    case Status::kUnsupported: return "unsupported";
    case Status::kSkip: return "skip";
    case Status::kBlocked: return "blocked";
    case Status::kCrash: return "crash";
    case Status::kTimeout: return "timeout";
    case Status::kXfail: return "xfail";
  }
  return "fail";
}

std::optional<Status> ParseStatus(const std::string &name) {
  for (Status status : kAllStatuses) {
    if (name == StatusName(status)) return status;
  }
  return std::nullopt;
}

bool IsFailure(Status status) {
  return status == Status::kFail || status == Status::kBlocked || status == Status::kCrash ||
         status == Status::kTimeout;
}

bool BlocksLevel(Status status) { return status != Status::kPass && status != Status::kSkip; }

}  // namespace infinicts::report
