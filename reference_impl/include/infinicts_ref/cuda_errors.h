// CUDA errors that end the process. After one of these "sticky" errors the CUDA context is
// lost: every later CUDA call in the process answers the same error, so a backend that
// turned it into a status and went on would fail every later case of its process. The
// runtime, the operators and the collectives therefore end the process at once (abort), so
// that the runner records one crash for the case that caused it and starts afresh.
//
// Leftover errors: a failed launch stays the thread's last error until something reads it,
// so each launch scope clears it first (ClearLeftoverError), and the launches' own check
// sees only its own.
#ifndef INFINICTS_REF_CUDA_ERRORS_H
#define INFINICTS_REF_CUDA_ERRORS_H

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

namespace infinicts::ref {

// The errors after which the CUDA runtime's documentation says the process must be
// terminated and relaunched to use CUDA again.
constexpr bool IsStickyCudaError(cudaError_t error) {
  switch (error) {
    case cudaErrorIllegalAddress:
    case cudaErrorMisalignedAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnsupportedExecAffinity:
    case cudaErrorContextIsDestroyed:
      return true;
    default:
      return false;
  }
}

// Ends the process when `error` is sticky, naming it and `where` on stderr; returns otherwise.
inline void AbortOnStickyCudaError(cudaError_t error, const char *where) {
  if (!IsStickyCudaError(error)) return;
  std::fprintf(stderr, "infinicts reference (%s): CUDA error %s (%s) lost the CUDA context; ending the process\n",
               where, cudaGetErrorName(error), cudaGetErrorString(error));
  std::fflush(stderr);
  std::abort();
}

// Reads and clears the thread's last CUDA error before new work; a sticky one ends the process.
inline void ClearLeftoverCudaError(const char *where) { AbortOnStickyCudaError(cudaGetLastError(), where); }

// After a library call (cuBLAS, cuDNN, NCCL) failed: its status may hide a lost context.
inline void AbortIfCudaContextLost(const char *where) { AbortOnStickyCudaError(cudaPeekAtLastError(), where); }

}  // namespace infinicts::ref

#endif  // INFINICTS_REF_CUDA_ERRORS_H
