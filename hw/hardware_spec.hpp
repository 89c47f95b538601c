// A hardware descriptor after parsing and validation: immutable, SI units throughout
// (FLOP/s, B/s, bytes, seconds). Read from configs/hw/*.toml by descriptor_reader.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hw/calibration.hpp"
#include "hw/conv_algorithms.hpp"
#include "hw/kernel_library.hpp"
#include "hw/power_price.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/dtype.hpp"

namespace ridge {

struct MemoryLevel {
  std::string name;         // "HBM2", "L2", "DDR4"
  double capacity_bytes;    // > 0
  double bandwidth_Bps;     // > 0, peak
};

struct HostLink {
  std::string name;         // "PCIe 3.0 x16"
  double bandwidth_Bps;     // > 0, one direction
};

struct HardwareSpec {
  std::string id;             // short name: file stem ("v100") or the path given
  std::string name;           // "NVIDIA V100 SXM2 16 GB"
  std::string kind;           // "gpu" | "cpu"
  std::string default_model;  // hardware model used unless --hw-model says otherwise
  SourceLoc default_model_where;  // where `model` was written (an unknown name is reported there)
  std::string source;
  std::string file;
  std::map<DType, double> peak_flops;  // dense peak per supported dtype
  std::vector<MemoryLevel> memory;     // far to near; memory[0] is the device DRAM
  std::optional<HostLink> link;
  double kernel_launch_s = 0;          // per-kernel overhead
  // [efficiency]: what real kernels achieve on this machine, from public measurements
  // (docs/reference/hardware-descriptors.md, "Efficiency"); `--efficiency none` drops it.
  double compute_efficiency = 1.0;     // achievable fraction of peak compute, (0, 1]
  std::map<DType, double> compute_efficiency_by_dtype;  // per dtype, overriding compute_efficiency
  double memory_efficiency = 1.0;      // achievable fraction of peak bandwidth, (0, 1]
  // Weight-only quantisation (W8A16, W4A16): operations per weight to widen it in the
  // kernel (unpack, scale, convert), at the fp32 vector rate, added to the layer's time.
  double dequant_ops_per_weight = 0;
  double request_overhead_s = 0;       // an engine's fixed time per request before its first token
  // GEMM wave quantisation (hw/gemm_waves.hpp): the compute units (SMs, CUs) a GEMM's
  // output tiles are spread over, and the tile (rows x columns); 0: not modelled.
  int compute_units = 0;
  int gemm_tile_rows = 0;
  int gemm_tile_cols = 0;
  std::string efficiency_source;       // where the efficiency factors come from (empty: none given)
  // Measured per-class efficiencies ([calibration]); none: the pure roofline (with the
  // [efficiency] factors above). `--efficiency none` drops it.
  std::optional<Calibration> calibration;
  // [library]: which kernel library the framework runs each layer in (hw/kernel_library.hpp);
  // a calibration fitted with it has a class per (op class, library). None: one per op class.
  std::optional<KernelLibrary> library;
  // [conv_algorithms]: the algorithms a GPU library may run a convolution with
  // (hw/conv_algorithms.hpp); a convolution is timed as the fastest, and a calibration
  // fitted with it has a class per (op class, algorithm). None: the direct count.
  std::optional<ConvAlgorithmRule> conv_algorithms;
  // A `bound_only` [conv_algorithms] rule, kept aside: conv_algorithms in the bound only
  // (drop_to_bound).
  std::optional<ConvAlgorithmRule> bound_conv_algorithms;
  DevicePower power;  // [power]: board, idle, host CPU / DRAM power (each optional)
  DevicePrice price;  // [price]: launch price, cloud price per hour (each optional)
  // How derived figures were computed, one line each, e.g.
  // "fp32 peak = 2 sockets x 20 cores x 2.5 GHz x 64 FLOP/cycle = 6.4 TFLOP/s".
  std::vector<std::string> derivations;

  // Peak FLOP/s for a dtype, or nothing when the hardware does not support it.
  std::optional<double> peak(DType t) const {
    auto it = peak_flops.find(t);
    if (it == peak_flops.end()) return std::nullopt;
    return it->second;
  }
  const MemoryLevel& dram() const { return memory.front(); }
  // The fixed time every kernel pays: a shared calibration's fitted time per kernel, the
  // device's own (launch, the last wave's tail, synchronisation), for every op class,
  // calibrated or not; else [overhead] kernel_launch.
  double per_kernel_s() const {
    return calibration && calibration->kernel_time_s > 0 ? calibration->kernel_time_s : kernel_launch_s;
  }
  // The achievable fraction of a dtype's peak ([efficiency]; 1 without one).
  double compute_fraction(DType t) const {
    auto it = compute_efficiency_by_dtype.find(t);
    return it == compute_efficiency_by_dtype.end() ? compute_efficiency : it->second;
  }
  // The calibration's fitted roofs in place of the descriptor's, which it keeps.
  void apply_calibrated_roofs() {
    if (!calibration) return;
    for (const auto& [t, flops] : calibration->peaks) {
      calibration->replaced_peaks[t] = peak_flops[t];
      peak_flops[t] = flops;
    }
    for (MemoryLevel& m : memory) {
      auto it = calibration->bandwidths.find(m.name);
      if (it == calibration->bandwidths.end()) continue;
      calibration->replaced_bandwidths[m.name] = m.bandwidth_Bps;
      m.bandwidth_Bps = it->second;
    }
  }
  // Without [calibration]: the descriptor's own roofs back.
  void drop_calibration() {
    if (!calibration) return;
    for (const auto& [t, flops] : calibration->replaced_peaks) peak_flops[t] = flops;
    for (MemoryLevel& m : memory) {
      auto it = calibration->replaced_bandwidths.find(m.name);
      if (it != calibration->replaced_bandwidths.end()) m.bandwidth_Bps = it->second;
    }
    calibration.reset();
  }
  // `--efficiency none`: the datasheet roofline, without [efficiency] or [calibration].
  void drop_efficiency() {
    compute_efficiency = memory_efficiency = 1.0;
    compute_efficiency_by_dtype.clear();
    dequant_ops_per_weight = request_overhead_s = 0;
    compute_units = gemm_tile_rows = gemm_tile_cols = 0;
    efficiency_source.clear();
    if (conv_algorithms) conv_algorithms->bound_only();
    drop_calibration();
  }
  // `--efficiency none`: drop_efficiency, and a bound_only [conv_algorithms] rule applies,
  // so the datasheet roofline counts the fewest multiplies a convolution may run: a bound.
  void drop_to_bound() {
    if (!conv_algorithms && bound_conv_algorithms) conv_algorithms = bound_conv_algorithms;
    drop_efficiency();
  }
};

}  // namespace ridge
