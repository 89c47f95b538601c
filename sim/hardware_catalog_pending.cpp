// TEMPORARY (branch `training`): load_hardware is implemented on branch
// `hw-descriptors`; this placeholder lets `ridge memory` link until that branch is
// merged, and is deleted in the merge.
#include "hw/hardware_catalog.hpp"
#include "sim/error.hpp"

namespace ridge {

std::vector<std::string> shipped_hardware_names() { return {}; }

HardwareSpec load_hardware(const std::string& name_or_path, const std::vector<std::string>&) {
  throw InputError({}, "--hw " + name_or_path + ": hardware descriptors are not in this build yet",
                   "merge branch hw-descriptors");
}

}  // namespace ridge
