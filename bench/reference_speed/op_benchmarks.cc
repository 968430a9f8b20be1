// The reference operators through the InfiniOP interface of libinfiniop.so: Gemm F32,
// every elementwise operator of include/infiniop/operators.def, Rearrange, RMSNorm and the
// softmaxes, at large sizes.
// An operator's bandwidth counts every input read once and the output written once.
#include <memory>
#include <string>
#include <vector>

#include "benchmarks.h"
#include "infiniop.h"
#include "infiniop/same_shape_operators.hpp"
#include "tensors.h"

namespace infinicts::bench {
namespace {

using Desc = infiniopGemmDescriptor_t;  // every descriptor type is the same pointer type

// Create / workspace / destroy of a descriptor, shared by every operator below.
struct Descriptor {
  Desc desc = nullptr;
  infiniStatus_t (*destroy)(Desc) = nullptr;
  std::unique_ptr<DeviceBuffer> workspace;
  size_t workspace_bytes = 0;

  Descriptor(const ReferenceDevice &device, Desc created, infiniStatus_t (*get_workspace)(Desc, size_t *),
             infiniStatus_t (*destroy_fn)(Desc))
      : desc(created), destroy(destroy_fn) {
    Check(get_workspace(desc, &workspace_bytes), "Get...WorkspaceSize");
    if (workspace_bytes > 0) workspace = std::make_unique<DeviceBuffer>(device, workspace_bytes);
  }
  ~Descriptor() { destroy(desc); }
  void *ws() const { return workspace ? workspace->data() : nullptr; }
};

std::unique_ptr<DeviceBuffer> Filled(const ReferenceDevice &device, size_t count, infiniDtype_t dtype, unsigned seed) {
  auto buffer = std::make_unique<DeviceBuffer>(device, count * DtypeBytes(dtype));
  FillPattern(buffer->data(), count, dtype, seed);
  return buffer;
}

std::string ShapeName(const std::vector<size_t> &shape) {
  std::string name;
  for (size_t dim : shape) name += (name.empty() ? "" : "x") + std::to_string(dim);
  return name;
}

size_t Count(const std::vector<size_t> &shape) {
  size_t count = 1;
  for (size_t dim : shape) count *= dim;
  return count;
}

// Softmax and LogSoftmax share a signature (with an axis); CausalSoftmax has none.
struct AxisSoftmaxOp {
  const char *name;
  infiniStatus_t (*create)(infiniopHandle_t, Desc *, infiniopTensorDescriptor_t, infiniopTensorDescriptor_t, int);
  infiniStatus_t (*workspace)(Desc, size_t *);
  infiniStatus_t (*run)(Desc, void *, size_t, void *, const void *, void *);
  infiniStatus_t (*destroy)(Desc);
};

const AxisSoftmaxOp kAxisSoftmaxOps[] = {
    {"softmax", infiniopCreateSoftmaxDescriptor, infiniopGetSoftmaxWorkspaceSize, infiniopSoftmax,
     infiniopDestroySoftmaxDescriptor},
    {"log_softmax", infiniopCreateLogSoftmaxDescriptor, infiniopGetLogSoftmaxWorkspaceSize, infiniopLogSoftmax,
     infiniopDestroyLogSoftmaxDescriptor},
};

// An elementwise operator of the table (include/infiniop/same_shape_operators.hpp) with every
// tensor contiguous and of one shape.
void SameShapeBenchmark(benchmark::State &state, const infiniop_same_shape::Operator &op, std::vector<size_t> shape,
                        infiniDtype_t dtype, size_t memcpy_bytes) {
  const ReferenceDevice &device = ReferenceDevice::Get(0);
  const size_t count = Count(shape), tensors = op.inputs + 1;
  const TensorDesc tensor(shape, dtype);
  Desc created = nullptr;
  Check(op.create(device.handle(), &created, std::vector<infiniopTensorDescriptor_t>(tensors, tensor.get())), op.subject);
  const Descriptor desc(device, created, op.workspace_size, op.destroy);
  std::vector<std::unique_ptr<DeviceBuffer>> buffers;
  std::vector<void *> data;
  for (size_t t = 0; t < tensors; ++t) {
    buffers.push_back(Filled(device, count, dtype, static_cast<unsigned>(t + 1)));
    data.push_back(buffers.back()->data());
  }
  PairedMemcpy paired(ReferenceThreads(), memcpy_bytes);
  RunReferenceLoop(state, device, [&] {
    Check(op.compute(desc.desc, desc.ws(), desc.workspace_bytes, data, device.stream()), op.subject);
  }, static_cast<double>(tensors * count * DtypeBytes(dtype)), 0, &paired);
}

void AxisSoftmaxBenchmark(benchmark::State &state, const AxisSoftmaxOp &op, std::vector<size_t> shape,
                          infiniDtype_t dtype, size_t memcpy_bytes) {
  const ReferenceDevice &device = ReferenceDevice::Get(0);
  const size_t count = Count(shape);
  const TensorDesc tensor(shape, dtype);
  Desc created = nullptr;
  Check(op.create(device.handle(), &created, tensor.get(), tensor.get(), -1), op.name);
  const Descriptor desc(device, created, op.workspace, op.destroy);
  const auto x = Filled(device, count, dtype, 1), y = Filled(device, count, dtype, 2);
  PairedMemcpy paired(ReferenceThreads(), memcpy_bytes);
  RunReferenceLoop(state, device, [&] {
    Check(op.run(desc.desc, desc.ws(), desc.workspace_bytes, y->data(), x->data(), device.stream()), op.name);
  }, 2.0 * static_cast<double>(count * DtypeBytes(dtype)), 0, &paired);
}

void CausalSoftmaxBenchmark(benchmark::State &state, std::vector<size_t> shape, infiniDtype_t dtype, size_t memcpy_bytes) {
  const ReferenceDevice &device = ReferenceDevice::Get(0);
  const size_t count = Count(shape);
  const TensorDesc tensor(shape, dtype);
  Desc created = nullptr;
  Check(infiniopCreateCausalSoftmaxDescriptor(device.handle(), &created, tensor.get(), tensor.get()), "causal_softmax");
  const Descriptor desc(device, created, infiniopGetCausalSoftmaxWorkspaceSize, infiniopDestroyCausalSoftmaxDescriptor);
  const auto x = Filled(device, count, dtype, 1), y = Filled(device, count, dtype, 2);
  PairedMemcpy paired(ReferenceThreads(), memcpy_bytes);
  RunReferenceLoop(state, device, [&] {
    Check(infiniopCausalSoftmax(desc.desc, desc.ws(), desc.workspace_bytes, y->data(), x->data(), device.stream()),
          "causal_softmax");
  }, 2.0 * static_cast<double>(count * DtypeBytes(dtype)), 0, &paired);
}

void RMSNormBenchmark(benchmark::State &state, std::vector<size_t> shape, infiniDtype_t dtype, size_t memcpy_bytes) {
  const ReferenceDevice &device = ReferenceDevice::Get(0);
  const size_t count = Count(shape), length = shape.back();
  const TensorDesc tensor(shape, dtype), weight({length}, dtype);
  Desc created = nullptr;
  Check(infiniopCreateRMSNormDescriptor(device.handle(), &created, tensor.get(), tensor.get(), weight.get(), 1e-6f),
        "rms_norm");
  const Descriptor desc(device, created, infiniopGetRMSNormWorkspaceSize, infiniopDestroyRMSNormDescriptor);
  const auto x = Filled(device, count, dtype, 1), y = Filled(device, count, dtype, 2), w = Filled(device, length, dtype, 3);
  PairedMemcpy paired(ReferenceThreads(), memcpy_bytes);
  RunReferenceLoop(state, device, [&] {
    Check(infiniopRMSNorm(desc.desc, desc.ws(), desc.workspace_bytes, y->data(), x->data(), w->data(),
                          device.stream()),
          "rms_norm");
  }, static_cast<double>((2 * count + length) * DtypeBytes(dtype)), 0, &paired);
}

// A copy between two layouts of a 2-D shape: both row-major, or the source read as the
// transpose of a row-major (cols, rows) matrix.
void RearrangeBenchmark(benchmark::State &state, std::vector<size_t> shape, infiniDtype_t dtype, bool transposed, size_t memcpy_bytes) {
  const ReferenceDevice &device = ReferenceDevice::Get(0);
  const size_t count = Count(shape);
  const TensorDesc dst(shape, dtype);
  const std::vector<ptrdiff_t> source_strides =
      transposed ? std::vector<ptrdiff_t>{1, static_cast<ptrdiff_t>(shape[0])}
                 : std::vector<ptrdiff_t>{static_cast<ptrdiff_t>(shape[1]), 1};
  const TensorDesc src(shape, source_strides, dtype);
  Desc created = nullptr;
  Check(infiniopCreateRearrangeDescriptor(device.handle(), &created, dst.get(), src.get()), "rearrange");
  const auto x = Filled(device, count, dtype, 1), y = Filled(device, count, dtype, 2);
  PairedMemcpy paired(ReferenceThreads(), memcpy_bytes);
  RunReferenceLoop(state, device, [&] {
    Check(infiniopRearrange(created, y->data(), x->data(), device.stream()), "rearrange");
  }, 2.0 * static_cast<double>(count * DtypeBytes(dtype)), 0, &paired);
  infiniopDestroyRearrangeDescriptor(created);
}

void GemmBenchmark(benchmark::State &state, size_t size) {
  const ReferenceDevice &device = ReferenceDevice::Get(0);
  const TensorDesc matrix({size, size}, INFINI_DTYPE_F32);
  Desc created = nullptr;
  Check(infiniopCreateGemmDescriptor(device.handle(), &created, matrix.get(), matrix.get(), matrix.get()), "gemm");
  const Descriptor desc(device, created, infiniopGetGemmWorkspaceSize, infiniopDestroyGemmDescriptor);
  const auto a = Filled(device, size * size, INFINI_DTYPE_F32, 1), b = Filled(device, size * size, INFINI_DTYPE_F32, 2),
             c = Filled(device, size * size, INFINI_DTYPE_F32, 3);
  const double flops = 2.0 * static_cast<double>(size) * static_cast<double>(size) * static_cast<double>(size);
  RunReferenceLoop(state, device, [&] {
    Check(infiniopGemm(desc.desc, desc.ws(), desc.workspace_bytes, c->data(), a->data(), b->data(), 1.0f, 0.0f,
                       device.stream()),
          "gemm");
  }, static_cast<double>(3 * size * size * sizeof(float)), flops, nullptr);
}

// Registers a reference benchmark under `name` and its ratio row against memcpy.
void AddBandwidthPair(const SpeedConfig &config, std::vector<RatioRow> *rows, const std::string &name,
                      const std::string &label, double target, std::function<void(benchmark::State &)> body) {
  RegisterTimed(config, name, std::move(body));
  rows->push_back({label, name, name, "bytes_per_second", kPairedMemcpyCounter, target});
}

}  // namespace

void RunReferenceLoop(benchmark::State &state, const ReferenceDevice &device, const std::function<void()> &enqueue,
                      double bytes_per_call, double flops_per_call, PairedMemcpy *paired) {
  StreamTimer timer(device);
  timer.Time(enqueue);  // first touch of every page, warm caches and pool
  for (auto _ : state) {
    if (paired != nullptr) paired->CopyOnce();
    state.SetIterationTime(timer.Time(enqueue));
  }
  if (paired != nullptr) paired->Report(state);
  const double calls = static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(bytes_per_call * calls));
  if (flops_per_call > 0) {
    state.counters["flop_per_second"] = benchmark::Counter(flops_per_call * calls, benchmark::Counter::kIsRate);
  }
}

void RegisterOpBenchmarks(const SpeedConfig &config, std::vector<RatioRow> *rows) {
  constexpr double kElementwiseTarget = 0.7, kRowTarget = 0.5, kGemmTarget = 0.9;
  const size_t size = config.gemm_size;
  const std::string gemm = "ref/gemm/f32/" + std::to_string(size);
  RegisterTimed(config, gemm, [=](benchmark::State &state) { GemmBenchmark(state, size); });
  rows->push_back({"Gemm F32 " + std::to_string(size) + "^3 vs cblas_sgemm", gemm, SgemmName(size), "flop_per_second",
                   "flop_per_second", kGemmTarget});

  const size_t copy = config.memcpy_bytes;  // each bandwidth benchmark's paired memcpy
  const std::vector<size_t> matrix{config.rows, config.row_length};
  const std::vector<size_t> causal{config.causal_heads, config.causal_seq, config.causal_seq};
  for (const infiniDtype_t dtype : {INFINI_DTYPE_F32, INFINI_DTYPE_F16}) {
    const std::string type = DtypeName(dtype);
    const std::string suffix = "/" + type + "/" + ShapeName(matrix);
    const std::string upper = type == "f16" ? " F16" : " F32";
    for (const infiniop_same_shape::Operator &op : infiniop_same_shape::Operators()) {
      AddBandwidthPair(config, rows, std::string("ref/") + op.subject + suffix,
                       std::string(op.subject) + upper + " vs memcpy", kElementwiseTarget,
                       [&op, matrix, dtype, copy](benchmark::State &state) {
                         SameShapeBenchmark(state, op, matrix, dtype, copy);
                       });
    }
    AddBandwidthPair(config, rows, "ref/rearrange" + suffix, "rearrange" + upper + " vs memcpy", kElementwiseTarget,
                     [matrix, dtype, copy](benchmark::State &state) { RearrangeBenchmark(state, matrix, dtype, false, copy); });
    AddBandwidthPair(config, rows, "ref/rearrange_transpose" + suffix, "rearrange transpose" + upper + " vs memcpy",
                     kElementwiseTarget,
                     [matrix, dtype, copy](benchmark::State &state) { RearrangeBenchmark(state, matrix, dtype, true, copy); });
    AddBandwidthPair(config, rows, "ref/rms_norm" + suffix, "rms_norm" + upper + " vs memcpy", kRowTarget,
                     [matrix, dtype, copy](benchmark::State &state) { RMSNormBenchmark(state, matrix, dtype, copy); });
    for (const AxisSoftmaxOp &op : kAxisSoftmaxOps) {
      AddBandwidthPair(config, rows, std::string("ref/") + op.name + suffix, std::string(op.name) + upper + " vs memcpy",
                       kRowTarget, [&op, matrix, dtype, copy](benchmark::State &state) {
                         AxisSoftmaxBenchmark(state, op, matrix, dtype, copy);
                       });
    }
    AddBandwidthPair(config, rows, "ref/causal_softmax/" + type + "/" + ShapeName(causal),
                     "causal_softmax" + upper + " vs memcpy", kRowTarget,
                     [causal, dtype, copy](benchmark::State &state) { CausalSoftmaxBenchmark(state, causal, dtype, copy); });
  }
}

}  // namespace infinicts::bench
