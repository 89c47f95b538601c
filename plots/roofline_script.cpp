// The roofline plot's data file and plot command (see roofline_script.hpp).
#include "plots/roofline_script.hpp"

#include <set>
#include <sstream>

#include "plots/plot_text.hpp"
#include "sim/base/error.hpp"
#include "sim/views/layer_fields.hpp"

namespace ridge::plots::roofline {

// Texts at the figure's font size or (points > 0) at `points`.
void write_texts(DataFile& dat, const std::vector<Text>& texts, TextMarkup mk, double points) {
  for (const Text& t : texts)
    dat.out() << gp_number(t.x) << " " << gp_number(t.y) << " "
              << (points > 0 ? data_string(t.text, mk, points) : data_string(t.text, mk)) << " " << gp_number(t.angle) << " "
              << t.lt << "\n";
}

namespace {

// Print-safe: in an overlay each hardware's roof and DRAM diagonal has its own dash
// pattern, and its points their own marker shape, so that the devices are told apart in
// grayscale as well as by colour (the first hardware: solid lines, circles).
constexpr const char* kHardwareDashes[] = {"solid", "(8,4)", "(2,3)", "(8,3,2,3)"};
struct Marker {
  int filled, outline;  // gnuplot point types
};
constexpr Marker kHardwareMarkers[] = {{7, 6}, {9, 8}, {11, 10}, {15, 14}};  // circle, triangle, inverted triangle, pentagon
// Nearer memory levels are dashed; a parallel plan's links, each its own pattern (dotted
// scale-up, dash-dot scale-out), so that the key tells them apart in grayscale too.
constexpr const char* kLevelDash = "(5,4)";
constexpr const char* kLinkDashes[] = {"(1,3)", "(8,3,1,3)", "(12,4)"};

// The points block's columns: the layer schema's keys (sim/views/layer_fields), and the
// plot's own marker_size and layer_index between them. A key the schema lacks is a bug.
std::vector<std::string> point_columns(const RunResult& run) {
  const std::vector<std::string> columns = {"arithmetic_intensity", "roofline_attained_flops", "step_share", "marker_size",
                                            "time_s", "layer_index", "bound", "name"};
  std::set<std::string> keys;
  for (const auto& f : layer_fields(run)) keys.insert(f.key);
  for (const std::string& c : columns)
    if (c != "marker_size" && c != "layer_index" && !keys.count(c)) throw RunError("roofline plot: no field '" + c + "' in the layer schema");
  return columns;
}

}  // namespace

Blocks write_hardware(DataFile& dat, const RooflineRequest& req, const Scene& s, const Layout& L, size_t h, TextMarkup mk,
                      double line_points) {
  const HardwareSpec& hw = req.runs[h].hw;
  const RunResult& t = req.runs[h].timing;
  const Hardware& H = s.hw[h];
  std::string which = "hardware " + std::to_string(h + 1) + " of " + std::to_string(s.hw.size());
  Blocks b;
  b.run_roof = dat.begin_block(which + ": the roof of the run's dtype, x y (a segment)");
  for (const Roof& r : H.roofs)
    if (r.run) dat.out() << segment(r.x0, r.flops, r.x1, r.flops);
  b.other_roofs = dat.begin_block(which + ": roofs of the other dtypes, x y (segments)");
  for (const Roof& r : H.roofs)
    if (!r.run) dat.out() << segment(r.x0, r.flops, r.x1, r.flops);
  b.dram = dat.begin_block(which + ": DRAM diagonal (memory level 0), x y = bandwidth x intensity, up to the run's roof");
  const Diagonal& d0 = H.diags[0];
  dat.out() << segment(d0.x0, d0.bandwidth * d0.x0, d0.x1, d0.bandwidth * d0.x1);
  b.other_levels = dat.begin_block(which + ": diagonals of the nearer memory levels (and a parallel plan's links), x y (segments)");
  for (size_t m = 1; m < H.diags.size(); ++m) {
    const Diagonal& d = H.diags[m];
    dat.out() << segment(d.x0, d.bandwidth * d.x0, d.x1, d.bandwidth * d.x1);
  }
  b.ridges = dat.begin_block(which + ": ridge points at the run's dtype, one per memory level: x y level");
  const std::vector<double>& ridges = t.hardware->ridge_points;
  for (size_t m = 0; m < ridges.size(); ++m)
    dat.out() << gp_number(ridges[m]) << " " << gp_number(H.run_flops) << " " << m << "\n";
  const std::vector<std::string> columns = point_columns(t);
  std::string names;
  for (const std::string& c : columns) names += (names.empty() ? "" : " ") + c;
  b.points = dat.begin_block(which + ": layers: " + names + " (" + std::to_string(H.skipped) +
                             " layers without arithmetic or traffic left out; repeated blocks on one spot are one row " +
                             "named by their pattern, layer_index the first; y is the roofline position, launch time aside)");
  dat.out() << data_string(hardware_title(hw), mk);
  for (size_t c = 1; c < columns.size(); ++c) dat.out() << " " << data_string(columns[c], TextMarkup::plain);
  dat.out() << "\n";
  for (const Point& p : s.points) {
    if (p.run != h) continue;
    const bool layer = p.bound.empty();  // else a collective: no layer index (-1), its link bound
    dat.out() << gp_number(p.intensity) << " " << gp_number(p.attained) << " " << gp_number(p.share) << " " << gp_number(p.size)
              << " " << gp_number(p.time_s) << " " << (layer ? std::to_string(p.layers.front()) : "-1") << " "
              << data_string(layer ? t.layers[p.layers.front()].bound.label : p.bound, mk) << " "
              << data_string(p.layers.size() > 1 ? p.name + " x" + std::to_string(p.layers.size()) : p.name, mk) << "\n";
  }
  b.labels = dat.begin_block(which + ": roof, bandwidth and ridge labels: x y text angle linetype (centred)");
  write_texts(dat, L.line_labels[h], mk, line_points);
  b.drops = dat.begin_block(which + ": lines dropped from the labelled ridge points to the floor, x y (segments)");
  for (const Layout::Drop& d : L.drops)
    if (d.run == h) dat.out() << segment(d.x, d.y, d.x, L.frame.y_min);
  return b;
}

std::string margin_roof_script(const Layout& L, const PlotStyle& style) {
  std::ostringstream g;
  g << "# The roofs' labels, in the right margin (they hold no names from input files)\n";
  const Frame& f = L.frame;
  const Box area = f.plot_area();
  int n = 0;
  for (const MarginText& m : L.margin_labels) {
    std::string lt = std::to_string(m.run % kOkabeIto.size() + 1);
    g << "set label " << ++n << " " << gp_string(m.text, style.markup(), style.font_size * kLineFont) << " at screen "
      << gp_number((area.x1 + 0.12) / f.width_in) << ", screen " << gp_number(m.y_in / f.height_in) << " left font ',"
      << gp_number(style.font_size * kLineFont) << "' textcolor lt " << lt << "\n";
    g << "set arrow " << n << " from screen " << gp_number(area.x1 / f.width_in) << ", screen "
      << gp_number(m.roof_y_in / f.height_in) << " to screen " << gp_number((area.x1 + 0.1) / f.width_in) << ", screen "
      << gp_number(m.y_in / f.height_in) << " nohead lt " << lt << " lw 0.8\n";
  }
  return g.str();
}

std::string plot_command(const Scene& s, const Layout& L, const std::vector<Blocks>& blocks, int layer_block,
                         int leader_block, const std::vector<std::string>& key_texts, const PlotStyle& style) {
  std::vector<std::string> clauses;
  auto idx = [](int i) { return "data index " + std::to_string(i); };
  const size_t H = s.hw.size();
  for (size_t h = 0; h < H; ++h) {
    const Blocks& b = blocks[h];
    std::string lt = "lt " + std::to_string(h % kOkabeIto.size() + 1);
    const std::string dt = std::string(" dt ") + kHardwareDashes[h % std::size(kHardwareDashes)];
    clauses.push_back(idx(b.run_roof) + " using 1:2 with lines " + lt + " lw 2.5" + dt + " notitle");
    if (s.hw[h].roofs.size() > 1)
      clauses.push_back(idx(b.other_roofs) + " using 1:2 with lines " + lt + " lw 0.8 dt (4,4) lc rgb '#A0" +
                        style.series_colour(h).substr(1) + "' notitle");
    clauses.push_back(idx(b.dram) + " using 1:2 with lines " + lt + " lw 2.5" + dt + " notitle");
    // the other_levels block's segments: the nearer memory levels, then the links (`every :::k::k` picks segment k)
    const std::vector<Diagonal>& diags = s.hw[h].diags;
    size_t links = 0;
    for (size_t k = 1; k < diags.size(); ++k) {
      const std::string one = " every :::" + std::to_string(k - 1) + "::" + std::to_string(k - 1);
      const char* dash = diags[k].link ? kLinkDashes[links++ % std::size(kLinkDashes)] : kLevelDash;
      clauses.push_back(idx(b.other_levels) + one + " using 1:2 with lines " + lt + " lw " + (diags[k].link ? "1.2" : "1") +
                        " dt " + dash + " notitle");
    }
  }
  for (size_t h = 0; h < H; ++h) {
    const Blocks& b = blocks[h];
    std::string lt = "lt " + std::to_string(h % kOkabeIto.size() + 1);
    std::string rgb = style.series_colour(h);
    const Marker& mark = kHardwareMarkers[h % std::size(kHardwareMarkers)];
    // Filled translucent markers (#AARRGGBB: alpha 0x70) with an outline in the same colour;
    // launch-bound layers (column 7 "overhead") as squares, at their roofline position.
    const std::string circle = "(strcol(7) eq 'overhead' ? NaN : $2)", square = "(strcol(7) eq 'overhead' ? $2 : NaN)";
    clauses.push_back(idx(b.points) + " using 1:" + circle + ":($4*marker) with points pt " + std::to_string(mark.filled) +
                      " ps variable lc rgb '#70" + rgb.substr(1) + "' notitle");
    clauses.push_back(idx(b.points) + " using 1:" + circle + ":($4*marker) with points pt " + std::to_string(mark.outline) +
                      " ps variable " + lt + " lw 0.8 notitle");
    if (s.launch_bound)
      clauses.push_back(idx(b.points) + " using 1:" + square + ":($4*marker) with points pt 4 ps variable " + lt + " lw 1.2 notitle");
    clauses.push_back(idx(b.drops) + " using 1:2 with lines " + lt + " lw 0.6 dt (2,3) notitle");
    clauses.push_back(idx(b.ridges) + " using 1:2 with points pt 13 ps 1.1*marker " + lt + " notitle");
    clauses.push_back(idx(b.ridges) + " using 1:2 with points pt 12 ps 1.1*marker lc rgb '#222222' lw 0.8 notitle");
  }
  // The key: the roof of one hardware where it has no label in the plot (and its DRAM
  // diagonal, in the same entry or one of its own, see Scene::dram_key), each hardware
  // (several only) with its bandwidths, then the marker note.
  if (!s.roof_key.empty()) clauses.push_back("keyentry with lines lt 1 lw 2.5 title " + gp_string(s.roof_key, style.markup()));
  if (!s.dram_key.empty() && s.roof_key.empty()) clauses.push_back("keyentry with lines lt 1 lw 2.5 title " + gp_string(s.dram_key, style.markup()));
  for (size_t h = 0; h < H && H > 1; ++h)
    clauses.push_back("keyentry with linespoints pt " + std::to_string(kHardwareMarkers[h % std::size(kHardwareMarkers)].filled) +
                      " ps 0.8*marker lt " + std::to_string(h % kOkabeIto.size() + 1) + " lw 2.5 dt " +
                      kHardwareDashes[h % std::size(kHardwareDashes)] + " title " + gp_string(key_texts[h], style.markup()));
  clauses.push_back("keyentry with points pt 6 ps 1.4*marker lc rgb '#555555' title 'marker area: time share'");
  if (s.launch_bound)
    clauses.push_back("keyentry with points pt 4 ps 1.4*marker lc rgb '#555555' lw 1.2 title " +
                      gp_string(kLaunchBoundKey, style.markup()));
  for (size_t j = 0; j < s.link_keys.size(); ++j)
    clauses.push_back("keyentry with lines lt 1 lw 1.2 dt " + std::string(kLinkDashes[j % std::size(kLinkDashes)]) + " title " +
                      gp_string(s.link_keys[j], style.markup()));
  const std::string line_font = " font '," + gp_number(style.font_size * kLineFont) + "'";
  for (size_t h = 0; h < H; ++h) {
    std::string tc = " tc lt " + std::to_string(h % kOkabeIto.size() + 1) + " notitle";
    if (!L.line_labels[h].empty())
      clauses.push_back(idx(blocks[h].labels) + " using 1:2:3:4 with labels center rotate variable" + line_font + tc);
  }
  if (!L.leaders.empty()) clauses.push_back(idx(leader_block) + " using 1:2 with lines lc rgb '#777777' lw 0.7 notitle");
  // Layer labels in near-black; with several hardware, in their hardware's colour.
  const std::string layer_tc = H > 1 ? "using 1:2:3:5 with labels left tc variable" : "using 1:2:3 with labels left tc rgb '#222222'";
  if (!L.layer_labels.empty()) clauses.push_back(idx(layer_block) + " " + layer_tc + " notitle");
  std::ostringstream p;
  p << "# Per hardware N (colour N, dash pattern N, marker shape N): roofs (the run's dtype\n"
       "# heavy, other dtypes light and dashed), diagonals up to the run's roof (DRAM heavy,\n"
       "# nearer levels thin and dashed), ridge points, layers, then the labels.\n"
       "plot \\\n";
  for (size_t i = 0; i < clauses.size(); ++i) p << "    " << clauses[i] << (i + 1 < clauses.size() ? ", \\\n" : "\n");
  return p.str();
}

}  // namespace ridge::plots::roofline
