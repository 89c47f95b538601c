// Measured behaviour of a machine, kept apart from its pure peaks: a descriptor's
// optional [calibration] section. Per op class and dtype it gives a size-dependent
// compute efficiency (Hockney's half-performance size: a layer of W FLOPs attains
// peak x compute x W / (W + n_half)), optional GEMM-shape terms (a conv or linear layer
// whose GEMM has P rows, a linear layer's batch x tokens or a convolution's positions per
// image, and dot products of length K attains a further
// P / (P + positions_half) x K / (K + reduction_half)), a memory efficiency per memory
// level (the fraction of that level's bandwidth it streams at), and whether its compute
// and memory time overlap (time = the larger) or follow each other (their sum, as in a
// scalar loop that waits for each load); with the cache rule a layer of a calibrated
// class whose whole working set fits a cache level streams from that level.
// A shared-term calibration (`ridge calibrate --shared`) also fits one fixed time per
// kernel, which every layer pays instead of [overhead] kernel_launch, calibrated or not.
// With `ridge calibrate --fit-peaks` it may also raise the descriptor's roofs: a dtype's
// peak or a level's bandwidth that measured layers beat (a fitted peak, the best rate a
// layer attained); the descriptor's own figures are kept to restore (`--efficiency none`).
// Written by `ridge calibrate`; classes and dtypes it does not name keep the pure roofline.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "sim/workload/dtype.hpp"
#include "sim/workload/op_class.hpp"

namespace ridge {

struct ClassEfficiency {
  double compute = 1.0;       // fraction of the dtype's peak at large sizes, (0, 1]
  double n_half_flops = 0.0;  // FLOPs at which half of that is reached, >= 0
  // GEMM-shape terms, >= 0 (0: none): the GEMM rows (LayerCost::gemm_rows) and the
  // dot-product length at which a conv or linear layer attains half
  // (LayerWork::gemm_positions, gemm_reduction).
  double positions_half = 0.0;
  double reduction_half = 0.0;
  bool overlap = true;        // time = max(compute, memory); false: compute + memory
  double memory = 1.0;        // fraction of every level's bandwidth, (0, 1], unless memory_by_level names levels
  // Fitted per level (by name), each in (0, 1]. A level named here streams at its bandwidth x
  // its fraction; a level not named streams at the nearest named level's attained bandwidth
  // (bandwidth x fraction), capped by its own bandwidth: a kernel that cannot use a faster
  // level's bandwidth is not sped up by it, and a slower level still limits it.
  std::map<std::string, double> memory_by_level;
  int64_t rows = 0;           // measured layers the parameters were fitted on
  // Median |predicted / measured - 1| on those rows: pure roofline, fitted on all of
  // them, and held out (each predicted by a fit without its cross-validation group).
  double median_error_before = 0;
  double median_error_after = 0;
  double median_error_held_out = 0;
};

// A calibrated class: an op class in a dtype, run by one kernel library where the
// descriptor's [library] places it (hw/kernel_library.hpp; "": the op class's own kernels).
struct ClassKey {
  OpClass op_class = OpClass::data_movement;
  DType dtype = DType::fp32;
  std::string library;
  auto operator<=>(const ClassKey&) const = default;
};

// "conv_1x1 fp32", or "conv_1x1 fp32 in blas" where a library runs it.
std::string class_key_name(const ClassKey& key);

struct Calibration {
  std::map<ClassKey, ClassEfficiency> classes;
  bool cache_rule = true;  // a calibrated class's working set streams from the nearest level that holds it
  std::string data;        // the measured data set the fit used
  std::string date;        // when it was fitted (YYYY-MM-DD)
  std::string method;      // how (loss, cross-validation)
  // > 0: a fixed time per kernel fitted across the classes (`ridge calibrate --shared`:
  // launch, the last wave's tail, synchronisation); every layer, calibrated class or not, pays it
  // per kernel instead of [overhead] kernel_launch. 0: kernel_launch.
  double kernel_time_s = 0;
  // Roofs fitted above the descriptor's (--fit-peaks): FLOP/s per dtype, B/s per level
  // name. Reading the descriptor applies them and keeps the figures they replace.
  std::map<DType, double> peaks;
  std::map<std::string, double> bandwidths;
  // The conditions the measurements were taken under (the CSV's `# conditions:` lines:
  // threads, library, clock, load, date, dtype), by key.
  std::map<std::string, std::string> conditions;
  std::map<DType, double> replaced_peaks;
  std::map<std::string, double> replaced_bandwidths;

  const ClassEfficiency* find(OpClass c, DType t, const std::string& library = "") const {
    auto it = classes.find({c, t, library});
    return it == classes.end() ? nullptr : &it->second;
  }
};

// Reads a [calibration] table (keys in docs/reference/hardware-descriptors.md, "Calibration"); `levels` are the descriptor's
// memory level names, which a per-level memory efficiency must use. Errors are located InputErrors.
Calibration read_calibration(const toml::table& table, const std::string& file, const std::vector<std::string>& levels);

// The conditions on one line: "key = value; key = value".
std::string conditions_text(const std::map<std::string, std::string>& conditions);

// The [calibration] section as TOML text, ready to append to a descriptor.
std::string calibration_toml(const Calibration& c);

}  // namespace ridge
