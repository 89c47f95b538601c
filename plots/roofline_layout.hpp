// Where a roofline plot's frame and labels go, in inches: the frame (decades around the
// roofs and points, margins for ticks, the header band and maybe the roofs' labels),
// then every roof, bandwidth, ridge and layer label (roofline_labels), trying the roof
// labels inside the plot, then in the right margin, then the run's roof only.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plots/label_layout.hpp"
#include "plots/roofline_scene.hpp"

namespace ridge::plots::roofline {

// Roof, bandwidth and ridge labels are set at this fraction of the font size.
inline constexpr double kLineFont = 0.9;

struct Text {
  double x, y, angle;  // data coordinates: the text's centre (layer labels: its left edge)
  std::string text;
  size_t lt = 1;       // gnuplot linetype of its colour: its hardware's
};

struct MarginText {
  size_t run;
  double roof_y_in, y_in;  // the roof's height and the label's, inches from the bottom
  std::string text;
};

// Where the roofs' labels go, tried in this order: inside by their roofs; in the right
// margin; then, for a small figure, the run's dtype's only (the other roofs are drawn,
// unlabelled), inside or in the margin. An overlay in a narrow figure (a journal
// column) names each hardware's run roof in its key entry instead (`key`), and so does
// one hardware's figure where no label by the roof fits (a parallel plan's link
// diagonals and collectives crowding a column).
enum class RoofLabels { inside, margin, inside_run_only, margin_run_only, key };
inline bool run_only(RoofLabels m) { return m == RoofLabels::inside_run_only || m == RoofLabels::margin_run_only; }
inline bool in_margin(RoofLabels m) { return m == RoofLabels::margin || m == RoofLabels::margin_run_only; }

struct Layout {
  Frame frame;
  RoofLabels roof_labels = RoofLabels::inside;
  bool margin_roofs = false;
  std::vector<std::vector<Text>> line_labels;  // per hardware: roof, bandwidth and ridge labels
  std::vector<MarginText> margin_labels;       // roof labels in the right margin
  std::vector<Text> layer_labels;
  struct Drop {
    size_t run;
    double x, y;  // a ridge point: a line drops from it to the floor
  };
  std::vector<Drop> drops;
  size_t layers_wanted = 0;
  std::vector<std::string> dropped;  // bandwidth and ridge labels that found no free spot
  bool other_roofs_hidden = false;   // the other dtypes' roofs are not drawn (nothing names them)
  std::string leaders;
  RooflineGeometry geometry;
};

// The y axis's unit: FLOP/s with one SI prefix for the whole axis, so that its ticks are
// short numbers (0.1 ... 1000 TFLOP/s) and the plot area keeps the width that
// "100 TFLOP/s" on every tick would take; where no prefix keeps the ticks within
// 0.01 ... 10000 (else 0.001 or 0.0001 ... 10000), `scale` is 0 and each tick carries its
// own prefix.
struct YUnit {
  double scale = 0;
  std::string name = "FLOP/s";
};
YUnit y_unit(double y_min, double y_max);
// The y ticks' labels on decades from y_min to y_max, in `u`.
std::vector<std::pair<double, std::string>> y_tick_labels(double y_min, double y_max, const YUnit& u);

// Two points as a gnuplot data block of one segment (a blank line after it).
std::string segment(double x0, double y0, double x1, double y1);

// The layout for `style`, the title and key taking `header_top_in` above the plot:
// first with the roofs' labels inside the plot, by their roofs; when any does not fit
// (several hardware, crowded roofs), again with all of them in the right margin.
// Sets the lines' extents in `s` to the chosen frame. Nothing where no try fits (the
// caller then names the roof in the key, or gives up).
std::optional<Layout> layout_of(const RooflineRequest& req, const PlotStyle& style, Scene& s, double header_top_in, bool roofs_in_key);

}  // namespace ridge::plots::roofline
