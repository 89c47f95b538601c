// Where a plot's text goes: the figure's geometry (margins and axis ranges, fixed in
// the script so that ridge knows where every data point lands, in inches) and a
// greedy label placer that keeps labels off each other, off the plotted lines and
// points, and inside the plot area, trying positions nearest first. No label is ever
// set over a line or a point (in an opaque box): one with no free spot is left out.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ridge::plots {

// An axis-aligned box in inches from the figure's lower-left corner.
struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
  bool inside(const Box& o) const { return x0 >= o.x0 && x1 <= o.x1 && y0 >= o.y0 && y1 <= o.y1; }
};

// The figure: its size, the plot area's margins (inches) and the axis ranges. Log
// axes map log10 of the value linearly.
struct Frame {
  double width_in = 6, height_in = 4;
  double left_in = 0.8, right_in = 0.2, bottom_in = 0.6, top_in = 0.4;
  double x_min = 1, x_max = 10, y_min = 1, y_max = 10;
  bool log_x = true, log_y = true;

  Box plot_area() const { return {left_in, bottom_in, width_in - right_in, height_in - top_in}; }
  double to_in_x(double x) const;
  double to_in_y(double y) const;
  double from_in_x(double in) const;
  double from_in_y(double in) const;
  // Inches per decade (log axes): the on-page slope of a line y ~ x^1 is their ratio.
  double slope_angle_deg() const;
  // `set lmargin at screen ...` etc. and the ranges, for the script.
  std::string gnuplot_margins() const;
};

class LabelPlacer {
 public:
  explicit LabelPlacer(Box area) : area_(area) {}
  void block(const Box& b) { taken_.push_back(b); }
  // A marker (a point's, a ridge point's): an obstacle that leaders keep off too.
  void block_marker(const Box& b) {
    taken_.push_back(b);
    markers_.push_back(b);
  }
  // A line segment (inches) as obstacles: small boxes `thickness` wide along it, which
  // labels keep off, and leaders from the points of other `owner`s (in an overlay, the
  // hardware whose roof or diagonal it is); kEveryOwner's (a leader's), every leader.
  static constexpr int kEveryOwner = -1;
  void block_segment(double ax, double ay, double bx, double by, double thickness, int owner = kEveryOwner);
  // Text `w` x `h` centred at (cx, cy) and turned by `angle_deg`, as boxes along it.
  static std::vector<Box> rotated_text(double cx, double cy, double w, double h, double angle_deg);
  // Inside the area and clear of everything: lines, markers and other labels.
  bool fits(const std::vector<Box>& boxes) const;
  // Marks a label's boxes as taken.
  void take(const std::vector<Box>& boxes) {
    taken_.insert(taken_.end(), boxes.begin(), boxes.end());
    labels_.push_back(boxes);
  }
  const Box& area() const { return area_; }
  // Every label taken so far, each as the boxes that cover it.
  const std::vector<std::vector<Box>>& labels() const { return labels_; }

  struct Spot {
    Box box;
    bool leader = false;  // placed away from its marker: draw a line to it
  };
  // A w x h label for a marker of radius `r` at (x, y): tries directions around it at
  // growing distances up to the plot area's diagonal, clear of lines, markers and
  // labels. The label is not across another `owner`'s line from its point (in an
  // overlay, another device's roof or diagonal: it would read as a point of that
  // device), nor across a leader; one further away than the first ring around the
  // marker (where it sits next to it) gets a leader line, which crosses no other label
  // nor marker either, and which later labels and leaders keep off. Nothing when no
  // spot is free. Directions nearest (`prefer_x`, `prefer_y`) are tried first (default: right).
  std::optional<Spot> place_near(double x, double y, double r, double w, double h, int owner, double prefer_x = 1,
                                 double prefer_y = 0);

 private:
  // Whether the segment from a (the centre of its own marker, radius r) to b passes
  // through a line not `owner`'s, a label or another marker.
  bool crosses(double ax, double ay, double r, int owner, double bx, double by) const;
  Box area_;
  std::vector<Box> markers_;
  struct LineBox {
    Box box;
    int owner;
  };
  std::vector<LineBox> lines_;            // the boxes along the lines (also in taken_)
  std::vector<Box> taken_;                // obstacles and labels
  std::vector<std::vector<Box>> labels_;  // labels only, one entry per label
};

}  // namespace ridge::plots
