// The hardware-model registry (see model_registry.hpp): one declaration and one row per
// model; the first row is the fallback when a descriptor names no default.
#include "hw/model_registry.hpp"

#include "sim/base/close_names.hpp"
#include "sim/base/error.hpp"

namespace ridge {

const HardwareModel& roofline_model();      // hw/roofline_model.cpp
const HardwareModel& hierarchical_model();  // hw/hierarchical_model.cpp

const std::vector<const HardwareModel*>& hardware_models() {
  static const std::vector<const HardwareModel*> table = {
      &roofline_model(),
      &hierarchical_model(),
  };
  return table;
}

std::vector<std::string> hardware_model_names() {
  std::vector<std::string> names;
  for (const HardwareModel* m : hardware_models()) names.emplace_back(m->name());
  return names;
}

const HardwareModel& find_hardware_model(const std::string& name) {
  for (const HardwareModel* m : hardware_models())
    if (m->name() == name) return *m;
  throw InputError({}, "unknown hardware model '" + name + "'",
                   suggestion_hint(name, hardware_model_names()) + " (ridge list hw-models)");
}

const HardwareModel& select_hardware_model(const HardwareSpec& hw, const std::string& requested) {
  if (!requested.empty()) return find_hardware_model(requested);
  if (!hw.default_model.empty()) {
    try {
      return find_hardware_model(hw.default_model);
    } catch (const InputError& e) {
      throw InputError(hw.default_model_where, "descriptor: 'model' names an " + std::string(e.what()), e.hint());
    }
  }
  return *hardware_models().front();
}

}  // namespace ridge
