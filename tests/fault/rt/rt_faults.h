// The runtime faults the wrapper can inject, one small installer each.
#pragma once

#include <vector>

#include "common/fault_registry.h"
#include "rt/rt_table.h"

namespace infinicts::fault {

using RtFault = Fault<RtTable>;
const std::vector<RtFault> &RtFaults();

// Installers that keep state of their own live in their own files.
void InstallMemcpyAsyncOutOfOrder(RtTable &calls);
void InstallEventTimeAtRecord(RtTable &calls);
void InstallPeerCopySourceMustBeCurrent(RtTable &calls);
void InstallFreeAsyncReusedAtOnce(RtTable &calls);
// events_across_streams_and_devices.cc
void InstallEventClockPerStream(RtTable &calls);
void InstallStreamWaitIgnoresOtherDevicesEvents(RtTable &calls);
// graph_faults.cc
void InstallGraphLaunchRunsNothing(RtTable &calls);
void InstallCaptureRunsEagerly(RtTable &calls);
void InstallGraphSnapshotsHostAtCapture(RtTable &calls);
void InstallGraphDestroyTakesItsExecs(RtTable &calls);
void InstallSnapshotTotalFromHost(RtTable &calls);
void InstallSnapshotDeviceIdZero(RtTable &calls);
void InstallGraphCallsAcceptBadInput(RtTable &calls);
void InstallSnapshotAcceptsBadInput(RtTable &calls);
// backend_behaviours.cc: what real backends do that the interface allows
void InstallNullArgumentsUnchecked(RtTable &calls);
void InstallRunsWorkAtTheCall(RtTable &calls);
void InstallMalloc16ByteAligned(RtTable &calls);
void InstallStreamDestroyAcceptingNull(RtTable &calls);
void InstallStreamWaitEventNotImplemented(RtTable &calls);
void InstallGraphsNotSupported(RtTable &calls);

}  // namespace infinicts::fault
