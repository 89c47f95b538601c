// Figure geometry and greedy label placement (see label_layout.hpp).
#include "plots/label_layout.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "plots/gnuplot_text.hpp"

namespace ridge::plots {

namespace {
double axis_pos(double v, double lo, double hi, bool log) {
  return log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
}
double axis_value(double t, double lo, double hi, bool log) {
  return log ? std::pow(10.0, std::log10(lo) + t * (std::log10(hi) - std::log10(lo))) : lo + t * (hi - lo);
}
}  // namespace

double Frame::to_in_x(double x) const {
  Box a = plot_area();
  return a.x0 + axis_pos(x, x_min, x_max, log_x) * (a.x1 - a.x0);
}
double Frame::to_in_y(double y) const {
  Box a = plot_area();
  return a.y0 + axis_pos(y, y_min, y_max, log_y) * (a.y1 - a.y0);
}
double Frame::from_in_x(double in) const {
  Box a = plot_area();
  return axis_value((in - a.x0) / (a.x1 - a.x0), x_min, x_max, log_x);
}
double Frame::from_in_y(double in) const {
  Box a = plot_area();
  return axis_value((in - a.y0) / (a.y1 - a.y0), y_min, y_max, log_y);
}

double Frame::slope_angle_deg() const {
  Box a = plot_area();
  double per_decade_x = (a.x1 - a.x0) / (std::log10(x_max) - std::log10(x_min));
  double per_decade_y = (a.y1 - a.y0) / (std::log10(y_max) - std::log10(y_min));
  return std::atan2(per_decade_y, per_decade_x) * 180.0 / M_PI;
}

std::string Frame::gnuplot_margins() const {
  std::ostringstream g;
  g << "# The plot area and ranges are fixed: ridge placed the labels for exactly this\n"
       "# frame. Changing the size is fine; changing ranges or margins may move data\n"
       "# under labels.\n";
  g << "set lmargin at screen " << gp_number(left_in / width_in) << "\n";
  g << "set rmargin at screen " << gp_number(1 - right_in / width_in) << "\n";
  g << "set bmargin at screen " << gp_number(bottom_in / height_in) << "\n";
  g << "set tmargin at screen " << gp_number(1 - top_in / height_in) << "\n";
  g << "set xrange [" << gp_number(x_min) << ":" << gp_number(x_max) << "]\n";
  g << "set yrange [" << gp_number(y_min) << ":" << gp_number(y_max) << "]\n";
  return g.str();
}

void LabelPlacer::block_segment(double ax, double ay, double bx, double by, double thickness, int owner) {
  double len = std::hypot(bx - ax, by - ay);
  int n = std::max(1, static_cast<int>(std::ceil(len / thickness)));
  for (int i = 0; i <= n; ++i) {
    double t = static_cast<double>(i) / n;
    double x = ax + t * (bx - ax), y = ay + t * (by - ay);
    taken_.push_back({x - thickness / 2, y - thickness / 2, x + thickness / 2, y + thickness / 2});
    lines_.push_back({taken_.back(), owner});
  }
}

std::vector<Box> LabelPlacer::rotated_text(double cx, double cy, double w, double h, double angle_deg) {
  double a = angle_deg * M_PI / 180.0;
  double ux = std::cos(a), uy = std::sin(a);
  // Squares overlapping along its baseline, a little smaller than the text's height
  // (0.9 of it level or upright, 0.75 at 45 degrees, where a square's corner reaches
  // further across the slanted line): together they cover the turned text without
  // reaching far past its sides.
  double side = h * std::max(0.75, 0.9 / (std::fabs(ux) + std::fabs(uy)));
  int n = std::max(1, static_cast<int>(std::ceil(2 * w / h)));
  std::vector<Box> out;
  for (int i = 0; i < n; ++i) {
    double s = -w / 2 + side / 2 + i * (w - side) / std::max(1, n - 1);
    double x = cx + s * ux, y = cy + s * uy;
    out.push_back({x - side / 2, y - side / 2, x + side / 2, y + side / 2});
  }
  return out;
}

bool LabelPlacer::fits(const std::vector<Box>& boxes) const {
  for (const Box& b : boxes) {
    if (!b.inside(area_)) return false;
    for (const Box& t : taken_)
      if (b.overlaps(t)) return false;
  }
  return true;
}

// The widest line's boxes reach 0.025 in from its middle: a leader leaving its marker
// within that (and a little) of it is still on the marker's own line.
constexpr double kLineClearanceIn = 0.04;

// Sampled every 0.01 in. Markers that hold a (the leader's own, and any it overlaps)
// do not count, nor the lines' boxes within a line's width of its own marker: a point
// on a roof or diagonal sits on that line, and the leader leaves it there.
bool LabelPlacer::crosses(double ax, double ay, double r, int owner, double bx, double by) const {
  auto holds = [](const Box& b, double x, double y) { return x > b.x0 && x < b.x1 && y > b.y0 && y < b.y1; };
  std::vector<const Box*> others;
  for (const Box& m : markers_)
    if (!holds(m, ax, ay)) others.push_back(&m);
  const int n = std::max(1, static_cast<int>(std::ceil(std::hypot(bx - ax, by - ay) / 0.01)));
  for (int i = 0; i <= n; ++i) {
    double t = static_cast<double>(i) / n, x = ax + t * (bx - ax), y = ay + t * (by - ay);
    for (const auto& label : labels_)
      for (const Box& b : label)
        if (holds(b, x, y)) return true;
    for (const Box* m : others)
      if (holds(*m, x, y)) return true;
    if (std::hypot(x - ax, y - ay) > r + kLineClearanceIn)
      for (const LineBox& l : lines_)
        if ((l.owner == kEveryOwner || l.owner != owner) && holds(l.box, x, y)) return true;
  }
  return false;
}

std::optional<LabelPlacer::Spot> LabelPlacer::place_near(double x, double y, double r, double w, double h, int owner,
                                                         double prefer_x, double prefer_y) {
  // Sixteen directions: the eight main ones (right, left, the diagonals, above, below)
  // and those between them; nearest the preferred direction first.
  std::vector<std::array<double, 2>> dirs = {{1, 0},       {-1, 0},       {0.71, 0.71},  {-0.71, 0.71},
                                             {0.71, -0.71}, {-0.71, -0.71}, {0, 1},        {0, -1},
                                             {0.92, 0.38},  {-0.92, 0.38},  {0.92, -0.38}, {-0.92, -0.38},
                                             {0.38, 0.92},  {-0.38, 0.92},  {0.38, -0.92}, {-0.38, -0.92}};
  std::stable_sort(dirs.begin(), dirs.end(), [&](const auto& a, const auto& b) {
    return a[0] * prefer_x + a[1] * prefer_y > b[0] * prefer_x + b[1] * prefer_y + 1e-9;
  });
  const double gap = h * 0.25;
  const double reach = std::hypot(area_.x1 - area_.x0, area_.y1 - area_.y0);
  for (int ring = 0;; ++ring) {
    double d = r + gap + ring * h * 0.8;
    if (d > reach) break;
    for (const auto& dir : dirs) {
      double ax = x + dir[0] * d, ay = y + dir[1] * d;  // the box's nearest point to the marker
      Box b;
      b.x0 = dir[0] > 0.1 ? ax : (dir[0] < -0.1 ? ax - w : ax - w / 2);
      b.y0 = dir[1] > 0.1 ? ay : (dir[1] < -0.1 ? ay - h : ay - h / 2);
      // Slid back inside the area when it sticks out (a long name by a marker near an edge).
      b.x0 = std::max(area_.x0, std::min(b.x0, area_.x1 - w));
      b.y0 = std::max(area_.y0, std::min(b.y0, area_.y1 - h));
      b.x1 = b.x0 + w;
      b.y1 = b.y0 + h;
      if (!fits({b})) continue;
      // The leader runs from the marker to the box's nearest point; a label no further
      // than the first ring around the marker sits next to it and needs none, but neither
      // is across another owner's line from it.
      const double tx = std::clamp(x, b.x0, b.x1), ty = std::clamp(y, b.y0, b.y1);
      const bool leader = std::hypot(tx - x, ty - y) > r + gap + h * 0.8 + 1e-9;
      if (ring > 0 && crosses(x, y, r, owner, tx, ty)) continue;
      take({b});
      if (leader) block_segment(x, y, tx, ty, 0.02);
      return Spot{b, leader};
    }
  }
  return std::nullopt;
}

}  // namespace ridge::plots
