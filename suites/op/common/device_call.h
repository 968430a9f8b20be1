// One prepared call's tensors on the device, and the checks on what comes back.
//
// Each present tensor gets one allocation: kGuardBytes, its whole storage span, kGuardBytes.
// Input guards hold all-ones bytes (NaN if an operator reads past an input); output guards
// and the gaps of output layouts hold kOutputGapByte. After the call every allocation comes
// back and Verify checks, for each written tensor, that no guard byte and no gap changed
// (an operator writing one element past its output fails here) and that its elements match
// the oracle within tolerance; for each input, that not one byte changed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/prepared_call.h"
#include "device/device.h"

namespace infinicts::op_cases {

inline constexpr size_t kGuardBytes = 256;

// Turns a runtime status into device::DeviceError (the case wrapper reports it).
void ThrowIfRtFailed(infiniStatus_t status, const char *call);

class DeviceCall {
 public:
  // `call` must outlive this object. An aliased output shares its input's allocation
  // (in-place); its spec must equal the input's.
  DeviceCall(device::Device &device, const PreparedCall &call, const std::vector<AliasPair> &aliases = {});

  void Upload();                                // blocking copies of every allocation's image
  void UploadFrom(const PreparedCall &other);  // blocking copies of another call's images (same specs)
  void UploadAsync(infinirtStream_t stream);   // this call's images, in the stream's order
  void DownloadAsync(infinirtStream_t stream);  // every allocation back, in the stream's order
  void Download();                              // blocking

  // Element (0, ..., 0) of each spec on the device; NULL for absent specs (junk for those
  // with junk_pointer).
  std::vector<void *> Pointers() const;

  // After a download: guards, gaps, inputs and outputs. Adds one failure per problem found
  // (each naming the tensor, what was expected and what came back) and records the metrics.
  void Verify() const;
  // After a download, run side by side with another backend (cts/against_outputs.h): the
  // memory checks of Verify, then the outputs saved for the other backend to compare with, or
  // compared with the other backend's saved ones (common/against.h).
  void VerifyAgainst() const;
  // After a download: every allocation holds exactly what was uploaded (a call that was
  // refused must not have written anything). `why` says what the call was.
  void VerifyUnchanged(const std::string &why) const;
  // After a download: what came back of each written tensor (one per spec, empty for the
  // others), unchecked: what a later call of a model step computed from.
  std::vector<HostTensor> Back() const;

 private:
  struct Allocation {
    size_t spec;            // the spec whose image it holds (the input, for an in-place pair)
    size_t written_spec;    // the spec written into it; == specs.size() when none
    device::DeviceBuffer buffer;
    std::vector<uint8_t> image;  // what is uploaded: guard, storage, guard
    std::vector<uint8_t> back;   // what came back
  };

  std::vector<uint8_t> ImageOf(const PreparedCall &call, size_t spec) const;
  // What came back of the written tensor an allocation holds.
  HostTensor BackOf(const Allocation &allocation) const;
  // Guards, gaps and inputs checked (a failure each); what came back of each written tensor
  // (one per spec, empty for the others).
  std::vector<HostTensor> CheckedOutputs() const;
  // Adds a failure: `what` first, then the problem it happened in.
  void Report(const std::string &what) const;

  device::Device &device_;
  const PreparedCall &call_;
  std::vector<int> allocation_of_;  // per spec: index into allocations_, -1 when absent
  std::vector<Allocation> allocations_;
};

}  // namespace infinicts::op_cases
