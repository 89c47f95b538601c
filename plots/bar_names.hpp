// A per-layer chart's bar names shortened to the room beside the bars, keeping both
// ends readable: a layer's block and last parts ("encoder.layer.11…output.dense"), a
// collective's short words or acronyms ("tp AG bwd (scale-up)").
#pragma once

#include <string>

#include "plots/plot_style.hpp"

namespace ridge::plots {

// A bar's name shortened to `max_in` where it is wider. A collective's: in short words
// ("tp all-gather bwd (scale-up)"), else with acronyms ("tp AG bwd (scale-up)"), else
// that with whole words out of its middle, else with letters out of it. A layer's: its
// block and last parts ("encoder.layer.11...output.dense"), else its last parts
// ("...output.dense"), else its middle left out. The .dat file keeps the full name.
std::string fitted_name(const PlotStyle& style, const std::string& name, double max_in);

}  // namespace ridge::plots
