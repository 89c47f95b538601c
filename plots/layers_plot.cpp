// The per-layer time plot (see layers_plot.hpp): the bars (grouped, sorted, the tail
// summed), the frame they need, the data file and the script.
#include "plots/layers_plot.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "plots/data_file.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_text.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

LayerGrouping parse_layer_grouping(const std::string& text) {
  if (text == "none") return LayerGrouping::none;
  if (text == "block") return LayerGrouping::block;
  if (text == "op") return LayerGrouping::op;
  throw InputError({}, "--group: unknown grouping (got '" + text + "')", "use --group none, block or op");
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

struct Bar {
  std::string name;
  size_t layers = 0;
  double compute = 0, exposed = 0, link = 0, launch = 0, time = 0;
  std::map<Bound::Kind, double> time_by_bound;  // of its layers, by their bound (the Result's)
  std::string bound;  // the layer's bound label; a group's: "mixed" unless all agree
  bool other = false;
  // The bound of most of its time; none for "other" and for bars that take no time.
  Bound::Kind kind() const {
    Bound::Kind k = Bound::Kind::none;
    double most = 0;
    for (const auto& [kind, time] : time_by_bound)
      if (kind != Bound::Kind::none && time > most) {
        most = time;
        k = kind;
      }
    return other ? Bound::Kind::none : k;
  }
};

// Column 7 of the bars block: the bound of the bar (see kLayersColumns).
int bound_code(Bound::Kind k) {
  switch (k) {
    case Bound::Kind::compute: return 0;
    case Bound::Kind::memory: return 1;
    case Bound::Kind::overhead: return 2;
    case Bound::Kind::link: return 3;
    case Bound::Kind::none: return -1;
  }
  return -1;
}

void add_layer(Bar& b, const LayerResult& l) {
  const LayerTiming& tm = l.timing;
  b.compute += tm.compute_s;
  b.exposed += l.exposed_memory_s;
  b.link += tm.link_s;
  b.launch += tm.overhead_s;
  b.time += tm.time_s;
  b.time_by_bound[l.bound.kind] += tm.time_s;
  b.bound = b.layers == 0 || b.bound == l.bound.label ? l.bound.label : "mixed";
  ++b.layers;
}

// The bars, heaviest first: the `top` heaviest, then "other" with the rest.
std::vector<Bar> bars_of(const LayersRequest& req) {
  const RunResult& t = req.run.timing;
  std::vector<Bar> bars;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < t.layers.size(); ++i) {
    const std::string& name = req.model->layers[i].name;
    std::string key = req.group == LayerGrouping::none ? name
                      : req.group == LayerGrouping::block ? block_of(name)
                                                          : req.model->layers[i].op;
    auto [it, fresh] = index.try_emplace(req.group == LayerGrouping::none ? std::to_string(i) : key, bars.size());
    if (fresh) {
      Bar b;
      b.name = key;
      bars.push_back(b);
    }
    add_layer(bars[it->second], t.layers[i]);
  }
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.time > b.time; });
  if (bars.size() > req.top) {
    Bar other;
    other.other = true;
    for (size_t i = req.top; i < bars.size(); ++i) {
      const Bar& b = bars[i];
      other.compute += b.compute;
      other.exposed += b.exposed;
      other.link += b.link;
      other.launch += b.launch;
      other.time += b.time;
      other.layers += b.layers;
    }
    bars.resize(req.top);
    other.name = "other (" + std::to_string(other.layers) + " layers)";
    other.bound = "mixed";
    bars.push_back(other);
  }
  return bars;
}

const char* grouping_noun(LayerGrouping g) {
  switch (g) {
    case LayerGrouping::none: return "Layer";
    case LayerGrouping::block: return "Block";
    case LayerGrouping::op: return "Op";
  }
  return "";
}

}  // namespace

PlotBundle layers_plot(const LayersRequest& req, const PlotStyle& style, const std::string& stem) {
  if (!req.model) throw RunError("plot layers: no model");
  const RunResult& t = req.run.timing;
  const HardwareSpec& hw = req.run.hw;
  const TextMarkup mk = style.markup();
  if (t.layers.empty()) throw RunError("plot layers: the model has no layers");
  std::vector<std::string> title = {t.model + " on " + (hw.name.empty() ? hw.id : hw.name) + ":",
                                    "batch " + std::to_string(req.settings.batch) + ",",
                                    std::string(dtype_name(req.settings.dtype)) + ",",
                                    std::string(phase_name(req.settings.phase)) + ";",
                                    "step " + si_label(t.totals.timing.time_s, "s")};
  std::vector<Bar> bars = bars_of(req);
  // The key names the bounds the bars have (a marker each), launch-overhead- and
  // link-bound only when a bar is.
  std::set<Bound::Kind> kinds;
  for (const Bar& b : bars) kinds.insert(b.kind());
  std::vector<std::string> key = {"compute", "exposed memory", "host link", "launch", "compute-bound", "memory-bound"};
  if (kinds.count(Bound::Kind::overhead)) key.push_back("launch-bound");
  if (kinds.count(Bound::Kind::link)) key.push_back("link-bound");
  std::vector<std::string> notes;
  // A figure of a given size draws as many bars as fit a line each (the rest in "other").
  if (style.size_given) {
    double room = style.height_in - header_band(style, title, key).top_in - (0.15 + 2.2 * style.line_in());
    size_t fit = static_cast<size_t>(std::max(2.0, std::floor(room / (style.line_in() * 0.95))));
    if (bars.size() > fit) {
      LayersRequest fewer = req;
      fewer.top = fit - 1;
      bars = bars_of(fewer);
      notes.push_back("drew the " + std::to_string(fewer.top) + " heaviest bars that fit the figure, the rest as \"other\" "
                      "(--top, --group block or a taller --size show more)");
    }
  }
  const size_t n = bars.size();

  // ---- frame: time across, bars down, names in full on the left ----
  const double line = style.line_in();
  double longest = 0, max_time = 0, other_time = 0;
  for (const Bar& b : bars) {
    longest = std::max(longest, style.text_width_in(b.name));
    (b.other ? other_time : max_time) = std::max(b.other ? other_time : max_time, b.time);
  }
  // The axis is set by the drawn bars; an "other" bar longer than 1.5 times the longest
  // of them is cut at the frame, its time written at its end.
  const bool cut_other = other_time > 1.5 * max_time;
  if (!cut_other) max_time = std::max(max_time, other_time);
  PlotStyle sized = style;
  const double row_in = style.size_given ? line * 0.95 : line * 1.1;
  Frame f;
  f.log_x = f.log_y = false;
  f.left_in = 0.1 + line + 0.1 + longest + 0.12;
  f.right_in = 0.35;
  f.bottom_in = 0.15 + 2.2 * line;
  if (!style.size_given) {  // grow to fit every name and bar
    sized.width_in = std::max(style.width_in, f.left_in + f.right_in + 3.0);
    HeaderBand band = header_band(sized, title, key);
    sized.height_in = std::max(style.height_in, band.top_in + f.bottom_in + static_cast<double>(n) * row_in + 0.1);
  }
  const HeaderBand band = header_band(sized, title, key);
  f.width_in = sized.width_in;
  f.height_in = sized.height_in;
  f.top_in = band.top_in;
  f.x_min = 0;
  f.x_max = max_time > 0 ? max_time * 1.12 : 1;
  f.y_min = 0.4;
  f.y_max = static_cast<double>(n) + 0.6;
  Box area = f.plot_area();
  if (area.x1 - area.x0 < 1.0 || area.y1 - area.y0 < std::min(1.0, static_cast<double>(n) * line * 0.8))
    throw InputError({}, "--size is too small for " + std::to_string(n) + " bars with these names",
                     "draw fewer with --top N or --group block, or make the figure larger");
  // The time axis in the unit that suits the longest bar.
  double unit = 1;
  std::string unit_name = "s";
  for (auto [u, name] : {std::pair{1e-3, "ms"}, std::pair{1e-6, "\u00b5s"}, std::pair{1e-9, "ns"}})
    if (max_time < unit * 0.9995) {
      unit = u;
      unit_name = name;
    }

  // ---- data ----
  DataFile dat;
  dat.comment("ridge per-layer time plot data; times in seconds");
  dat.comment("each bar adds up to its time: compute + exposed memory + link + launch, where");
  dat.comment("exposed memory = max(0, memory time - compute time) (the rest of the memory time overlaps compute)");
  dat.out() << "\n";
  int block = dat.begin_block("bars from the top: position compute_time_s exposed_memory_s link_time_s overhead_time_s time_s "
                              "bound_code (0 compute, 1 memory, 2 overhead, 3 link, -1 none) name layers bound");
  for (size_t i = 0; i < n; ++i) {
    const Bar& b = bars[i];
    int bound = bound_code(b.kind());
    dat.out() << n - i << " " << gp_number(b.compute) << " " << gp_number(b.exposed) << " " << gp_number(b.link) << " "
              << gp_number(b.launch) << " " << gp_number(b.time) << " " << bound << " " << data_string(b.name, mk) << " "
              << b.layers << " " << data_string(b.bound, mk) << "\n";
  }

  // ---- script ----
  std::ostringstream g;
  g << "# ridge per-layer time plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# Bars stack compute, exposed memory (memory time beyond compute), host link and\n"
       "# kernel launch; each bar's end is its time. Names come from the .dat file.\n\n";
  g << script_preamble(sized, gnuplot_output_name(style, stem)) << "\n";
  g << "# ---- axes ----\n"
       "unit = " << gp_number(unit) << "  # seconds per axis unit\n"
       "set format x '%g'\n"
       "set xtics nomirror\n"
       "set mxtics 2\n"
       "set ytics scale 0 nomirror\n"
       "set grid xtics noytics nomxtics nomytics\n";
  Frame shown = f;
  shown.x_max = f.x_max / unit;
  g << shown.gnuplot_margins();
  const std::string noun = grouping_noun(req.group);
  g << axis_titles(sized, f, "Time per " + std::string(req.group == LayerGrouping::none ? "layer" : req.group == LayerGrouping::block ? "block" : "op") +
                                 " [" + unit_name + "]",
                   "");
  g << band.script;
  if (cut_other)
    g << "set label 1103 " << gp_string(si_label(other_time, "s") + " in all", style.markup())
      << " at graph 0.99, first 1 right front textcolor rgb '#FFFFFF'\n";
  g << "set style fill solid 1.0 " << (row_in > 0.1 ? "border rgb '#444444'" : "noborder") << "\n"
    << "data = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n\n";
  const std::string d = "    data index " + std::to_string(block);
  const std::string h = "(0.36)";
  const std::string mark = gp_number(max_time * 0.025);
  g << "# " << noun << "s, heaviest at the top. Stacked by drawing each cumulative sum, longest\n"
       "# first: launch at the end, compute from zero.\n"
       "plot \\\n"
    << d << " using (($2+$3+$4+$5)/2/unit):1:(($2+$3+$4+$5)/2/unit):" << h << ":yticlabels(8) with boxxyerror lt 4 title 'launch', \\\n"
    << d << " using (($2+$3+$4)/2/unit):1:(($2+$3+$4)/2/unit):" << h << " with boxxyerror lt 3 title 'host link', \\\n"
    << d << " using (($2+$3)/2/unit):1:(($2+$3)/2/unit):" << h << " with boxxyerror lt 2 title 'exposed memory', \\\n"
    << d << " using ($2/2/unit):1:($2/2/unit):" << h << " with boxxyerror lt 1 title 'compute', \\\n"
    << d << " using ($7 == 0 ? ($6 + " << mark << ")/unit : NaN):1 with points pt 5 ps 0.35*marker lc rgb '#222222' title 'compute-bound', \\\n"
    << d << " using ($7 == 1 ? ($6 + " << mark << ")/unit : NaN):1 with points pt 9 ps 0.45*marker lc rgb '#222222' title 'memory-bound'";
  // Launch-overhead-bound in the launch colour, link-bound in the link colour: neither
  // reads as memory-bound. Bars with no bound (no time, "other") have no marker.
  if (kinds.count(Bound::Kind::overhead))
    g << ", \\\n" << d << " using ($7 == 2 ? ($6 + " << mark << ")/unit : NaN):1 with points pt 7 ps 0.5*marker lt 4 title 'launch-bound'";
  if (kinds.count(Bound::Kind::link))
    g << ", \\\n" << d << " using ($7 == 3 ? ($6 + " << mark << ")/unit : NaN):1 with points pt 13 ps 0.5*marker lt 3 title 'link-bound'";
  g << "\n";
  PlotBundle bundle = make_bundle(style, stem, g.str(), dat.str());
  bundle.notes = notes;
  return bundle;
}

}  // namespace ridge::plots
