// The table of layer types a model file may use, by `op` name.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/workload/op.hpp"

namespace ridge {

const OpInfo* find_op(std::string_view name);
const std::vector<OpInfo>& all_ops();
std::vector<std::string> op_names();

}  // namespace ridge
