// The operator wrapper on its own, loaded as the harness loads a backend (with the runtime
// wrapper beside it): it exports every InfiniOP function, forwards faithfully without an
// operator fault, and `returns_before_work_done` really defers an operator's work to the
// next synchronize through the runtime wrapper's hook.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "backend/backend.h"
#include "selftest/child.h"

namespace infinicts::fault::selftest {
namespace {

const char *const kWrapperDir = INFINICTS_FAULT_WRAPPER_DIR;
const char *const kReferenceDir = INFINICTS_REFERENCE_DIR;
constexpr double kChildLimitSeconds = 30;

std::vector<std::pair<std::string, std::string>> WithFault(const std::string &fault) {
  return {{"INFINICTS_FAULT", fault}, {"INFINICTS_FAULT_TARGET", kReferenceDir}};
}

// When the result of an Add enqueued on a stream becomes visible.
enum class AddResult { kInStreamOrder, kAtTheNextSynchronize };

// c = a + b of 1000 F32 values on a created stream; c is read back by an async copy on the
// stream, synchronised, then again by a blocking copy.
int AddOnAStream(AddResult expected) {
  std::string error;
  auto backend = Backend::Load({kWrapperDir}, &error);
  CHILD_REQUIRE(backend != nullptr);
  const RtApi &rt = backend->rt();
  const OpApi &op = backend->op();
  const size_t count = 1000, bytes = count * sizeof(float);
  std::vector<float> a(count), b(count), zeros(count, 0.0f), sums(count);
  for (size_t i = 0; i < count; ++i) {
    a[i] = static_cast<float>(i) * 0.5f;
    b[i] = 3.0f - static_cast<float>(i);
    sums[i] = a[i] + b[i];
  }
  CHILD_REQUIRE(rt.infinirtSetDevice(INFINI_DEVICE_CPU, 0) == INFINI_STATUS_SUCCESS);
  infiniopHandle_t handle = nullptr;
  CHILD_REQUIRE(op.infiniopCreateHandle(&handle) == INFINI_STATUS_SUCCESS);
  infiniopTensorDescriptor_t vector_desc = nullptr;
  CHILD_REQUIRE(op.infiniopCreateTensorDescriptor(&vector_desc, 1, &count, nullptr, INFINI_DTYPE_F32) ==
                INFINI_STATUS_SUCCESS);
  infiniopAddDescriptor_t add = nullptr;
  CHILD_REQUIRE(op.infiniopCreateAddDescriptor(handle, &add, vector_desc, vector_desc, vector_desc) ==
                INFINI_STATUS_SUCCESS);
  size_t workspace_size = 0;
  CHILD_REQUIRE(op.infiniopGetAddWorkspaceSize(add, &workspace_size) == INFINI_STATUS_SUCCESS);
  void *workspace = nullptr, *a_dev = nullptr, *b_dev = nullptr, *c_dev = nullptr;
  if (workspace_size > 0) CHILD_REQUIRE(rt.infinirtMalloc(&workspace, workspace_size) == INFINI_STATUS_SUCCESS);
  for (void **buffer : {&a_dev, &b_dev, &c_dev})
    CHILD_REQUIRE(rt.infinirtMalloc(buffer, bytes) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtMemcpy(a_dev, a.data(), bytes, INFINIRT_MEMCPY_H2D) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtMemcpy(b_dev, b.data(), bytes, INFINIRT_MEMCPY_H2D) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtMemset(c_dev, 0, bytes) == INFINI_STATUS_SUCCESS);
  infinirtStream_t stream = nullptr;
  CHILD_REQUIRE(rt.infinirtStreamCreate(&stream) == INFINI_STATUS_SUCCESS);

  CHILD_REQUIRE(op.infiniopAdd(add, workspace, workspace_size, c_dev, a_dev, b_dev, stream) == INFINI_STATUS_SUCCESS);
  std::vector<float> in_stream_order(count, -1.0f), after_synchronize(count, -1.0f);
  CHILD_REQUIRE(rt.infinirtMemcpyAsync(in_stream_order.data(), c_dev, bytes, INFINIRT_MEMCPY_D2H, stream) ==
                INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtStreamSynchronize(stream) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtMemcpy(after_synchronize.data(), c_dev, bytes, INFINIRT_MEMCPY_D2H) ==
                INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(in_stream_order == (expected == AddResult::kInStreamOrder ? sums : zeros));
  CHILD_REQUIRE(after_synchronize == sums);

  CHILD_REQUIRE(op.infiniopDestroyAddDescriptor(add) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(op.infiniopDestroyTensorDescriptor(vector_desc) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(op.infiniopDestroyHandle(handle) == INFINI_STATUS_SUCCESS);
  CHILD_REQUIRE(rt.infinirtStreamDestroy(stream) == INFINI_STATUS_SUCCESS);
  for (void *buffer : {workspace, a_dev, b_dev, c_dev}) CHILD_REQUIRE(rt.infinirtFree(buffer) == INFINI_STATUS_SUCCESS);
  return 0;
}

void ExpectPassed(const ChildOutcome &outcome) {
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_TRUE(outcome.exited) << "killed by signal " << outcome.signal;
  EXPECT_EQ(outcome.exit_code, 0);
}

TEST(FaultOpWrapper, ExportsEveryOperatorFunction) {
  std::string error;
  auto wrapper = Backend::Load({kWrapperDir}, &error);
  ASSERT_TRUE(wrapper) << error;
  for (const std::string &symbol : KnownOpSymbols()) EXPECT_TRUE(wrapper->Exports(symbol)) << symbol;
}

TEST(FaultOpWrapper, ForwardsFaithfullyWithoutAnOperatorFault) {
  // "elapsed_in_seconds" is a runtime fault: the operator wrapper leaves it to its neighbour.
  for (const char *fault : {"", "none", "elapsed_in_seconds"}) {
    SCOPED_TRACE(fault);
    ExpectPassed(RunInChild(
        WithFault(fault), [] { return AddOnAStream(AddResult::kInStreamOrder); }, kChildLimitSeconds));
  }
}

TEST(FaultOpWrapper, ReturnsBeforeWorkDoneRunsTheWorkAtTheNextSynchronize) {
  ExpectPassed(RunInChild(
      WithFault("returns_before_work_done"), [] { return AddOnAStream(AddResult::kAtTheNextSynchronize); },
      kChildLimitSeconds));
}

}  // namespace
}  // namespace infinicts::fault::selftest
