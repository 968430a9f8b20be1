#include "regression/comparison.h"

namespace infinicts::regression {

bool IsRegression(StatusChangeKind kind) {
  return kind == StatusChangeKind::kNewlyFailing || kind == StatusChangeKind::kLostCapability ||
         kind == StatusChangeKind::kNoLongerRun || kind == StatusChangeKind::kMissing;
}

const char *StatusChangeTitle(StatusChangeKind kind) {
  switch (kind) {
    case StatusChangeKind::kNewlyFailing: return "newly failing";
    case StatusChangeKind::kLostCapability: return "lost capability";
    case StatusChangeKind::kNoLongerRun: return "no longer run";
    case StatusChangeKind::kMissing: return "missing";
    case StatusChangeKind::kNewlyPassing: return "newly passing";
    case StatusChangeKind::kOtherChange: return "other status change";
    case StatusChangeKind::kAdded: return "added";
    case StatusChangeKind::kRemoved: return "removed";
  }
  return "?";
}

const char *SpreadSourceName(SpreadSource source) {
  switch (source) {
    case SpreadSource::kSamples: return "samples";
    case SpreadSource::kPercentiles: return "p10/p90";
    case SpreadSource::kCv: return "cv";
    case SpreadSource::kNone: return "median only";
  }
  return "?";
}

const char *PerfVerdictName(PerfVerdict verdict) {
  switch (verdict) {
    case PerfVerdict::kSlowdown: return "slowdown";
    case PerfVerdict::kSpeedup: return "speedup";
    case PerfVerdict::kUnchanged: return "unchanged";
    case PerfVerdict::kNoise: return "noise";
  }
  return "?";
}

size_t Comparison::CountOf(StatusChangeKind kind) const {
  size_t count = 0;
  for (const StatusChange &change : status_changes) count += change.kind == kind;
  return count;
}

size_t Comparison::CountOf(PerfVerdict verdict) const {
  size_t count = 0;
  for (const PerfChange &change : perf) count += change.verdict == verdict;
  return count;
}

size_t Comparison::Regressions() const {
  size_t count = CountOf(PerfVerdict::kSlowdown);
  for (const StatusChange &change : status_changes) count += IsRegression(change.kind);
  return count;
}

}  // namespace infinicts::regression
