// What every fuzz target does with input its reader accepted: run the engine on it
// (costs at inference and in training, one timing per hardware model, the memory
// footprint and its fit on the device) and check that every reported time is a finite,
// non-negative number. A reader's InputError is the expected answer to bad input; any
// other exception, a sanitizer report or a non-finite time is a finding (abort).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "hw/descriptor_reader.hpp"
#include "hw/hardware_model.hpp"
#include "hw/model_registry.hpp"
#include "sim/base/error.hpp"
#include "sim/engine/device_fit.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/workload/layer_work.hpp"
#include "sim/workload/memory_footprint.hpp"
#include "sim/workload/model.hpp"
#include "sim/workload/model_reader.hpp"

namespace ridge_fuzz {

[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

inline void check_time(double t, const char* what) {
  if (!std::isfinite(t) || t < 0) finding(std::string(what) + " is " + std::to_string(t));
}

// DESIGN.md's worked-example chip (tests/data/chip120.toml) with a host link and an L2,
// so that every timing term has something to do.
inline constexpr const char* kReferenceChipToml =
    "name = \"chip\"\nkind = \"gpu\"\nsource = \"fuzz\"\n[compute]\nfp32 = \"120 TFLOPS\"\nfp16 = \"240 TFLOPS\"\n"
    "[[memory]]\nname = \"HBM2\"\ncapacity = \"16 GiB\"\nbandwidth = \"900 GB/s\"\n"
    "[[memory]]\nname = \"L2\"\ncapacity = \"6 MiB\"\nbandwidth = \"3 TB/s\"\n"
    "[link]\nname = \"PCIe\"\nbandwidth = \"16 GB/s\"\n[overhead]\nkernel_launch = \"5 us\"\n";

inline const ridge::HardwareSpec& reference_chip() {
  static const ridge::HardwareSpec spec = ridge::HardwareDescriptor::from_text(kReferenceChipToml, "chip.toml", "chip").spec({});
  return spec;
}

// A small model with every stream in use (conv, pooling, linear, residual add).
inline const ridge::Model& reference_model() {
  static const ridge::Model model = ridge::read_model_string(
      "name = \"m\"\n[input]\nshape = [3, 16, 16]\n"
      "[[layer]]\nname = \"c\"\nop = \"conv2d\"\nout_channels = 8\nkernel = 3\npadding = 1\n"
      "[[layer]]\nname = \"r\"\nop = \"relu\"\n"
      "[[layer]]\nname = \"a\"\nop = \"add\"\ninputs = [\"r\", \"c\"]\n"
      "[[layer]]\nname = \"p\"\nop = \"max_pool2d\"\nkernel = 2\n"
      "[[layer]]\nname = \"f\"\nop = \"flatten\"\n"
      "[[layer]]\nname = \"fc\"\nop = \"linear\"\nout_features = 10\n",
      "m.toml");
  return model;
}

// Costs, timing on every hardware model and memory for one (model, hardware) pair. An
// InputError is an accepted answer (a batch whose counts overflow, a dtype the chip lacks).
inline void exercise(const ridge::Model& model, const ridge::HardwareSpec& hw) {
  using namespace ridge;
  for (Phase phase : {Phase::inference, Phase::training}) {
    RunSettings s;
    s.phase = phase;
    s.data_on = hw.link ? DataPlacement::host : DataPlacement::device;
    try {
      CostAnalysis costs = analyze_costs(model, s);
      LayerWorkArrays work = to_arrays(layer_work(model, costs));
      for (const HardwareModel* m : hardware_models()) {
        LayerTimingArrays out;
        TimingSums sums = m->time_layers(work, hw, s.dtype, out);
        check_time(sums.time_s, "a step time");
        for (Eigen::Index i = 0; i < out.time_s.size(); ++i) check_time(out.time_s[i], "a layer time");
      }
      MemoryFootprint fp = memory_footprint(model, s, CheckpointPolicy{});
      if (fp.peak_bytes() < 0) finding("a negative peak");
      fit_on_device(model, fp, hw, select_hardware_model(hw, ""), 0.05);
    } catch (const InputError&) {
    }
  }
}

// Runs `body`; an InputError is the reader's answer, anything else a finding.
template <typename F>
void guarded(F&& body) {
  try {
    body();
  } catch (const ridge::InputError&) {
  } catch (const std::exception& e) {
    finding(std::string("uncaught exception: ") + e.what());
  }
}

}  // namespace ridge_fuzz
