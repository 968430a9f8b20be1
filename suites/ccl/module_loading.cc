// CUDA modules of this process load when a context is made, not lazily at a kernel's first
// launch. Here one thread drives several GPUs through the collective library: a lazy load
// needs the device idle enough to take the new module, and NCCL kernels that wait for their
// peers on the other GPUs can keep it busy for ever (a hang). Lazy loading, CUDA's default,
// stays for every other suite, where it spares each process loading every library's kernels.
// Set before main, so before the backend is loaded; a value the user set stays.
#include <cstdlib>

namespace {

[[maybe_unused]] const bool modules_load_eagerly = [] {
  setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/0);
  return true;
}();

}  // namespace
