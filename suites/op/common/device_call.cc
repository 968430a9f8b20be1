#include "common/device_call.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "common/against.h"
#include "common/worst_comparison.h"
#include "tolerance/output_check.h"

namespace infinicts::op_cases {
namespace {

std::string Hex(uint8_t byte) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", byte);
  return text;
}

// The first and the number of positions in [begin, end) where two byte strings differ.
struct ByteDiff {
  size_t count = 0;
  size_t first = 0;
};
ByteDiff DiffBytes(const std::vector<uint8_t> &expected, const std::vector<uint8_t> &got, size_t begin,
                   size_t end) {
  ByteDiff diff;
  for (size_t i = begin; i < end; ++i) {
    if (expected[i] == got[i]) continue;
    if (diff.count++ == 0) diff.first = i;
  }
  return diff;
}

}  // namespace

void ThrowIfRtFailed(infiniStatus_t status, const char *call) {
  if (status != INFINI_STATUS_SUCCESS) throw device::DeviceError(call, status);
}

DeviceCall::DeviceCall(device::Device &device, const PreparedCall &call, const std::vector<AliasPair> &aliases)
    : device_(device), call_(call), allocation_of_(call.specs.size(), -1) {
  const size_t none = call.specs.size();
  for (size_t i = 0; i < call.specs.size(); ++i) {
    if (!call.specs[i].present && !call.specs[i].junk_pointer) continue;
    const auto alias = std::find_if(aliases.begin(), aliases.end(), [&](const AliasPair &p) { return p.output == i; });
    if (alias != aliases.end()) continue;  // placed with its input below
    Allocation allocation;
    allocation.spec = i;
    allocation.written_spec = IsWritten(call.specs[i]) ? i : none;
    allocation.image = ImageOf(call, i);
    allocation.buffer = device_.Allocate(allocation.image.size());
    allocation_of_[i] = static_cast<int>(allocations_.size());
    allocations_.push_back(std::move(allocation));
  }
  for (const AliasPair &pair : aliases) {
    const int shared = allocation_of_.at(pair.input);
    if (shared < 0) throw std::logic_error("in-place pair names an absent input");
    const TensorSpec &out = call.specs.at(pair.output), &in = call.specs.at(pair.input);
    if (out.dtype != in.dtype || out.layout.shape != in.layout.shape || out.layout.strides != in.layout.strides ||
        out.layout.offset != in.layout.offset) {
      throw std::logic_error("in-place pair " + out.name + " = " + in.name + " with different layouts");
    }
    allocation_of_[pair.output] = shared;
    allocations_[shared].written_spec = pair.output;
  }
}

std::vector<uint8_t> DeviceCall::ImageOf(const PreparedCall &call, size_t spec) const {
  const HostTensor &tensor = call.tensors[spec];
  const uint8_t guard = IsWritten(call.specs[spec]) ? kOutputGapByte : kUnwrittenByte;
  std::vector<uint8_t> image(kGuardBytes + tensor.storage_bytes() + kGuardBytes, guard);
  std::copy(tensor.storage(), tensor.storage() + tensor.storage_bytes(), image.begin() + kGuardBytes);
  return image;
}

void DeviceCall::Upload() {
  device::ActiveDeviceGuard guard(device_.rt(), device_.id());
  for (Allocation &allocation : allocations_) {
    ThrowIfRtFailed(cts::rt().infinirtMemcpy(allocation.buffer.data(), allocation.image.data(), allocation.image.size(),
                                             INFINIRT_MEMCPY_H2D),
                    "infinirtMemcpy H2D");
  }
}

void DeviceCall::UploadFrom(const PreparedCall &other) {
  device::ActiveDeviceGuard guard(device_.rt(), device_.id());
  for (Allocation &allocation : allocations_) {
    const std::vector<uint8_t> image = ImageOf(other, allocation.spec);
    if (image.size() != allocation.image.size()) throw std::logic_error("UploadFrom: a call with other specs");
    ThrowIfRtFailed(cts::rt().infinirtMemcpy(allocation.buffer.data(), image.data(), image.size(), INFINIRT_MEMCPY_H2D),
                    "infinirtMemcpy H2D");
  }
}

void DeviceCall::UploadAsync(infinirtStream_t stream) {
  device::ActiveDeviceGuard guard(device_.rt(), device_.id());
  for (Allocation &allocation : allocations_) {
    ThrowIfRtFailed(cts::rt().infinirtMemcpyAsync(allocation.buffer.data(), allocation.image.data(),
                                                  allocation.image.size(), INFINIRT_MEMCPY_H2D, stream),
                    "infinirtMemcpyAsync H2D");
  }
}

void DeviceCall::DownloadAsync(infinirtStream_t stream) {
  device::ActiveDeviceGuard guard(device_.rt(), device_.id());
  for (Allocation &allocation : allocations_) {
    // The complement of the image: a byte the copy misses cannot look right by accident.
    allocation.back.resize(allocation.image.size());
    for (size_t i = 0; i < allocation.image.size(); ++i) allocation.back[i] = static_cast<uint8_t>(~allocation.image[i]);
    ThrowIfRtFailed(cts::rt().infinirtMemcpyAsync(allocation.back.data(), allocation.buffer.data(),
                                                  allocation.back.size(), INFINIRT_MEMCPY_D2H, stream),
                    "infinirtMemcpyAsync D2H");
  }
}

void DeviceCall::Download() {
  device::ActiveDeviceGuard guard(device_.rt(), device_.id());
  for (Allocation &allocation : allocations_) {
    allocation.back.assign(allocation.image.size(), 0);
    ThrowIfRtFailed(cts::rt().infinirtMemcpy(allocation.back.data(), allocation.buffer.data(), allocation.back.size(),
                                             INFINIRT_MEMCPY_D2H),
                    "infinirtMemcpy D2H");
  }
}

std::vector<void *> DeviceCall::Pointers() const {
  std::vector<void *> pointers(call_.specs.size(), nullptr);
  for (size_t i = 0; i < call_.specs.size(); ++i) {
    if (allocation_of_[i] < 0) continue;
    const Allocation &allocation = allocations_[allocation_of_[i]];
    pointers[i] = static_cast<uint8_t *>(allocation.buffer.data()) + kGuardBytes +
                  call_.tensors[allocation.spec].data_offset_bytes();
  }
  return pointers;
}

void DeviceCall::Report(const std::string &what) const {
  OP_ADD_FAILURE(what + "\n  problem: " + call_.subject + " " + call_.problem_json);
}

HostTensor DeviceCall::BackOf(const Allocation &allocation) const {
  if (allocation.back.size() != allocation.image.size()) throw std::logic_error("a tensor read before a download");
  HostTensor got = call_.tensors[allocation.spec];
  std::memcpy(got.storage(), allocation.back.data() + kGuardBytes, got.storage_bytes());
  return got;
}

std::vector<HostTensor> DeviceCall::Back() const {
  std::vector<HostTensor> got_by_spec(call_.specs.size());
  for (const Allocation &allocation : allocations_) {
    if (allocation.written_spec != call_.specs.size()) got_by_spec[allocation.written_spec] = BackOf(allocation);
  }
  return got_by_spec;
}

std::vector<HostTensor> DeviceCall::CheckedOutputs() const {
  const size_t none = call_.specs.size();
  std::vector<HostTensor> got_by_spec(call_.specs.size());  // what came back of each written tensor
  for (const Allocation &allocation : allocations_) {
    if (allocation.back.size() != allocation.image.size()) throw std::logic_error("Verify before a download");
    const size_t storage_end = allocation.image.size() - kGuardBytes;

    if (allocation.written_spec == none) {
      const ByteDiff diff = DiffBytes(allocation.image, allocation.back, 0, allocation.image.size());
      if (diff.count > 0) {
        Report("OP-MEM-2: input " + DescribeTensor(call_.specs[allocation.spec]) + " was modified: " +
               std::to_string(diff.count) + " bytes differ from what was uploaded, the first at byte " +
               std::to_string(static_cast<long long>(diff.first) - static_cast<long long>(kGuardBytes)) +
               " of its storage: uploaded " + Hex(allocation.image[diff.first]) + ", now " +
               Hex(allocation.back[diff.first]));
      }
      continue;
    }

    const size_t spec_index = allocation.written_spec;
    const TensorSpec &spec = call_.specs[spec_index];
    const std::string name = DescribeTensor(spec);
    if (const ByteDiff before = DiffBytes(allocation.image, allocation.back, 0, kGuardBytes); before.count > 0) {
      Report("OP-MEM-1: output " + name + ": the operator wrote before the tensor's storage: " + std::to_string(before.count) +
             " of the " + std::to_string(kGuardBytes) + " bytes before it changed, the first " +
             std::to_string(kGuardBytes - before.first) + " bytes before the start: expected " +
             Hex(allocation.image[before.first]) + ", got " + Hex(allocation.back[before.first]));
    }
    if (const ByteDiff after = DiffBytes(allocation.image, allocation.back, storage_end, allocation.image.size());
        after.count > 0) {
      Report("OP-MEM-1: output " + name + ": the operator wrote past the end of the tensor's storage: " +
             std::to_string(after.count) + " of the " + std::to_string(kGuardBytes) +
             " bytes after it changed, the first at byte " + std::to_string(after.first - storage_end) +
             " past the end: expected " + Hex(allocation.image[after.first]) + ", got " +
             Hex(allocation.back[after.first]));
    }

    const HostTensor &sent = call_.tensors[allocation.spec];
    HostTensor got = BackOf(allocation);
    const size_t element = got.element_size();
    size_t gaps_changed = 0;
    std::string first_gap;
    for (size_t position : sent.UncoveredStorageElements()) {
      if (std::memcmp(sent.storage() + position * element, got.storage() + position * element, element) == 0) continue;
      if (gaps_changed++ == 0) {
        first_gap = "storage element " + std::to_string(position) + " (expected bytes " +
                    Hex(sent.storage()[position * element]) + "…, got " + Hex(got.storage()[position * element]) +
                    "…)";
      }
    }
    if (gaps_changed > 0) {
      Report("OP-MEM-1: output " + name + ": the operator wrote " + std::to_string(gaps_changed) +
             " storage elements its layout does not address (gaps of a padded or offset view), the first " + first_gap);
    }
    got_by_spec[spec_index] = std::move(got);
  }
  return got_by_spec;
}

void DeviceCall::VerifyAgainst() const { CheckAgainst(call_, CheckedOutputs()); }

void DeviceCall::Verify() const {
  const std::vector<HostTensor> got_by_spec = CheckedOutputs();
  WorstComparison worst;
  // Tied entries in the order the backend chose, where the spec leaves it open.
  const std::vector<HostTensor> expected =
      call_.settle_ties ? call_.settle_ties(call_.tensors, call_.expected, got_by_spec) : call_.expected;
  for (size_t spec_index = 0; spec_index < call_.specs.size(); ++spec_index) {
    if (!call_.specs[spec_index].present || !IsWritten(call_.specs[spec_index])) continue;
    const std::string name = DescribeTensor(call_.specs[spec_index]);
    const CompareResult result = Compare(expected[spec_index], got_by_spec[spec_index], call_.tolerances[spec_index]);
    if (!result.pass) {
      Report("OP-ACC-1: output " + name + ": " + result.message + "\n  tolerance: " + call_.tolerances[spec_index].reason);
    } else if (result.weak_data && !call_.constant_output) {
      Report("output " + name + ": the case's data cannot discriminate (" + result.weak_reason +
             "); this is a suite bug, not the backend's");
    }
    worst.Add(result);
  }
  worst.Record("");
}

void DeviceCall::VerifyUnchanged(const std::string &why) const {
  for (const Allocation &allocation : allocations_) {
    if (allocation.back.size() != allocation.image.size()) throw std::logic_error("VerifyUnchanged before a download");
    const ByteDiff diff = DiffBytes(allocation.image, allocation.back, 0, allocation.image.size());
    if (diff.count == 0) continue;
    const size_t spec = allocation.written_spec < call_.specs.size() ? allocation.written_spec : allocation.spec;
    Report(why + " changed " + std::to_string(diff.count) + " bytes of " + DescribeTensor(call_.specs[spec]) +
           ", the first at byte " +
           std::to_string(static_cast<long long>(diff.first) - static_cast<long long>(kGuardBytes)) +
           " of its storage: expected " + Hex(allocation.image[diff.first]) + ", got " +
           Hex(allocation.back[diff.first]));
  }
}

}  // namespace infinicts::op_cases
