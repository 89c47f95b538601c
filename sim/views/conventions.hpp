// The counting conventions every report states in its header (and JSON as
// "conventions"), written once.
#pragma once

#include <string>
#include <vector>

namespace ridge {

const std::vector<std::string>& counting_conventions();

}  // namespace ridge
