// Reading models and descriptors from their files on every call (see model_loaders.hpp).
#include "sim/cli/model_loaders.hpp"

#include "hw/hardware_catalog.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::cli {

const Loaders& file_loaders() {
  static const Loaders loaders = {
      [](const std::string& arg, const std::vector<ParamOverride>& overrides, const OnnxOptions& onnx,
         std::optional<int64_t> tokens) { return std::make_shared<const Model>(load_model(arg, overrides, onnx, tokens)); },
      [](const std::string& arg, const std::vector<std::string>& overrides) { return load_hardware(arg, overrides); }};
  return loaders;
}

}  // namespace ridge::cli
