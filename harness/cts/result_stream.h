// The child side of the runner protocol: one JSON object per line on a file
// descriptor, {"event":"start","test":…} before a case and {"event":"end",…}
// after it, so that the runner knows which case was in flight if the child dies.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace infinicts::cts {

// Written to stdout and stderr as each case starts, after what came before is flushed: the
// runner cuts a crashed case's output there, so its message never carries an earlier case's.
inline constexpr char kCaseStartMarker[] = "\x1e" "infinicts: case start" "\x1e\n";

class ResultStream : public testing::EmptyTestEventListener {
 public:
  explicit ResultStream(int fd) : fd_(fd) {}
  void OnTestStart(const testing::TestInfo &info) override;
  void OnTestEnd(const testing::TestInfo &info) override;

 private:
  void WriteLine(const std::string &line);
  int fd_;
  // GoogleTest measures whole milliseconds; the report wants sub-millisecond durations.
  std::chrono::steady_clock::time_point started_;
};

}  // namespace infinicts::cts
