#include "timing/rt_check.h"

#include "backend/names.h"
#include "timing/timing.h"

namespace infinicts::timing {

void CheckRt(int status, const char *call) {
  if (status != INFINI_STATUS_SUCCESS) throw TimingError(std::string(call) + " answered " + StatusName(status), status);
}

void CheckLaunch(int status, int iteration) {
  if (status != INFINI_STATUS_SUCCESS) {
    throw TimingError("launch (iteration " + std::to_string(iteration) + ") answered " + StatusName(status), status);
  }
}

bool IsUnsupported(int status) {
  return status == INFINI_STATUS_NOT_IMPLEMENTED || status == INFINI_STATUS_DEVICE_TYPE_NOT_SUPPORTED;
}

}  // namespace infinicts::timing
