// RankLink over MPI: every message is one JSON text on one tag, sent with MPI_Issend (it
// completes once received), and drained with MPI_Iprobe; the end of the cases is the NBX
// pattern (each rank's sends all received, then a non-blocking barrier), so no message is
// left in flight when MPI_Finalize runs.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <list>
#include <map>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "runner/rank_link.h"
#include "runner/rank_verdict.h"

namespace infinicts::runner {
namespace {

using Clock = std::chrono::steady_clock;
using report::CaseResult;
using report::Status;

constexpr int kTag = 7301;
// A peer that failed may still be reading its results back: its part gets this long.
constexpr double kStopGraceSeconds = 2;

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

// Whether the process `pid` is gone, or a zombie its parent has not reaped yet.
bool ProcessGone(int pid) {
  std::FILE *stat = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (stat == nullptr) return true;
  char state = '?';
  // "pid (comm) state …": the command may hold spaces and parentheses; the state follows the last ')'.
  char line[512] = {};
  const size_t got = std::fread(line, 1, sizeof line - 1, stat);
  std::fclose(stat);
  const std::string text(line, got);
  const size_t close = text.rfind(')');
  if (close != std::string::npos && close + 2 < text.size()) state = text[close + 2];
  return state == 'Z' || state == 'X';
}

// Ranks per node and this rank's place among its node's, from every rank's host name; the
// process ids of the other ranks on this node into *local_peers (rank -> pid).
RankLayout LayoutOf(int rank, int ranks, std::map<int, int> *local_peers) {
  const std::string host = HostName();
  constexpr int kNameBytes = 256;
  std::vector<char> mine(kNameBytes, '\0');
  std::copy_n(host.begin(), std::min<size_t>(host.size(), kNameBytes - 1), mine.begin());
  std::vector<char> all(static_cast<size_t>(kNameBytes) * ranks);
  MPI_Allgather(mine.data(), kNameBytes, MPI_CHAR, all.data(), kNameBytes, MPI_CHAR, MPI_COMM_WORLD);
  std::map<std::string, int> per_node;
  RankLayout layout;
  layout.ranks = ranks;
  for (int r = 0; r < ranks; ++r) {
    const std::string name(all.data() + static_cast<size_t>(r) * kNameBytes);
    if (r == rank) layout.local_rank = per_node[name];
    ++per_node[name];
  }
  std::vector<int> pids(static_cast<size_t>(ranks));
  const int pid = static_cast<int>(getpid());
  MPI_Allgather(&pid, 1, MPI_INT, pids.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < ranks; ++r) {
    const std::string name(all.data() + static_cast<size_t>(r) * kNameBytes);
    if (r != rank && name == host.substr(0, kNameBytes - 1)) (*local_peers)[r] = pids[static_cast<size_t>(r)];
  }
  layout.nodes = static_cast<int>(per_node.size());
  layout.ranks_per_node = 0;
  for (const auto &[name, count] : per_node) layout.ranks_per_node = std::max(layout.ranks_per_node, count);
  return layout;
}

class MpiRankLink : public RankLink {
 public:
  MpiRankLink() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
    layout_ = LayoutOf(rank_, ranks_, &local_peers_);
  }
  ~MpiRankLink() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
  }

  int rank() const override { return rank_; }
  const RankLayout &layout() const override { return layout_; }

  void BeginCases(const std::vector<std::string> &ids, Deliver deliver) override {
    ids_ = ids;
    deliver_ = std::move(deliver);
    parts_.clear();
  }

  void Share(size_t index, int serial, const std::string &hex) override {
    const std::string text =
        nlohmann::json{{"kind", "share"}, {"case", index}, {"serial", serial}, {"hex", hex}}.dump();
    for (int r = 0; r < ranks_; ++r) {
      if (r != rank_) Send(r, text);
    }
  }

  void ExpectShare(size_t index, int serial) override {
    expected_share_ = {index, serial};
    // Shares of earlier cases were for parts that ended before asking: never wanted now.
    shares_.erase(shares_.begin(), shares_.lower_bound({index, 0}));
  }

  std::optional<std::string> TakeShare() override {
    Pump();
    if (!expected_share_) return std::nullopt;
    const auto found = shares_.find(*expected_share_);
    if (found == shares_.end()) return std::nullopt;
    std::string hex = std::move(found->second);
    shares_.erase(found);
    expected_share_.reset();
    return hex;
  }

  std::optional<std::string> StopFor(size_t index) override {
    Pump();
    const auto found = stops_.find(index);
    if (found == stops_.end()) return std::nullopt;
    const Stop &stop = found->second;
    const bool gone = stop.status == Status::kCrash || stop.status == Status::kTimeout;
    if (!gone && std::chrono::duration<double>(Clock::now() - stop.received).count() < kStopGraceSeconds) {
      return std::nullopt;
    }
    return "rank " + std::to_string(stop.from) + "'s part ended " + report::StatusName(stop.status) +
           (stop.first_line.empty() ? "" : " (" + stop.first_line + ")");
  }

  void PartEnded(size_t index, CaseResult part) override {
    expected_share_.reset();
    if (StopsPeers(part)) {
      const std::string first_line = part.message.substr(0, part.message.find('\n')).substr(0, 200);
      const std::string text = nlohmann::json{{"kind", "stop"},
                                              {"case", index},
                                              {"status", report::StatusName(part.status)},
                                              {"first_line", first_line}}
                                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      for (int r = 0; r < ranks_; ++r) {
        if (r != rank_) Send(r, text);
      }
    }
    stops_.erase(stops_.begin(), stops_.lower_bound(index));
    if (rank_ == 0) {
      AddPart(index, 0, std::move(part));
    } else {
      nlohmann::json text{{"kind", "part"}, {"case", index}, {"result", report::ToJson(part)}};
      Send(0, text.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
  }

  void Pump() override {
    while (true) {
      int arrived = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &arrived, &status);
      if (!arrived) break;
      int bytes = 0;
      MPI_Get_count(&status, MPI_CHAR, &bytes);
      std::string text(static_cast<size_t>(bytes), '\0');
      MPI_Recv(text.data(), bytes, MPI_CHAR, status.MPI_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      Handle(status.MPI_SOURCE, text);
    }
    for (auto send = sends_.begin(); send != sends_.end();) {
      int done = 0;
      MPI_Test(&send->request, &done, MPI_STATUS_IGNORE);
      send = done ? sends_.erase(send) : std::next(send);
    }
  }

  std::optional<std::string> LostPeer() override {
    if (rank_ != 0) return std::nullopt;
    for (const auto &[rank, pid] : local_peers_) {
      if (ProcessGone(pid)) {
        return "rank " + std::to_string(rank) + "'s infinicts (pid " + std::to_string(pid) +
               " on this node) ended while the cases ran";
      }
    }
    return std::nullopt;
  }

  std::vector<std::string> FinishCases(double patience_s) override {
    const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                          std::chrono::duration<double>(patience_s));
    MPI_Request barrier = MPI_REQUEST_NULL;
    bool entered = false;
    while (true) {
      Pump();
      if (!entered && sends_.empty()) {
        MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
        entered = true;
      }
      if (entered) {
        int done = 0;
        MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
        if (done) break;
      }
      if (rank_ == 0 && Clock::now() > deadline) return GiveUpOnMissingParts();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    // Every part is in: cases rank 0 has not delivered yet lack nothing.
    std::vector<std::string> lost;
    if (rank_ == 0 && !parts_.empty()) return GiveUpOnMissingParts();
    return lost;
  }

  int AgreeExitCode(int code) override {
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return code;
  }

  [[noreturn]] void AbortAll(int code) override {
    std::fflush(nullptr);
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
  }

 private:
  struct PendingSend {
    std::string text;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  struct Stop {
    int from = 0;
    Status status = Status::kFail;
    std::string first_line;
    Clock::time_point received;
  };

  void Send(int to, std::string text) {
    sends_.push_back(PendingSend{std::move(text), MPI_REQUEST_NULL});
    PendingSend &send = sends_.back();
    MPI_Issend(send.text.data(), static_cast<int>(send.text.size()), MPI_CHAR, to, kTag, MPI_COMM_WORLD,
               &send.request);
  }

  void Handle(int from, const std::string &text) {
    const nlohmann::json message = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!message.is_object() || !message.contains("kind") || !message.contains("case")) return;
    const std::string kind = message.value("kind", "");
    const size_t index = message.value("case", size_t{0});
    if (kind == "share") {
      shares_[{index, message.value("serial", 0)}] = message.value("hex", "");
    } else if (kind == "stop") {
      Stop stop;
      stop.from = from;
      stop.status = report::ParseStatus(message.value("status", "")).value_or(Status::kFail);
      stop.first_line = message.value("first_line", "");
      stop.received = Clock::now();
      stops_.emplace(index, stop);  // the first peer to stop a case names it
    } else if (kind == "part" && rank_ == 0) {
      try {
        AddPart(index, from, report::CaseResultFromJson(message.at("result")));
      } catch (const std::exception &error) {
        CaseResult broken;
        broken.status = Status::kCrash;
        broken.message = std::string("rank ") + std::to_string(from) + "'s part came as a malformed message: " +
                         error.what();
        AddPart(index, from, std::move(broken));
      }
    }
  }

  void AddPart(size_t index, int from, CaseResult part) {
    if (index >= ids_.size()) return;
    std::map<int, CaseResult> &parts = parts_[index];
    parts[from] = std::move(part);
    if (static_cast<int>(parts.size()) == ranks_) DeliverCase(index);
  }

  void DeliverCase(size_t index) {
    std::map<int, CaseResult> &parts = parts_[index];
    std::vector<CaseResult> ordered;
    for (int r = 0; r < ranks_; ++r) ordered.push_back(parts.at(r));
    CaseResult verdict = CombineRankParts(ordered);
    parts_.erase(index);
    if (deliver_) deliver_(std::move(verdict));
  }

  // Rank 0 after waiting long enough: the ranks with parts missing are lost.
  std::vector<std::string> GiveUpOnMissingParts() {
    std::set<int> lost;
    for (auto &[index, parts] : parts_) {
      const CaseResult *own = parts.count(0) ? &parts.at(0) : nullptr;
      for (int r = 0; r < ranks_; ++r) {
        if (parts.count(r)) continue;
        lost.insert(r);
        CaseResult missing = own ? *own : CaseResult{};
        missing.status = Status::kCrash;
        missing.message = "rank " + std::to_string(r) + "'s runner never reported its part: the rank was lost";
        missing.metrics = nlohmann::json::object();
        missing.timing = nullptr;
        parts[r] = std::move(missing);
      }
    }
    std::vector<size_t> indices;
    for (const auto &[index, parts] : parts_) indices.push_back(index);
    for (size_t index : indices) DeliverCase(index);
    std::vector<std::string> lines;
    for (int r : lost) lines.push_back("rank " + std::to_string(r) + " was lost: its parts of the cases never came");
    return lines;
  }

  int rank_ = 0;
  int ranks_ = 1;
  RankLayout layout_;
  std::map<int, int> local_peers_;  // rank -> pid, for the other ranks on this node
  std::vector<std::string> ids_;
  Deliver deliver_;
  std::list<PendingSend> sends_;  // a list: MPI holds each text's address until the send completes
  std::map<std::pair<size_t, int>, std::string> shares_;
  std::optional<std::pair<size_t, int>> expected_share_;
  std::map<size_t, Stop> stops_;
  std::map<size_t, std::map<int, CaseResult>> parts_;  // rank 0: the parts of cases not yet delivered
};

}  // namespace

std::unique_ptr<RankLink> JoinMpiJob(std::string *error) {
  const std::optional<int> launched = LaunchedRanks();
  if (!launched || *launched < 2) return nullptr;
  if (MPI_Init(nullptr, nullptr) != MPI_SUCCESS) {
    *error = "mpirun started " + std::to_string(*launched) + " ranks, but MPI_Init failed";
    return nullptr;
  }
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks < 2) {
    MPI_Finalize();
    return nullptr;
  }
  return std::make_unique<MpiRankLink>();
}

}  // namespace infinicts::runner
