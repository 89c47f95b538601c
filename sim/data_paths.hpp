// Where ridge finds its shipped data (models/, configs/) from any working directory:
// $RIDGE_DATA_DIR if set, else the folder above the executable when it holds models/
// (an installed or build-tree layout), else the source tree the binary was built from.
#pragma once

#include <filesystem>

namespace ridge {

std::filesystem::path data_root();

}  // namespace ridge
