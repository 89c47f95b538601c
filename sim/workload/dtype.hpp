// Numeric data types a run may compute and store in, with their storage size.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace ridge {

enum class DType { fp64, fp32, tf32, fp16, bf16, fp8, int8 };

inline constexpr std::array<DType, 7> kAllDTypes = {DType::fp64, DType::fp32, DType::tf32, DType::fp16,
                                                    DType::bf16, DType::fp8,  DType::int8};

std::string_view dtype_name(DType t);
std::optional<DType> parse_dtype(std::string_view name);
// Bytes per stored element; tf32 is computed at TF32 rate but stored as fp32 (4 B).
int dtype_bytes(DType t);
// "fp64, fp32, tf32, ..." for hints.
std::string dtype_names();

}  // namespace ridge
