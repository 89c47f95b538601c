// Caching models and descriptors between Python calls (see load_cache.hpp).
#include "sim/python/load_cache.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <system_error>

#include "hw/hardware_catalog.hpp"
#include "sim/workload/model_catalog.hpp"

namespace ridge::python {

namespace fs = std::filesystem;

namespace {
constexpr char kSep = '\x1f';  // between the parts of a key: no argument holds it
}  // namespace

std::optional<std::string> file_stamp(const std::string& file) {
  std::error_code ec;
  fs::path absolute = fs::absolute(file, ec);
  struct ::stat st {};
  if (ec || ::stat(absolute.c_str(), &st) != 0) return std::nullopt;  // one system call for size and time
  return absolute.string() + kSep + std::to_string(st.st_size) + kSep + std::to_string(st.st_mtim.tv_sec) + '.' +
         std::to_string(st.st_mtim.tv_nsec);
}

LoadCache::LoadCache() {
  loaders_.model = [this](const std::string& arg, const std::vector<ParamOverride>& overrides, const OnnxOptions& onnx,
                          std::optional<int64_t> tokens) -> std::shared_ptr<const Model> {
    std::optional<std::string> file = model_file(arg);
    std::optional<std::string> stamp = file ? file_stamp(*file) : std::nullopt;
    auto load = [&] { return cli::file_loaders().model(arg, overrides, onnx, tokens); };
    if (!stamp) return load();  // load_model says what is wrong
    std::string key = arg + kSep + *stamp + kSep + (tokens ? std::to_string(*tokens) : "-");
    for (const ParamOverride& o : overrides) key += kSep + o.name + '=' + o.value;
    for (const auto& [name, shape] : onnx.inputs) {
      key += kSep + name + '=';
      for (int64_t d : shape) key += std::to_string(d) + 'x';
    }
    key += onnx.allow_unknown ? "|unknown" : "";
    if (const auto* hit = models_.find(key)) return *hit;
    return models_.put(key, load());
  };
  loaders_.hardware = [this](const std::string& arg, const std::vector<std::string>& overrides) -> HardwareSpec {
    std::optional<std::string> file = hardware_file(arg);
    std::optional<std::string> stamp = file ? file_stamp(*file) : std::nullopt;
    auto load = [&] { return cli::file_loaders().hardware(arg, overrides); };
    if (!stamp) return load();
    std::string key = arg + kSep + *stamp;
    for (const std::string& o : overrides) key += kSep + o;
    if (const auto* hit = hardware_.find(key)) return *hit;
    return hardware_.put(key, load());
  };
}

void LoadCache::clear() {
  models_.clear();
  hardware_.clear();
}

}  // namespace ridge::python
