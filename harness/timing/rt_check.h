// Turns a failed runtime call or launch into a TimingError naming it and its status.
#pragma once

#include <string>

namespace infinicts::timing {

// Throws TimingError "<call> answered <STATUS>" unless status is success.
void CheckRt(int status, const char *call);
// Throws TimingError "launch (iteration N) answered <STATUS>" unless status is success.
void CheckLaunch(int status, int iteration);
// NOT_IMPLEMENTED or DEVICE_TYPE_NOT_SUPPORTED: the backend lacks the feature.
bool IsUnsupported(int status);

}  // namespace infinicts::timing
