// Hardware descriptor files (configs/hw/*.toml) into validated HardwareSpecs, with
// KEY=VALUE overrides (`--set`, sweep [[vary]]) applied to the TOML tree before
// validation, so an override is checked exactly as if it were written in the file.
//
// Key paths: name, kind, model, source, sockets; compute.<dtype>, compute.cores,
// compute.clock, compute.flops_per_cycle.<dtype>; memory.<level name>.<key> (name,
// capacity, bandwidth, channels, transfer_rate, bus_bytes); link.name, link.bandwidth;
// overhead.kernel_launch; efficiency.compute, efficiency.memory, efficiency.source; and
// calibration.peaks.<dtype> and calibration.bandwidths.<level> where the file has them
// (no other calibration key can be overridden). An override of a figure that a fitted
// roof ([calibration.peaks] / [calibration.bandwidths]) replaced scales that roof by the
// same factor, unless the override sets the fitted roof itself.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "hw/hardware_spec.hpp"
#include "sim/base/error.hpp"

namespace ridge {

struct HardwareOverride {
  std::string key;    // "memory.HBM2.bandwidth"
  std::string value;  // as written in a descriptor, quotes optional: 2 TB/s, "2 TB/s", 0.8, 16
  SourceLoc where;    // where the override was written: the --set option, a sweep file's value
};

// "KEY=VALUE" as given to --set; its location names the option itself.
HardwareOverride parse_override(const std::string& key_equals_value);

// One descriptor file read once; specs are built from it with or without overrides.
// Cheap per sweep variation: the cached text is re-parsed (tens of microseconds)
// rather than the tree copied, because toml++ copies drop source positions and every
// error must keep its file:line:col.
class HardwareDescriptor {
 public:
  // Reads and parses (not yet validates) `path`; a TOML syntax error is an InputError.
  static HardwareDescriptor read_file(const std::string& path, std::string id);
  // Parses `text` as if read from `file` (tests, generated descriptors).
  static HardwareDescriptor from_text(std::string text, std::string file, std::string id);

  // Validates the descriptor with `overrides` applied in order.
  HardwareSpec spec(const std::vector<HardwareOverride>& overrides = {}) const;

  // Every key path an override may name in this descriptor, for suggestions and docs.
  std::vector<std::string> key_paths() const;

  const std::string& file() const { return file_; }
  const std::string& id() const { return id_; }

 private:
  HardwareDescriptor(std::string text, std::string file, std::string id, toml::table root)
      : text_(std::move(text)), file_(std::move(file)), id_(std::move(id)), root_(std::move(root)) {}
  std::string text_;
  std::string file_;
  std::string id_;
  toml::table root_;
};

// [efficiency] compute = { fp16 = 0.8, ... } (a descriptor's or a system's): the
// achievable fraction of peak per dtype; a located error for an unknown dtype or a
// value outside (0, 1].
std::map<DType, double> read_dtype_fractions(const toml::table& table, const std::string& file);

// Validates a parsed descriptor tree (see configs/hw/*.toml and docs/reference/hardware-descriptors.md for the format).
HardwareSpec build_hardware_spec(const toml::table& root, const std::string& file, const std::string& id);

}  // namespace ridge
