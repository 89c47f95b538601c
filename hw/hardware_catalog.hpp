// HW arguments: a shipped descriptor name (configs/hw/NAME.toml) or a path to one,
// with `--set KEY=VALUE` overrides applied before validation, so an override is
// checked exactly as if it were written in the file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hw/descriptor_reader.hpp"
#include "hw/hardware_spec.hpp"

namespace ridge {

// Names of the shipped descriptors, sorted.
std::vector<std::string> shipped_hardware_names();

// The file HW names: configs/hw/NAME.toml in the data folder for a shipped name, else
// the path itself; nothing when there is none (open_hardware then says why).
std::optional<std::string> hardware_file(const std::string& name_or_path);

// Reads (parses, does not yet validate) a shipped descriptor or a file; a sweep opens
// each once and calls spec(overrides) per variation. An unknown name lists close ones.
HardwareDescriptor open_hardware(const std::string& name_or_path);

// `overrides` are "key.path=value" strings (`compute.fp32=120 TFLOPS`,
// `memory.HBM2.bandwidth=2 TB/s`), the key paths sweep [[vary]] tables use too.
HardwareSpec load_hardware(const std::string& name_or_path, const std::vector<std::string>& overrides = {});

}  // namespace ridge
