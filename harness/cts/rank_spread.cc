#include "cts/rank_spread.h"

#include <unistd.h>

#include <cerrno>
#include <set>

#include <nlohmann/json.hpp>

#include "report/fnv1a.h"

namespace infinicts::cts {
namespace {

std::set<std::string> &AcrossProcesses() {
  static std::set<std::string> fixtures;
  return fixtures;
}

bool WriteAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t written = ::write(fd, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    done += static_cast<size_t>(written);
  }
  return true;
}

// One line from fd, byte by byte: nothing after the newline may be taken from the pipe.
std::optional<std::string> ReadLine(int fd) {
  std::string line;
  char c;
  while (true) {
    const ssize_t got = ::read(fd, &c, 1);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return std::nullopt;
    if (c == '\n') return line;
    line += c;
  }
}

}  // namespace

std::optional<RankSpread> &Spread() {
  static std::optional<RankSpread> spread;
  return spread;
}

std::optional<std::string> ShareFromRankZero(const std::string &bytes, std::string *error) {
  const std::optional<RankSpread> &spread = Spread();
  if (!spread) {
    *error = "this suite process drives every rank itself: nothing to share";
    return std::nullopt;
  }
  const nlohmann::json request = spread->rank == 0 ? nlohmann::json{{"event", "share"}, {"data", HexOf(bytes)}}
                                                   : nlohmann::json{{"event", "need_share"}};
  if (!WriteAll(spread->results_fd, request.dump() + "\n")) {
    *error = "the runner's results pipe is closed";
    return std::nullopt;
  }
  const std::optional<std::string> line = ReadLine(spread->input_fd);
  if (!line) {
    *error = "the runner closed the input pipe before rank 0's bytes came";
    return std::nullopt;
  }
  std::optional<std::string> shared = BytesOfHex(*line);
  if (!shared) *error = "the runner sent a line that is not hex: " + line->substr(0, 80);
  return shared;
}

bool MarkAcrossProcesses(const char *fixture) { return AcrossProcesses().insert(fixture).second; }

bool RunsAcrossProcesses(const std::string &fixture) { return AcrossProcesses().count(fixture) > 0; }

double BitsDigest(const void *bytes, size_t size) {
  report::Fnv1a hash;
  hash.Add(bytes, size);
  return static_cast<double>(hash.value() & ((uint64_t{1} << 52) - 1));
}

std::string HexOf(const std::string &bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex += kDigits[c >> 4];
    hex += kDigits[c & 15];
  }
  return hex;
}

std::optional<std::string> BytesOfHex(const std::string &hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = digit(hex[i]), low = digit(hex[i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    bytes += static_cast<char>(high * 16 + low);
  }
  return bytes;
}

}  // namespace infinicts::cts
