// The model zoo and MODEL argument resolution (see model_catalog.hpp).
#include "sim/workload/model_catalog.hpp"

#include <filesystem>

#include "sim/base/close_names.hpp"
#include "sim/base/data_paths.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge {

namespace fs = std::filesystem;

std::vector<std::string> zoo_names() { return toml_stems(data_root() / "models"); }

std::optional<std::string> model_file(const std::string& arg) {
  if (names_a_file(arg)) return path_present(arg) ? std::optional<std::string>(arg) : std::nullopt;
  fs::path zoo = data_root() / "models" / (arg + ".toml");
  if (shipped_file_exists(zoo)) return zoo.string();
  if (path_present(arg)) return arg;
  return std::nullopt;
}

Model load_model(const std::string& arg, const std::vector<ParamOverride>& overrides, const OnnxOptions& onnx,
                 std::optional<int64_t> tokens) {
  std::optional<std::string> file = model_file(arg);
  if (!file) {
    if (names_a_file(arg)) throw InputError({}, "no model file '" + arg + "'", "check the path, or use a zoo name (ridge list models)");
    throw InputError({}, "unknown model '" + arg + "'", suggestion_hint(arg, zoo_names()) + " (ridge list models)");
  }
  auto onnx_setting = [](const ParamOverride& o) { return o.name.starts_with("onnx."); };
  if (is_onnx_path(*file)) {  // --set model.X sizes the input's symbolic dimension X; onnx.X is a setting
    OnnxOptions with_dims = onnx;
    for (const ParamOverride& o : overrides)
      if (onnx_setting(o)) set_onnx_option(with_dims, *file, o.name, o.value);
      else with_dims.dims.emplace_back(o.name, o.value);
    return read_model_table(onnx_model_table(*file, with_dims), *file, {}, tokens);
  }
  for (const ParamOverride& o : overrides)
    if (onnx_setting(o)) throw InputError({}, "--set " + o.name + " applies to ONNX models only", "'" + arg + "' is a model file");
  return read_model_file(*file, overrides, tokens);
}

}  // namespace ridge
