// The statuses of the collectives and point-to-point calls for bad arguments, and which
// check comes first.
#include <initializer_list>
#include <memory>

#include "ccl_test_support.h"

namespace ccl_test {
namespace {

class ValidationTest : public CclTest {
 protected:
  void SetUp() override {
    CclTest::SetUp();
    buffer_ = std::make_unique<DeviceBuffer>(0, 4096);
  }
  void TearDown() override {
    buffer_.reset();
    CclTest::TearDown();
  }

  // Every call of rank 0 with `count` elements of `dtype`, and with one NULL buffer where
  // `null_buffer` is set, answers `want`.
  void ExpectEveryCall(infinicclComm_t comm, size_t count, infiniDtype_t dtype, bool null_buffer, infiniStatus_t want,
                       const std::string &what) {
    void *buffer = buffer_->get();
    void *maybe_null = null_buffer ? nullptr : buffer;
    infinirtStream_t stream = streams_[0];
    EXPECT_EQ(infinicclAllReduce(maybe_null, buffer, count, dtype, INFINICCL_SUM, comm, stream), want) << what;
    EXPECT_EQ(infinicclAllReduce(buffer, maybe_null, count, dtype, INFINICCL_SUM, comm, stream), want) << what;
    EXPECT_EQ(infinicclReduceScatter(maybe_null, buffer, count, dtype, INFINICCL_MAX, comm, stream), want) << what;
    EXPECT_EQ(infinicclReduceScatter(buffer, maybe_null, count, dtype, INFINICCL_MAX, comm, stream), want) << what;
    EXPECT_EQ(infinicclAllGather(maybe_null, buffer, count, dtype, comm, stream), want) << what;
    EXPECT_EQ(infinicclAllGather(buffer, maybe_null, count, dtype, comm, stream), want) << what;
    EXPECT_EQ(infinicclBroadcast(maybe_null, buffer, count, dtype, 0, comm, stream), want) << what;
    EXPECT_EQ(infinicclBroadcast(buffer, maybe_null, count, dtype, 0, comm, stream), want) << what;
    EXPECT_EQ(infinicclSend(maybe_null, count, dtype, 1, comm, stream), want) << what;
    EXPECT_EQ(infinicclRecv(maybe_null, count, dtype, 1, comm, stream), want) << what;
  }

  std::unique_ptr<DeviceBuffer> buffer_;
};

TEST_F(ValidationTest, NullCommNullBufferAndDtype) {
  ExpectEveryCall(nullptr, 4, INFINI_DTYPE_F32, false, INFINI_STATUS_NULL_POINTER, "NULL comm");
  ExpectEveryCall(nullptr, 4, INFINI_DTYPE_BOOL, true, INFINI_STATUS_NULL_POINTER, "NULL comm before the rest");
  ExpectEveryCall(comms_[0], 4, INFINI_DTYPE_F32, true, INFINI_STATUS_NULL_POINTER, "NULL buffer");
  ExpectEveryCall(comms_[0], 4, INFINI_DTYPE_C64, true, INFINI_STATUS_NULL_POINTER, "NULL buffer before dtype");
  for (int dtype : std::initializer_list<int>{INFINI_DTYPE_INVALID, INFINI_DTYPE_BYTE, INFINI_DTYPE_BOOL,
                                              INFINI_DTYPE_F8, INFINI_DTYPE_C16, INFINI_DTYPE_C32, INFINI_DTYPE_C64,
                                              INFINI_DTYPE_C128, 20, -1, 99}) {
    ExpectEveryCall(comms_[0], 4, static_cast<infiniDtype_t>(dtype), false, INFINI_STATUS_BAD_TENSOR_DTYPE,
                    "dtype " + std::to_string(dtype));
    ExpectEveryCall(comms_[0], 0, static_cast<infiniDtype_t>(dtype), false, INFINI_STATUS_BAD_TENSOR_DTYPE,
                    "dtype " + std::to_string(dtype) + ", count 0");
  }
}

TEST_F(ValidationTest, OpRootPeerAndStream) {
  void *buffer = buffer_->get();
  infinicclComm_t comm = comms_[1];
  infinirtStream_t stream = streams_[1];
  for (int op : {-1, 5, 100}) {
    const auto bad_op = static_cast<infinicclReduceOp_t>(op);
    EXPECT_EQ(infinicclAllReduce(buffer, buffer, 4, INFINI_DTYPE_F32, bad_op, comm, stream), INFINI_STATUS_BAD_PARAM);
    EXPECT_EQ(infinicclReduceScatter(buffer, buffer, 4, INFINI_DTYPE_I8, bad_op, comm, stream),
              INFINI_STATUS_BAD_PARAM);
    EXPECT_EQ(infinicclAllReduce(buffer, buffer, 4, INFINI_DTYPE_BYTE, bad_op, comm, stream),
              INFINI_STATUS_BAD_TENSOR_DTYPE)
        << "dtype before op";
  }
  EXPECT_EQ(infinicclBroadcast(nullptr, buffer, 4, INFINI_DTYPE_F32, 1, comm, stream), INFINI_STATUS_NULL_POINTER)
      << "the root's send buffer is needed";
  for (int root : {-1, kRanks, 1000}) {
    EXPECT_EQ(infinicclBroadcast(buffer, buffer, 4, INFINI_DTYPE_F32, root, comm, stream), INFINI_STATUS_BAD_PARAM);
  }
  for (int peer : {-1, 1, kRanks}) {  // 1 is the caller's own rank
    EXPECT_EQ(infinicclSend(buffer, 4, INFINI_DTYPE_F32, peer, comm, stream), INFINI_STATUS_BAD_PARAM);
    EXPECT_EQ(infinicclRecv(buffer, 4, INFINI_DTYPE_F32, peer, comm, stream), INFINI_STATUS_BAD_PARAM);
  }
  // A stream of another device, and a handle no runtime made.
  int not_a_stream = 0;
  for (infinirtStream_t bad_stream : {streams_[0], static_cast<infinirtStream_t>(&not_a_stream)}) {
    EXPECT_EQ(infinicclAllReduce(buffer, buffer, 4, INFINI_DTYPE_F32, INFINICCL_SUM, comm, bad_stream),
              INFINI_STATUS_BAD_PARAM);
    EXPECT_EQ(infinicclBroadcast(buffer, buffer, 4, INFINI_DTYPE_F32, 0, comm, bad_stream), INFINI_STATUS_BAD_PARAM);
    EXPECT_EQ(infinicclSend(buffer, 4, INFINI_DTYPE_F32, 0, comm, bad_stream), INFINI_STATUS_BAD_PARAM);
  }
  // None of the refused calls took a place in the matching.
  SyncAll();
}

}  // namespace
}  // namespace ccl_test
