// What a roofline plot draws, before any geometry: per hardware its roofs (one per
// distinct achievable peak) and memory diagonals, and the model's layers as points
// (repeated blocks on one spot grouped), with a parallel plan its link diagonals and
// collectives as points, with the ranges they span; and the key's
// text naming each hardware of an overlay. Used by roofline_layout and roofline_script.
#pragma once

#include <string>
#include <vector>

#include "plots/collective_name.hpp"
#include "plots/plot_style.hpp"
#include "plots/plot_text.hpp"
#include "plots/roofline_plot.hpp"

namespace ridge::plots::roofline {

struct Roof {
  double flops;                 // achievable FLOP/s
  std::vector<DType> dtypes;    // sharing this peak
  bool run = false;             // includes the run's dtype
  std::string label;
  double x0 = 0, x1 = 0;        // extent
  std::string short_label;      // the run's dtype alone: "bf16 230 TFLOP/s" (for "fp16/bf16 230 TFLOP/s")
};

struct Diagonal {
  double bandwidth;             // achievable B/s
  std::string label;
  double x0 = 0, x1 = 0;        // from the frame's floor to the run's roof
  std::string short_label = label;  // a network link's where its name finds no room: "scale-up 234 GB/s"
  bool link = false;            // a parallel plan's network link (its own dash pattern), not a memory level
};

// A marker: one layer, or (grouped) the layers of repeated blocks that sit on one spot.
struct Point {
  size_t run;
  std::vector<size_t> layers;   // first: the representative
  std::string name;             // the layer's name, or the group's pattern ("encoder.*.ffn")
  double intensity, attained, share, time_s, size;
  double r_in = 0;              // marker radius, inches
  bool launch_bound = false;    // the Result's bound is `overhead`: kernel launches take most of its time
  std::string bound;            // a collective's ("link:scale_up"); empty for a layer (its Result's)
  // The name's last part ("ffn"); a collective's group, operation and pass ("tp AG bwd").
  std::string short_name() const {
    return is_collective_name(name) ? collective_without_link(name, true) : name.substr(name.find_last_of("./") + 1);
  }
  // "encoder.*.ffn ×12, 19%"; short: "ffn ×12, 19%" (see short_name).
  std::string label(bool short_form = false) const {
    const std::string shown = short_form ? short_name() : name;
    return shown + (layers.size() > 1 ? " \u00d7" + std::to_string(layers.size()) + "," : "") + " " + percent_label(share);
  }
};

struct Hardware {
  std::vector<Roof> roofs;
  std::vector<Diagonal> diags;  // per memory level, DRAM first; then a parallel plan's network links
  double run_flops = 0;         // the run's dtype roof
  size_t skipped = 0;           // layers without arithmetic or traffic
};

struct Scene {
  std::vector<Hardware> hw;
  std::vector<Point> points;
  bool launch_bound = false;  // some point is launch-bound: the key explains its marker
  std::vector<std::string> link_keys;  // a parallel plan's links, named in the key: "scale-up: NVLink 3 / NVSwitch 234 GB/s"
  double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_hi = 0;
  double run_roofs_hi = 0;  // the highest roof of the run's dtype
  // One hardware whose run roof has no room for its label in the plot: the key names it
  // ("roof: bf16 230 TFLOP/s"); empty otherwise.
  std::string roof_key;
  // One hardware whose DRAM diagonal has no room for its label by the line (between the
  // L2 and link diagonals of a parallel plan in a column): the key names it with the
  // thick line it shares with the roof ("HBM2e 1.29 TB/s"; with the roof_key, in its
  // entry), and the plot leaves it unlabelled; empty otherwise.
  std::string dram_key;
};

// The key's entry for launch-bound layers' square markers.
inline constexpr const char* kLaunchBoundKey = "launch-bound (launches aside)";

std::string hardware_title(const HardwareSpec& hw);

// Roofs, diagonals and points of every run; ranges of the data (not yet the frame's).
// Throws RunError when a hardware has no peak for the run's dtype or no memory level.
Scene scene_of(const RooflineRequest& req);

// With several hardware, a key entry names each one's bandwidths and DRAM ridge point:
// "NVIDIA V100: HBM2 900 GB/s, L2 2.15 TB/s; ridge 17.4 FLOP/B".
std::string hardware_key(const TimedHardware& run, const Hardware& H);
// The short form, with the run's roof (then not labelled in the plot) and the DRAM
// bandwidth, whose quotient is the ridge point: "v100: 15.7 TFLOP/s, 900 GB/s".
std::string short_hardware_key(const TimedHardware& run, const Hardware& H);
// Whether a key entry fits the figure's width.
bool key_entry_fits(const PlotStyle& style, const std::string& text);

}  // namespace ridge::plots::roofline
