// The energy of a step: static (idle) power x time, plus the active floor a busy device draws
// beyond idle whatever it computes (clocks raised, SMs, caches and on-chip network awake:
// a fitted fraction of the board's headroom above idle, kActiveFloorFraction) for the part
// of the step it is busy, not the part it waits on kernel launches, plus dynamic
// energy per FLOP by dtype and per byte at each memory level, capped at the device's most
// power x time (the board power a GPU's power limit enforces, a host's CPU + DRAM power).
// The fit and its held-out checks are in docs/accuracy-cost.md. The per-operation
// energies are published figures for a 45 nm process (Horowitz, "Computing's energy
// problem", ISSCC 2014) scaled to the device's node, and per-bit DRAM energies by memory
// technology (O'Connor et al., "Fine-Grained DRAM", MICRO 2017; Horowitz 2014 for DDR):
// estimates, listed with their sources in energy_model.cpp and docs/guide/choosing-hardware.md.
#pragma once

#include <vector>

#include "hw/hardware_spec.hpp"
#include "sim/workload/dtype.hpp"

namespace ridge {

// Joules per FLOP of `dtype` on a `process_nm` node (an FMA counts 2 FLOPs).
double energy_per_flop_J(DType dtype, double process_nm);
// Joules per byte served by memory level `level` of `hw` (level 0 is the device DRAM,
// priced by its technology name; nearer levels are on-chip SRAM, scaled to the node).
double energy_per_byte_J(const HardwareSpec& hw, size_t level);

// The share of (most power - idle power) a busy device draws on top of idle before its
// arithmetic and memory traffic are counted, while it is busy. Fitted once, to ML.ENERGY
// Benchmark v3.0's H100 decode of Llama-3.1-8B under vLLM at batch 8 (486 W average); see
// energy_model.cpp and docs/accuracy-cost.md.
extern const double kActiveFloorFraction;

struct StepEnergy {
  double static_J = 0;   // idle power x time
  double active_J = 0;   // kActiveFloorFraction x (most power - idle power) x (time - waiting)
  double compute_J = 0;  // FLOPs x energy per FLOP
  double memory_J = 0;   // bytes per level x energy per byte, summed over levels
  double total_J = 0;    // static + active + compute + memory, at most max power x time
  bool capped = false;   // the sum was above max power x time
  double average_power_w = 0;  // total / time
};

// Whether `hw` gives what the model needs: idle power, most power and a process node.
bool has_energy_model(const HardwareSpec& hw);
// The energy of a step of `time_s` doing `flops` at `dtype` and moving `level_bytes[k]` at
// memory level k, of which `waiting_s` (at most time_s) the device spends waiting on kernel
// launches: idle power only then, the SMs having nothing to issue and no traffic (Chung et
// al., "Where Do the Joules Go?", arXiv 2601.22076, 2026: a GPU waiting on the CPU burns
// static power). `hw` must have an energy model (has_energy_model).
StepEnergy step_energy(const HardwareSpec& hw, DType dtype, double flops, const std::vector<double>& level_bytes,
                       double time_s, double waiting_s);

}  // namespace ridge
