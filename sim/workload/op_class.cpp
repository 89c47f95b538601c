// Op classes: names and the class of each registered op (see op_class.hpp).
#include "sim/workload/op_class.hpp"

namespace ridge {

std::string_view op_class_name(OpClass c) {
  switch (c) {
    case OpClass::conv_kxk: return "conv_kxk";
    case OpClass::conv_1x1: return "conv_1x1";
    case OpClass::depthwise: return "depthwise";
    case OpClass::linear: return "linear";
    case OpClass::attention: return "attention";
    case OpClass::normalization: return "normalization";
    case OpClass::elementwise: return "elementwise";
    case OpClass::max_pool: return "max_pool";
    case OpClass::avg_pool: return "avg_pool";
    case OpClass::data_movement: return "data_movement";
  }
  return "?";
}

std::optional<OpClass> parse_op_class(std::string_view name) {
  for (OpClass c : kAllOpClasses)
    if (op_class_name(c) == name) return c;
  return std::nullopt;
}

std::string op_class_names() {
  std::string out;
  for (OpClass c : kAllOpClasses) out += (out.empty() ? "" : ", ") + std::string(op_class_name(c));
  return out;
}

std::vector<std::string> op_class_name_list() {
  std::vector<std::string> out;
  for (OpClass c : kAllOpClasses) out.emplace_back(op_class_name(c));
  return out;
}

}  // namespace ridge
