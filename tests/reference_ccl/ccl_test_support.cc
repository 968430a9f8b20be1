#include "ccl_test_support.h"

#include <cmath>
#include <cstring>
#include <sstream>
#include <thread>

namespace ccl_test {
namespace {

// Exact F16 bits of a value F16 represents (checked by the decoding round trip).
uint16_t ExactHalfBits(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return sign;
  int exponent = 0;
  const double fraction = std::frexp(magnitude, &exponent);  // magnitude = fraction * 2^exponent
  const int biased = exponent - 1 + 15;
  if (biased <= 0) return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::ldexp(magnitude, 24)));
  const auto mantissa = static_cast<uint16_t>(std::ldexp(fraction * 2 - 1, 10));
  return static_cast<uint16_t>(sign | (biased << 10) | mantissa);
}

double HalfValue(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  const double magnitude = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 15 - 10);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

uint16_t ExactBfloat16Bits(double value) {
  const auto single = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &single, sizeof bits);
  return static_cast<uint16_t>(bits >> 16);
}

double Bfloat16Value(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float single;
  std::memcpy(&single, &wide, sizeof single);
  return single;
}

template <class T>
void Put(std::vector<uint8_t> &bytes, size_t index, T value) {
  std::memcpy(bytes.data() + index * sizeof(T), &value, sizeof(T));
}

template <class T>
T Get(const std::vector<uint8_t> &bytes, size_t index) {
  T value;
  std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
  return value;
}

void PutValue(infiniDtype_t dtype, std::vector<uint8_t> &bytes, size_t i, double v) {
  switch (dtype) {
    case INFINI_DTYPE_I8:
      return Put(bytes, i, static_cast<int8_t>(v));
    case INFINI_DTYPE_I16:
      return Put(bytes, i, static_cast<int16_t>(v));
    case INFINI_DTYPE_I32:
      return Put(bytes, i, static_cast<int32_t>(v));
    case INFINI_DTYPE_I64:
      return Put(bytes, i, static_cast<int64_t>(v));
    case INFINI_DTYPE_U8:
      return Put(bytes, i, static_cast<uint8_t>(v));
    case INFINI_DTYPE_U16:
      return Put(bytes, i, static_cast<uint16_t>(v));
    case INFINI_DTYPE_U32:
      return Put(bytes, i, static_cast<uint32_t>(v));
    case INFINI_DTYPE_U64:
      return Put(bytes, i, static_cast<uint64_t>(v));
    case INFINI_DTYPE_F16:
      return Put(bytes, i, ExactHalfBits(v));
    case INFINI_DTYPE_BF16:
      return Put(bytes, i, ExactBfloat16Bits(v));
    case INFINI_DTYPE_F32:
      return Put(bytes, i, static_cast<float>(v));
    case INFINI_DTYPE_F64:
      return Put(bytes, i, v);
    default:
      FAIL() << "not a number dtype: " << dtype;
  }
}

double GetValue(infiniDtype_t dtype, const std::vector<uint8_t> &bytes, size_t i) {
  switch (dtype) {
    case INFINI_DTYPE_I8:
      return Get<int8_t>(bytes, i);
    case INFINI_DTYPE_I16:
      return Get<int16_t>(bytes, i);
    case INFINI_DTYPE_I32:
      return Get<int32_t>(bytes, i);
    case INFINI_DTYPE_I64:
      return static_cast<double>(Get<int64_t>(bytes, i));
    case INFINI_DTYPE_U8:
      return Get<uint8_t>(bytes, i);
    case INFINI_DTYPE_U16:
      return Get<uint16_t>(bytes, i);
    case INFINI_DTYPE_U32:
      return Get<uint32_t>(bytes, i);
    case INFINI_DTYPE_U64:
      return static_cast<double>(Get<uint64_t>(bytes, i));
    case INFINI_DTYPE_F16:
      return HalfValue(Get<uint16_t>(bytes, i));
    case INFINI_DTYPE_BF16:
      return Bfloat16Value(Get<uint16_t>(bytes, i));
    case INFINI_DTYPE_F32:
      return Get<float>(bytes, i);
    case INFINI_DTYPE_F64:
      return Get<double>(bytes, i);
    default:
      return std::nan("");
  }
}

}  // namespace

std::vector<infiniDtype_t> NumberDtypes() {
  return {INFINI_DTYPE_I8,  INFINI_DTYPE_I16, INFINI_DTYPE_I32, INFINI_DTYPE_I64,  INFINI_DTYPE_U8,  INFINI_DTYPE_U16,
          INFINI_DTYPE_U32, INFINI_DTYPE_U64, INFINI_DTYPE_F16, INFINI_DTYPE_BF16, INFINI_DTYPE_F32, INFINI_DTYPE_F64};
}

std::string DtypeName(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_I8:
      return "i8";
    case INFINI_DTYPE_I16:
      return "i16";
    case INFINI_DTYPE_I32:
      return "i32";
    case INFINI_DTYPE_I64:
      return "i64";
    case INFINI_DTYPE_U8:
      return "u8";
    case INFINI_DTYPE_U16:
      return "u16";
    case INFINI_DTYPE_U32:
      return "u32";
    case INFINI_DTYPE_U64:
      return "u64";
    case INFINI_DTYPE_F16:
      return "f16";
    case INFINI_DTYPE_BF16:
      return "bf16";
    case INFINI_DTYPE_F32:
      return "f32";
    case INFINI_DTYPE_F64:
      return "f64";
    default:
      return "dtype" + std::to_string(static_cast<int>(dtype));
  }
}

size_t ElementSize(infiniDtype_t dtype) {
  switch (dtype) {
    case INFINI_DTYPE_I8:
    case INFINI_DTYPE_U8:
      return 1;
    case INFINI_DTYPE_I16:
    case INFINI_DTYPE_U16:
    case INFINI_DTYPE_F16:
    case INFINI_DTYPE_BF16:
      return 2;
    case INFINI_DTYPE_I32:
    case INFINI_DTYPE_U32:
    case INFINI_DTYPE_F32:
      return 4;
    case INFINI_DTYPE_I64:
    case INFINI_DTYPE_U64:
    case INFINI_DTYPE_F64:
      return 8;
    default:
      return 0;
  }
}

bool IsFloating(infiniDtype_t dtype) {
  return dtype == INFINI_DTYPE_F16 || dtype == INFINI_DTYPE_BF16 || dtype == INFINI_DTYPE_F32 ||
         dtype == INFINI_DTYPE_F64;
}

bool HoldsNegatives(infiniDtype_t dtype) { return IsFloating(dtype) || dtype <= INFINI_DTYPE_I64; }

std::vector<uint8_t> Encode(infiniDtype_t dtype, const std::vector<double> &values) {
  std::vector<uint8_t> bytes(values.size() * ElementSize(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    PutValue(dtype, bytes, i, values[i]);
    EXPECT_EQ(GetValue(dtype, bytes, i), values[i]) << DtypeName(dtype) << " cannot hold " << values[i];
  }
  return bytes;
}

std::vector<double> Decode(infiniDtype_t dtype, const std::vector<uint8_t> &bytes) {
  const size_t count = bytes.size() / ElementSize(dtype);
  std::vector<double> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = GetValue(dtype, bytes, i);
  return values;
}

DeviceBuffer::DeviceBuffer(int device, size_t bytes) {
  infiniDevice_t type;
  int previous;
  EXPECT_OK(infinirtGetDevice(&type, &previous));
  EXPECT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, device));
  EXPECT_OK(infinirtMalloc(&data_, bytes));
  EXPECT_OK(infinirtSetDevice(type, previous));
}

DeviceBuffer::~DeviceBuffer() {
  if (data_ != nullptr) {
    EXPECT_OK(infinirtFree(data_));
  }
}

void DeviceBuffer::Upload(const std::vector<uint8_t> &bytes, size_t byte_offset) {
  EXPECT_OK(infinirtMemcpy(this->bytes() + byte_offset, bytes.data(), bytes.size(), INFINIRT_MEMCPY_H2D));
}

std::vector<uint8_t> DeviceBuffer::Download(size_t byte_count, size_t byte_offset) const {
  std::vector<uint8_t> bytes(byte_count);
  EXPECT_OK(infinirtMemcpy(bytes.data(), this->bytes() + byte_offset, byte_count, INFINIRT_MEMCPY_D2H));
  return bytes;
}

std::string DrivingName(Driving driving) { return driving == Driving::kOneThread ? "one thread" : "thread per rank"; }

void ForEachRank(Driving driving, const std::vector<int> &devices, const std::function<void(int rank)> &issue) {
  const int nranks = static_cast<int>(devices.size());
  if (driving == Driving::kOneThread) {
    for (int rank = 0; rank < nranks; ++rank) issue(rank);
    return;
  }
  std::vector<std::thread> threads;
  for (int rank = 0; rank < nranks; ++rank) {
    threads.emplace_back([&, rank] {
      EXPECT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, devices[static_cast<size_t>(rank)]));
      issue(rank);
    });
  }
  for (std::thread &thread : threads) thread.join();
}

void ExpectValues(const std::vector<double> &got, const std::vector<double> &want, const std::string &context) {
  ASSERT_EQ(got.size(), want.size()) << context;
  std::ostringstream differences;
  size_t mismatches = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    if (++mismatches <= 4) differences << " [" << i << "] want " << want[i] << " got " << got[i] << ";";
  }
  EXPECT_EQ(mismatches, 0u) << context << ":" << differences.str();
}

void CclTest::SetUp() {
  int count = 0;
  ASSERT_OK(infinirtGetDeviceCount(INFINI_DEVICE_CPU, &count));
  ASSERT_EQ(count, kRanks) << "run with INFINICTS_CPU_DEVICES=" << kRanks;
  devices_ = {0, 1, 2, 3};
  comms_.assign(kRanks, nullptr);
  ASSERT_OK(infinicclCommInitAll(INFINI_DEVICE_CPU, comms_.data(), kRanks, devices_.data()));
  streams_.assign(kRanks, nullptr);
  for (int device = 0; device < kRanks; ++device) {
    ASSERT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, device));
    ASSERT_OK(infinirtStreamCreate(&streams_[static_cast<size_t>(device)]));
  }
  ASSERT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
}

void CclTest::TearDown() {
  SyncAll();
  for (infinirtStream_t stream : streams_) {
    if (stream != nullptr) {
      EXPECT_OK(infinirtStreamDestroy(stream));
    }
  }
  for (infinicclComm_t comm : comms_) {
    if (comm != nullptr) {
      EXPECT_OK(infinicclCommDestroy(comm));
    }
  }
  EXPECT_OK(infinirtSetDevice(INFINI_DEVICE_CPU, 0));
}

void CclTest::SyncAll() {
  for (infinirtStream_t stream : streams_) {
    if (stream != nullptr) {
      EXPECT_OK(infinirtStreamSynchronize(stream));
    }
  }
}

}  // namespace ccl_test
