#include "cpu/graph.h"

namespace infinicts::ref::cpu {

Stream::Work Graph::RunAll(std::shared_ptr<const Graph> graph) {
  return [graph = std::move(graph)] {
    for (const Stream::Work &step : graph->steps_) step();
  };
}

}  // namespace infinicts::ref::cpu
