// What a CPU stream records while it captures a graph: its work, in the order it was enqueued.
// A graph and each graph exec instantiated from it own separate step lists; the steps are
// copies of one another's callables, so a host function's release waits for the last of them.
#ifndef INFINICTS_REF_CPU_GRAPH_H
#define INFINICTS_REF_CPU_GRAPH_H

#include <memory>
#include <vector>

#include "cpu/stream.h"

namespace infinicts::ref::cpu {

class Graph {
 public:
  explicit Graph(int device) : device_(device) {}

  // The device of the stream it was captured on: it runs on that device's streams only.
  int device() const { return device_; }
  void Append(Stream::Work step) { steps_.push_back(std::move(step)); }
  size_t size() const { return steps_.size(); }
  // One piece of work that runs every step in capture order, each time it is called.
  static Stream::Work RunAll(std::shared_ptr<const Graph> graph);

 private:
  const int device_;
  std::vector<Stream::Work> steps_;
};

}  // namespace infinicts::ref::cpu

#endif  // INFINICTS_REF_CPU_GRAPH_H
