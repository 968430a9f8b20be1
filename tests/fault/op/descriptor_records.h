// What a fault keeps per live operator descriptor (the layouts and attributes it needs at
// compute), filled by its create call and dropped by its destroy call.
#pragma once

#include <mutex>
#include <optional>
#include <unordered_map>

#include "infiniop.h"

namespace infinicts::fault {

template <class Record>
class DescriptorRecords {
 public:
  void Put(const InfiniopDescriptor *desc, Record record) {
    std::lock_guard<std::mutex> lock(mutex_);
    records_[desc] = std::move(record);
  }
  std::optional<Record> Find(const InfiniopDescriptor *desc) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = records_.find(desc);
    if (found == records_.end()) return std::nullopt;
    return found->second;
  }
  void Erase(const InfiniopDescriptor *desc) {
    std::lock_guard<std::mutex> lock(mutex_);
    records_.erase(desc);
  }

 private:
  mutable std::mutex mutex_;
  std::unordered_map<const InfiniopDescriptor *, Record> records_;
};

}  // namespace infinicts::fault
