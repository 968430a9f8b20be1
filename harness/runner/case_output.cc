#include "runner/case_output.h"

#include <algorithm>

#include "cts/result_stream.h"

namespace infinicts::runner {
namespace {

constexpr std::string_view kMarker(cts::kCaseStartMarker, sizeof cts::kCaseStartMarker - 1);

// How many bytes at the end of `text` could begin a marker the next chunk completes.
size_t MarkerPrefixAtEnd(std::string_view text) {
  for (size_t length = std::min(text.size(), kMarker.size() - 1); length > 0; --length) {
    if (text.substr(text.size() - length) == kMarker.substr(0, length)) return length;
  }
  return 0;
}

}  // namespace

void CaseOutput::Keep(std::string_view text) {
  process_.Append(text);
  const size_t to_head = std::min(text.size(), kHeadBytes - case_head_.size());
  case_head_.append(text.data(), to_head);
  if (to_head < text.size()) {
    case_tail_.Append(text.substr(to_head));
    case_tail_used_ = true;
  }
}

std::string CaseOutput::CaseText() const {
  if (!started_) return "";
  if (!case_tail_used_) return case_head_;
  const std::string tail = case_tail_.Text();
  return case_head_ + (case_tail_.truncated() ? "\n…\n" : "") + tail;
}

void CaseOutput::Append(std::string_view data) {
  std::string text = pending_;
  text.append(data.data(), data.size());
  pending_.clear();
  std::string_view rest = text;
  for (size_t at; (at = rest.find(kMarker)) != std::string_view::npos; rest.remove_prefix(at + kMarker.size())) {
    Keep(rest.substr(0, at));
    case_head_.clear();
    case_tail_ = OutputTail();
    case_tail_used_ = false;
    started_ = true;
  }
  const size_t held = MarkerPrefixAtEnd(rest);
  Keep(rest.substr(0, rest.size() - held));
  pending_ = std::string(rest.substr(rest.size() - held));
}

}  // namespace infinicts::runner
