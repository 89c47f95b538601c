// What every `ridge plot KIND` shares: the output options (--output, --size, --style,
// --dpi, --font, --font-size), the target they name, timing a model on each --hw, and
// rendering a plot with its notes printed.
#pragma once

#include <string>
#include <vector>

#include "plots/gnuplot_runner.hpp"
#include "plots/plot_style.hpp"
#include "plots/roofline_plot.hpp"
#include "sim/cli/run_options.hpp"

namespace ridge::cli {

struct PlotOptionValues {
  std::string output;
  std::string size;
  std::string style;
  boost::optional<double> dpi;  // not given: the style's
  std::string font;
  boost::optional<double> font_size;
  bool grayscale = false;
  bool no_title = false;
};

po::options_description plot_option_group(PlotOptionValues& v);

// The folder and stem of --output ("out/fig.png" -> "out", "fig"), and the style.
struct PlotTarget {
  std::string folder, stem;
  plots::PlotStyle style;
};
PlotTarget plot_target(const PlotOptionValues& v);

// The model timed on every --hw at the run's settings.
std::vector<plots::TimedHardware> time_on_hardware(const Model& model, const RunSettings& settings,
                                                   const HardwareOptionValues& v);

// Renders the bundle into the target's folder and prints its notes ("note: ...") on stderr.
int render_plot(const plots::PlotBundle& bundle, const PlotTarget& target);

}  // namespace ridge::cli
