// Model look-ups (see model.hpp).
#include "sim/workload/model.hpp"

namespace ridge {

int Model::find(const std::string& n) const {
  for (size_t i = 0; i < layers.size(); ++i)
    if (layers[i].name == n) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> Model::layer_names() const {
  std::vector<std::string> names;
  for (const Layer& l : layers) names.push_back(l.name);
  return names;
}

bool Model::has_attention() const {
  for (const Layer& l : layers)
    if (l.counts.attention.heads > 0) return true;
  return false;
}

int Model::logits_layer() const {
  if (layers.empty() || !has_attention()) return -1;
  const Layer& last = layers.back();
  bool dense_linear = last.op == "linear" && last.counts.quantizable && last.counts.experts.experts == 0;
  return dense_linear ? static_cast<int>(layers.size() - 1) : -1;
}

}  // namespace ridge
