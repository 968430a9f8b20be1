#include "rt_chain.h"

#include <algorithm>

#include "cts/case.h"
#include "rt_data.h"

namespace infinicts::rt_cases {
namespace {

using cts::rt;

// Host-side copies (H2D sources, D2H snapshots) stay below this, so long chains on
// 64 MiB buffers do not hold gigabytes of host memory; memsets and D2D copies span
// the whole buffer.
constexpr size_t kHostSpanLimit = (size_t{1} << 20) + 5;

enum Op { kMemset, kHostToMain, kMainToScratch, kScratchToMain, kSnapshot, kOpCount };

}  // namespace

StreamChain::StreamChain(uint64_t seed, size_t bytes) : rng_(seed), bytes_(bytes) {}

StreamChain::~StreamChain() {
  main_.reset();
  scratch_.reset();
}

infiniStatus_t StreamChain::Call(const char *what, infiniStatus_t status) {
  if (status != INFINI_STATUS_SUCCESS) last_call_ = what;
  return status;
}

infiniStatus_t StreamChain::Start(infinirtStream_t stream) {
  void *main = nullptr, *scratch = nullptr;
  if (auto s = Call("infinirtMalloc(main)", rt().infinirtMalloc(&main, bytes_))) return s;
  main_ = std::make_unique<ScopedDeviceMemory>(main);
  if (auto s = Call("infinirtMalloc(scratch)", rt().infinirtMalloc(&scratch, bytes_))) return s;
  scratch_ = std::make_unique<ScopedDeviceMemory>(scratch);
  if (main == nullptr || scratch == nullptr) {
    malloc_gave_null_ = true;
    return INFINI_STATUS_SUCCESS;
  }

  model_main_ = RandomBytes(rng_, bytes_);
  model_scratch_ = RandomBytes(rng_, bytes_);
  const std::vector<uint8_t> &main_source = staging_.emplace_back(model_main_);
  const std::vector<uint8_t> &scratch_source = staging_.emplace_back(model_scratch_);
  if (auto s = Call("infinirtMemcpyAsync(main, H2D)",
                    rt().infinirtMemcpyAsync(main, main_source.data(), bytes_, INFINIRT_MEMCPY_H2D, stream)))
    return s;
  return Call("infinirtMemcpyAsync(scratch, H2D)",
              rt().infinirtMemcpyAsync(scratch, scratch_source.data(), bytes_, INFINIRT_MEMCPY_H2D, stream));
}

infiniStatus_t StreamChain::EnqueueNext(infinirtStream_t stream) {
  auto *main = static_cast<uint8_t *>(main_->get());
  auto *scratch = static_cast<uint8_t *>(scratch_->get());
  const int op = static_cast<int>(RandomIn(rng_, 0, kOpCount - 1));
  const bool host_side = op == kHostToMain || op == kSnapshot;
  const size_t offset = RandomIn(rng_, 0, bytes_ - 1);
  const size_t length = RandomIn(rng_, 1, std::min(bytes_ - offset, host_side ? kHostSpanLimit : bytes_));

  switch (op) {
    case kMemset: {
      const int value = static_cast<int>(rng_());  // only the low byte may count
      std::fill_n(model_main_.begin() + offset, length, static_cast<uint8_t>(value));
      return Call("infinirtMemsetAsync", rt().infinirtMemsetAsync(main + offset, value, length, stream));
    }
    case kHostToMain: {
      const std::vector<uint8_t> &source = staging_.emplace_back(RandomBytes(rng_, length));
      std::copy(source.begin(), source.end(), model_main_.begin() + offset);
      return Call("infinirtMemcpyAsync(H2D)",
                  rt().infinirtMemcpyAsync(main + offset, source.data(), length, INFINIRT_MEMCPY_H2D, stream));
    }
    case kMainToScratch:
    case kScratchToMain: {
      const bool to_scratch = op == kMainToScratch;
      const size_t target = RandomIn(rng_, 0, bytes_ - length);
      const std::vector<uint8_t> &from = to_scratch ? model_main_ : model_scratch_;
      std::vector<uint8_t> &to = to_scratch ? model_scratch_ : model_main_;
      std::copy_n(from.begin() + offset, length, to.begin() + target);
      uint8_t *dst = (to_scratch ? scratch : main) + target;
      const uint8_t *src = (to_scratch ? main : scratch) + offset;
      return Call("infinirtMemcpyAsync(D2D)", rt().infinirtMemcpyAsync(dst, src, length, INFINIRT_MEMCPY_D2D, stream));
    }
    default:
      return Snap(stream, "D2H snapshot " + std::to_string(snapshots_.size()), main, offset, length, model_main_);
  }
}

infiniStatus_t StreamChain::NewSnapshot(std::string what, size_t offset, size_t length,
                                        const std::vector<uint8_t> &model, Snapshot **out) {
  *out = nullptr;
  Snapshot &snapshot = snapshots_.emplace_back();
  snapshot.what = std::move(what);
  snapshot.expected.assign(model.begin() + offset, model.begin() + offset + length);
  void *pinned = nullptr;
  if (auto s = Call("infinirtMallocHost(snapshot)", rt().infinirtMallocHost(&pinned, length))) return s;
  snapshot.host = std::make_unique<ScopedHostMemory>(pinned);
  if (pinned == nullptr) return Call("infinirtMallocHost(snapshot) gave NULL", INFINI_STATUS_SUCCESS);
  // The complement: a byte the copy misses, or has not written yet, cannot look right.
  const std::vector<uint8_t> complement = Complement(snapshot.expected);
  std::copy(complement.begin(), complement.end(), static_cast<uint8_t *>(pinned));
  *out = &snapshot;
  return INFINI_STATUS_SUCCESS;
}

infiniStatus_t StreamChain::EnqueueSnapshot(infinirtStream_t stream, const Snapshot *snapshot, const uint8_t *device) {
  if (snapshot == nullptr) return INFINI_STATUS_SUCCESS;
  return Call("infinirtMemcpyAsync(D2H)", rt().infinirtMemcpyAsync(snapshot->host->get(), device,
                                                                   snapshot->expected.size(), INFINIRT_MEMCPY_D2H,
                                                                   stream));
}

infiniStatus_t StreamChain::Snap(infinirtStream_t stream, std::string what, const uint8_t *device, size_t offset,
                                 size_t length, const std::vector<uint8_t> &model) {
  Snapshot *snapshot = nullptr;
  if (auto s = NewSnapshot(std::move(what), offset, length, model, &snapshot)) return s;
  return EnqueueSnapshot(stream, snapshot, device + offset);
}

infiniStatus_t StreamChain::Finish(infinirtStream_t stream, const PendingWork *behind) {
  constexpr int kCopiesBehind = 4;
  Snapshot *main = nullptr, *scratch = nullptr;
  if (auto s = NewSnapshot("the final read-back of the main buffer", 0, bytes_, model_main_, &main)) return s;
  if (auto s = NewSnapshot("the final read-back of the scratch buffer", 0, bytes_, model_scratch_, &scratch)) return s;
  if (behind != nullptr) {
    if (auto s = Call("infinirtMemcpyAsync(D2D) of the long work behind", behind->Enqueue(stream, kCopiesBehind)))
      return s;
  }
  if (auto s = EnqueueSnapshot(stream, main, static_cast<const uint8_t *>(main_->get()))) return s;
  return EnqueueSnapshot(stream, scratch, static_cast<const uint8_t *>(scratch_->get()));
}

infiniStatus_t StreamChain::Enqueue(infinirtStream_t stream, int count, const PendingWork *behind) {
  if (auto s = Start(stream)) return s;
  if (malloc_gave_null_) return INFINI_STATUS_SUCCESS;  // nothing to enqueue on; the caller asks
  for (int i = 0; i < count; ++i) {
    if (auto s = EnqueueNext(stream)) return s;
  }
  return Finish(stream, behind);
}

testing::AssertionResult StreamChain::VerifyObserved() const {
  for (const Snapshot &snapshot : snapshots_) {
    if (snapshot.host == nullptr || snapshot.host->get() == nullptr) continue;
    if (auto same = SameBytes(snapshot.expected.data(), snapshot.host->get(), snapshot.expected.size()); !same)
      return testing::AssertionFailure() << snapshot.what << " of the chain, read from pinned memory right after "
                                         << "the call that said the work was done: " << same.message();
  }
  return testing::AssertionSuccess();
}

testing::AssertionResult StreamChain::Verify() const {
  // First what the copies wrote to pinned memory, with no runtime call before it.
  if (auto observed = VerifyObserved(); !observed) return observed;
  struct Part {
    const char *name;
    const void *device;
    const std::vector<uint8_t> &expected;
  };
  for (const Part &part : {Part{"main buffer", main_->get(), model_main_},
                           Part{"scratch buffer", scratch_->get(), model_scratch_}}) {
    std::vector<uint8_t> back = Complement(part.expected);
    const infiniStatus_t status = rt().infinirtMemcpy(back.data(), part.device, bytes_, INFINIRT_MEMCPY_D2H);
    if (status != INFINI_STATUS_SUCCESS)
      return testing::AssertionFailure() << "reading the " << part.name << " back: infinirtMemcpy(D2H) answered "
                                         << StatusName(status);
    if (auto same = SameBytes(part.expected.data(), back.data(), bytes_); !same)
      return testing::AssertionFailure() << part.name << " after the chain: " << same.message();
  }
  return testing::AssertionSuccess();
}

}  // namespace infinicts::rt_cases
