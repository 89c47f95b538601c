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

}  // namespace ridge
