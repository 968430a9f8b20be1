// What one stream of a suite process printed, cut at the markers the child writes as each case
// starts (cts::kCaseStartMarker): a crashed case's message carries its own output only.
#pragma once

#include <string>
#include <string_view>

#include "runner/child_process.h"

namespace infinicts::runner {

class CaseOutput {
 public:
  // The stream's next bytes, in order; a marker may be split across calls.
  void Append(std::string_view data);
  // What the stream printed since the latest case started (nothing before the first marker):
  // its first kHeadBytes whole (a sanitizer's first line), then its last bytes.
  std::string CaseText() const;
  // Everything the stream printed, the markers left out.
  std::string ProcessText() const { return process_.Text(); }

 private:
  void Keep(std::string_view text);
  static constexpr size_t kHeadBytes = 2048;
  std::string pending_;  // the beginning of a marker at the end of the latest chunk
  OutputTail process_;
  std::string case_head_;   // the case's first kHeadBytes
  OutputTail case_tail_;    // what came after them
  bool case_tail_used_ = false;
  bool started_ = false;
};

}  // namespace infinicts::runner
