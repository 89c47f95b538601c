// How a command reads its model and hardware descriptors: from their files on every
// run (the command line), or through a cache that re-reads a file only when it changed
// (the Python module, sim/python/load_cache). Both return what the files say; a cache
// only skips re-reading them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hw/hardware_spec.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/onnx/onnx_reader.hpp"

namespace ridge::cli {

struct Loaders {
  // load_model's arguments: MODEL, its [params] overrides, ONNX options, tokens per step.
  std::function<std::shared_ptr<const Model>(const std::string&, const std::vector<ParamOverride>&,
                                             const OnnxOptions&, std::optional<int64_t>)>
      model;
  // load_hardware's: HW and its "key.path=value" overrides.
  std::function<HardwareSpec(const std::string&, const std::vector<std::string>&)> hardware;
};

// Reads the files on every call (load_model, load_hardware).
const Loaders& file_loaders();

}  // namespace ridge::cli
