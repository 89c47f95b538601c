// The per-layer time plot (see layers_plot.hpp): the frame the bars (layer_bars) and
// their names (bar_names) need, the key, the data file and the script.
#include "plots/layers_plot.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "plots/axis_ticks.hpp"
#include "plots/bar_names.hpp"
#include "plots/data_file.hpp"
#include "plots/figure_key.hpp"
#include "plots/label_layout.hpp"
#include "plots/layer_bars.hpp"
#include "plots/plot_text.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

LayerGrouping parse_layer_grouping(const std::string& text) {
  if (text == "auto") return LayerGrouping::automatic;
  if (text == "none") return LayerGrouping::none;
  if (text == "block") return LayerGrouping::block;
  if (text == "op") return LayerGrouping::op;
  throw InputError({}, "--group: unknown grouping (got '" + text + "')", "use --group auto, none, block or op");
}

std::string block_of(const std::string& layer_name) {
  size_t start = 0;
  while (start <= layer_name.size()) {
    size_t dot = layer_name.find('.', start);
    size_t end = dot == std::string::npos ? layer_name.size() : dot;
    bool digits = end > start && std::all_of(layer_name.begin() + static_cast<std::ptrdiff_t>(start),
                                             layer_name.begin() + static_cast<std::ptrdiff_t>(end),
                                             [](char c) { return c >= '0' && c <= '9'; });
    if (digits) return layer_name.substr(0, end);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  size_t dot = layer_name.find('.');
  return dot == std::string::npos ? layer_name : layer_name.substr(0, dot);
}

namespace {

const char* grouping_noun(LayerGrouping g) {
  switch (g) {
    case LayerGrouping::none: return "Layer";
    case LayerGrouping::block: return "Block";
    case LayerGrouping::op: return "Op";
    case LayerGrouping::automatic: break;  // resolved before drawing
  }
  return "";
}

// Room under the key, to the figure's lower edge.
constexpr double kKeyFootIn = 0.06;

// The figure's vertical layout, inches from the top: title, the bars' panel with its
// axis, the totals panel (when "other" is too long for the bars' scale), the key.
struct LayersLayout {
  std::vector<std::string> title_lines;
  double title_h = 0, main_h = 0, totals_h = 0, key_h = 0, axis_h = 0, row = 0;
  double height() const { return title_h + main_h + axis_h + (totals_h > 0 ? totals_h + axis_h : 0) + key_h; }
};

// The figure at a grouping (not `automatic`); `other_share`: the part of the step the
// "other" bar holds (0 without one).
PlotBundle drawn_layers(const LayersRequest& req, const PlotStyle& style, const std::string& stem, double& other_share) {
  if (!req.model) throw RunError("plot layers: no model");
  const HardwareSpec& hw = req.run.hw;
  const TextMarkup mk = style.markup();
  const std::vector<IterationPart> rows = rows_of(req);
  if (rows.empty()) throw RunError("plot layers: the model has no layers");
  const bool iteration = !req.parts.empty();
  double step_s = 0;
  for (const IterationPart& r : rows) step_s += r.time_s();
  if (!iteration) step_s = req.run.timing.totals.timing.time_s;
  const std::string batch = iteration ? std::to_string(req.microbatches) + (req.microbatches == 1 ? " microbatch of " : " microbatches of ") + std::to_string(req.settings.batch) + ","
                                      : "batch " + std::to_string(req.settings.batch) + ",";
  std::vector<std::string> title = {req.run.timing.model + " on " + (hw.name.empty() ? hw.id : hw.name) + ":", batch,
                                    std::string(dtype_name(req.settings.dtype)) + ",",
                                    std::string(phase_name(req.settings.phase)) + ";",
                                    // the iteration as `analyze --parallel` prints it (4 digits)
                                    iteration ? "iteration " + si_label(step_s, "s", 4) : "step " + si_label(step_s, "s")};
  if (!req.plan.empty()) title.insert(title.begin() + 1, req.plan + ", one device,");
  const double L = style.line_in();
  // The figure keeps its width (the default, a preset's or --size's): long names are
  // shortened to fit, never widening a .tex past the text it was sized for.
  const double W = style.width_in;

  // The key names the parts and bounds the bars have.
  double parts[5] = {0, 0, 0, 0, 0};  // compute, exposed memory, link, launch, idle
  double collective_s = 0;
  for (const IterationPart& l : rows) {
    parts[0] += l.compute_s, parts[1] += l.exposed_memory_s, parts[3] += l.launch_s, parts[4] += l.idle_s;
    (l.op == "collective" ? collective_s : parts[2]) += l.link_s;
  }
  for (const CollectiveWork& c : req.collectives) collective_s += c.time_s;
  const bool collectives = !req.collectives.empty() || collective_s > 0;
  const std::string link_part = !collectives ? "host link" : parts[2] > 0 ? "host link, collectives" : "collectives";
  parts[2] += collective_s;
  // The key: the parts the step has, and the bound markers the drawn bars carry.
  auto key_of = [&](const std::vector<Bar>& drawn) {
    std::set<Bound::Kind> kinds;
    for (const Bar& b : drawn) kinds.insert(b.kind());
    using K = KeySample::Kind;
    std::vector<KeyEntry> entries;
    const std::string part_names[5] = {"compute", "exposed memory", link_part, "launch", "pipeline bubble"};
    for (int p = 0; p < 5; ++p)
      if (parts[p] > 0 || p == 0) entries.push_back({part_names[p], {K::swatch, "lt " + std::to_string(p + 1)}});
    if (kinds.count(Bound::Kind::compute)) entries.push_back({"compute-bound", {K::marker, "rgb '#222222'", 5, 0.35}});
    if (kinds.count(Bound::Kind::memory)) entries.push_back({"memory-bound", {K::marker, "rgb '#222222'", 9, 0.45}});
    if (kinds.count(Bound::Kind::overhead)) entries.push_back({"launch-bound", {K::marker, "lt 4", 7, 0.5}});
    if (kinds.count(Bound::Kind::link)) entries.push_back({"link-bound", {K::marker, "lt 3", 13, 0.5}});
    return layout_key(style, entries, W - 0.2);
  };

  // ---- the bars that fit: the figure grows with them up to the preset's (or --size's) height ----
  LayersLayout lay;
  lay.title_lines = style.title ? wrap_phrases(style, title, (W - 0.3) / 1.1) : std::vector<std::string>{};
  lay.title_h = lay.title_lines.empty() ? 0.1 : 0.1 + L * 1.1 * 1.05 * static_cast<double>(lay.title_lines.size()) + 0.1;
  // Under a panel: the tick labels, the axis title (its centre 0.06 + 1.6 lines down, see
  // `panel`, its foot half a line lower) and a quarter line before what follows (the key's
  // first row, which has its own tenth of a line above its text).
  lay.axis_h = 0.06 + 2.35 * L;
  lay.row = L * (style.size_given ? 1.0 : 1.15);
  const double max_h = style.height_given ? style.height_in : style.max_height_in();
  std::vector<Bar> bars;
  KeyRows key;
  bool totals = false;
  size_t top = req.top;
  for (;;) {
    LayersRequest fewer = req;
    fewer.top = top;
    bars = bars_of(fewer);
    double most = 0;
    for (const Bar& b : bars)
      if (!b.other) most = std::max(most, b.time);
    // "other" longer than 1.5 x the longest bar: drawn to scale in a panel of its own,
    // beside the drawn bars' sum, rather than cut off at the bars' scale.
    totals = bars.back().other && bars.back().time > 1.5 * most;
    key = key_of(bars);
    lay.key_h = key.height_in + kKeyFootIn;
    const size_t rows = bars.size() - (totals ? 1 : 0);
    lay.main_h = (static_cast<double>(rows) + 0.2) * lay.row + 0.08;
    lay.totals_h = totals ? 0.12 + 2.2 * lay.row + 0.08 : 0;
    if (max_h <= 0 || lay.height() <= max_h || top == 1) break;
    top = std::min(top, bars.size() - (bars.back().other ? 1 : 0)) - 1;
  }
  std::vector<std::string> notes;
  if (top < req.top && top < bars.size())
    notes.push_back("drew the " + std::to_string(top) + " heaviest bars that fit the figure, the rest as \"other\" (" +
                    (req.group == LayerGrouping::none ? "--group block, or a taller --size, shows more)" : "a taller --size shows more)"));
  const double H = style.height_given ? style.height_in : lay.height();
  const bool too_short = max_h > 0 && lay.height() > max_h + 1e-9;
  const size_t n = bars.size() - (totals ? 1 : 0);  // bars in the main panel

  // ---- the panels' frames: names (shortened to at most half the width) on the left ----
  const double name_max = std::max(0.8, 0.5 * W);
  std::vector<std::string> shown;
  double longest = 0;
  for (const Bar& b : bars) {
    shown.push_back(fitted_name(style, b.name, name_max));
    longest = std::max(longest, style.text_width_in(shown.back()) * 1.05);
  }
  const std::string drawn_name = std::to_string(n) + (n == 1 ? " bar drawn" : " bars drawn");
  if (totals) longest = std::max(longest, style.text_width_in(drawn_name));
  Frame f;
  f.log_x = f.log_y = false;
  f.width_in = W;
  f.height_in = H;
  f.left_in = 0.1 + longest + 0.12;
  f.right_in = 0.3;
  f.top_in = lay.title_h;
  f.bottom_in = H - lay.title_h - lay.main_h;
  f.y_min = 0.4;
  f.y_max = static_cast<double>(n) + 0.6;
  const Box area = f.plot_area();
  if (too_short || area.x1 - area.x0 < 1.0)
    throw InputError({}, too_small_message(style, std::to_string(bars.size()) + " bars with these names"),
                     style.height_given ? "draw fewer with --top N or --group block, or make the figure larger"
                                        : "use a smaller --font-size");
  double max_time = 0;
  for (size_t i = 0; i < n; ++i) max_time = std::max(max_time, bars[i].time);
  const auto [unit, unit_name] = time_unit(max_time);
  // Room after the longest bar for its bound marker.
  const LinearAxis axis = time_axis(style, max_time / unit * 1.08, area.x1 - area.x0);
  f.x_min = 0;
  f.x_max = axis.hi * unit;
  Frame ft = f;  // the totals panel: the drawn bars' sum and "other", under the main panel's axis
  double total_time = 0;
  for (size_t i = 0; i < n; ++i) total_time += bars[i].time;
  const double totals_max = totals ? std::max(total_time, bars.back().time) : 1;
  const auto [t_unit, t_unit_name] = time_unit(totals_max);
  const LinearAxis t_axis = time_axis(style, totals_max / t_unit * 1.04, area.x1 - area.x0);
  if (totals) {
    ft.top_in = lay.title_h + lay.main_h + lay.axis_h + 0.12;
    ft.bottom_in = H - ft.top_in - 2.2 * lay.row;
    ft.x_max = t_axis.hi * t_unit;
    ft.y_min = 0.4;
    ft.y_max = 2.6;
  }

  // ---- data ----
  DataFile dat;
  dat.comment("ridge per-layer time plot data; times in seconds");
  dat.comment("each bar adds up to its time: compute + exposed memory + link + launch + idle, where");
  dat.comment("exposed memory = max(0, memory time - compute time) (the rest of the memory time overlaps compute)");
  dat.out() << "\n";
  const std::string columns =
      "position compute_time_s exposed_memory_s link_time_s overhead_time_s time_s "
      "bound_code (0 compute, 1 memory, 2 overhead, 3 link, -1 none) name layers bound shown_name idle_time_s";
  auto write_bar = [&](double position, const Bar& b, int bound, const std::string& label) {
    dat.out() << gp_number(position) << " " << gp_number(b.compute) << " " << gp_number(b.exposed) << " " << gp_number(b.link)
              << " " << gp_number(b.launch) << " " << gp_number(b.time) << " " << bound << " " << data_string(b.name, mk) << " "
              << b.layers << " " << data_string(b.bound, mk) << " " << data_string(label, mk) << " " << gp_number(b.idle) << "\n";
  };
  const int block = dat.begin_block("bars from the top: " + columns);
  for (size_t i = 0; i < bars.size(); ++i)
    write_bar(static_cast<double>(n - i), bars[i], bound_code(bars[i].kind()), shown[i]);
  int totals_block = -1;
  if (totals) {
    totals_block = dat.begin_block("the totals panel, the drawn bars' sum and \"other\": " + columns);
    Bar sum;
    sum.name = drawn_name;
    for (size_t i = 0; i < n; ++i) {
      sum.compute += bars[i].compute, sum.exposed += bars[i].exposed, sum.link += bars[i].link;
      sum.launch += bars[i].launch, sum.idle += bars[i].idle, sum.time += bars[i].time, sum.layers += bars[i].layers;
    }
    sum.bound = "mixed";
    write_bar(2, sum, -1, drawn_name);
    write_bar(1, bars.back(), -1, shown.back());
  }

  // ---- script ----
  PlotStyle sized = style;
  sized.width_in = W;
  sized.height_in = H;
  std::ostringstream g;
  g << "# ridge per-layer time plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# Bars stack compute, exposed memory (memory time beyond compute), host link and\n"
       "# kernel launch; each bar's end is its time. Names come from the .dat file.\n\n";
  g << script_preamble(sized, gnuplot_output_name(style, stem)) << "\n";
  g << "unset key\n";
  for (size_t i = 0; i < lay.title_lines.size(); ++i)
    g << "set label " << 1000 + i << " " << gp_string(lay.title_lines[i], mk, style.font_size * 1.1) << " at screen 0.5, screen "
      << gp_number(1 - (0.1 + L * 1.1 * 1.05 * (static_cast<double>(i) + 0.5)) / H) << " center font ',"
      << gp_number(style.font_size * 1.1) << "'\n";
  g << key_script(style, key, 0.1, lay.key_h, W, H);
  g << "set style fill solid 1.0 " << (lay.row > 0.1 ? "border rgb '#444444'" : "noborder") << "\n"
    << "data = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n"
    << "set multiplot\n";
  const std::string noun = grouping_noun(req.group);
  // One panel: its frame, axis (tics in `unit_s` seconds), title and stacked bars from `rows`.
  auto panel = [&](const Frame& fr, const LinearAxis& ax, double unit_s, const std::string& x_title, const std::string& rows,
                   bool markers) {
    Frame shown_frame = fr;
    shown_frame.x_max = fr.x_max / unit_s;
    g << shown_frame.gnuplot_margins();
    g << "unit = " << gp_number(unit_s) << "  # seconds per axis unit\n"
      << "set xtics (";
    for (size_t i = 0; i < ax.tics.size(); ++i) g << (i ? ", " : "") << gp_number(ax.tics[i]);
    g << ") nomirror\nset format x '%g'\nset mxtics 2\nset ytics scale 0 nomirror\nset grid xtics noytics nomxtics nomytics\n";
    const Box a = fr.plot_area();
    g << "set label 1101 " << gp_string(x_title, mk) << " at screen " << gp_number((a.x0 + a.x1) / 2 / W) << ", screen "
      << gp_number((a.y0 - 0.06 - L * 1.6) / H) << " center\n";
    const std::string d = "    data index " + rows;
    const std::string h = "(0.36)";
    const std::string mark = gp_number(fr.x_max * 0.025);
    g << "plot \\\n";
    if (parts[4] > 0)  // the pipeline bubble, idle, after the launch
      g << d << " using (($2+$3+$4+$5+$12)/2/unit):1:(($2+$3+$4+$5+$12)/2/unit):(0.36) with boxxyerror lt 5 notitle, \\\n";
    g << d << " using (($2+$3+$4+$5)/2/unit):1:(($2+$3+$4+$5)/2/unit):" << h << ":yticlabels(11) with boxxyerror lt 4 notitle, \\\n"
      << d << " using (($2+$3+$4)/2/unit):1:(($2+$3+$4)/2/unit):" << h << " with boxxyerror lt 3 notitle, \\\n"
      << d << " using (($2+$3)/2/unit):1:(($2+$3)/2/unit):" << h << " with boxxyerror lt 2 notitle, \\\n"
      << d << " using ($2/2/unit):1:($2/2/unit):" << h << " with boxxyerror lt 1 notitle";
    // A marker after each bar for its bound: launch-overhead-bound in the launch colour,
    // link-bound in the link colour, so that neither reads as memory-bound.
    if (markers)
      g << ", \\\n"
        << d << " using ($7 == 0 ? ($6 + " << mark << ")/unit : NaN):1 with points pt 5 ps 0.35*marker lc rgb '#222222' notitle, \\\n"
        << d << " using ($7 == 1 ? ($6 + " << mark << ")/unit : NaN):1 with points pt 9 ps 0.45*marker lc rgb '#222222' notitle, \\\n"
        << d << " using ($7 == 2 ? ($6 + " << mark << ")/unit : NaN):1 with points pt 7 ps 0.5*marker lt 4 notitle, \\\n"
        << d << " using ($7 == 3 ? ($6 + " << mark << ")/unit : NaN):1 with points pt 13 ps 0.5*marker lt 3 notitle";
    g << "\n";
  };
  const std::string per = req.group == LayerGrouping::none ? "layer" : req.group == LayerGrouping::block ? "block" : "op";
  g << "\n# ---- " << noun << "s, heaviest at the top. Stacked by drawing each cumulative sum, longest\n"
       "# first: launch at the end, compute from zero. ----\n";
  panel(f, axis, unit, "Time per " + per + " [" + unit_name + "]",
        std::to_string(block) + (totals ? " every ::0::" + std::to_string(n - 1) : ""), true);
  if (totals) {
    g << "\n# ---- the bars drawn above, summed, and \"other\": to scale on an axis of their own ----\n";
    g << "unset label\nunset object\nunset arrow\n";
    panel(ft, t_axis, t_unit, "Time, summed [" + t_unit_name + "]", std::to_string(totals_block), false);
  }
  g << "unset multiplot\n";
  PlotBundle bundle = make_bundle(style, stem, g.str(), dat.str());
  bundle.notes = notes;
  other_share = bars.back().other && step_s > 0 ? bars.back().time / step_s : 0;
  return bundle;
}

}  // namespace

// `automatic`: one bar per layer, unless the bars that fit leave over half the step in
// "other" (a deep network: resnet50's 150 smallest layers, a transformer's dozens of
// blocks) and one bar per block leaves less there.
PlotBundle layers_plot(const LayersRequest& req, const PlotStyle& style, const std::string& stem) {
  double other = 0;
  if (req.group != LayerGrouping::automatic) return drawn_layers(req, style, stem, other);
  LayersRequest per_layer = req, per_block = req;
  per_layer.group = LayerGrouping::none;
  per_block.group = LayerGrouping::block;
  PlotBundle layers = drawn_layers(per_layer, style, stem, other);
  if (other <= 0.5) return layers;
  double block_other = 0;
  PlotBundle blocks = drawn_layers(per_block, style, stem, block_other);
  if (block_other >= other) return layers;
  blocks.notes.insert(blocks.notes.begin(), "one bar per block: with one bar per layer, \"other\" would hold " +
                                                 percent_label(other) + " of the step (--group none draws layers)");
  return blocks;
}

}  // namespace ridge::plots
