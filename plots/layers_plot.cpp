// The per-layer time plot (see layers_plot.hpp).
#include "plots/layers_plot.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "plots/data_file.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_text.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

namespace {

// Which layers get a tick label: all when they fit side by side, else the heaviest
// first, each keeping `gap` bars clear of the labels already chosen.
std::vector<bool> labelled_layers(const RunResult& t, size_t gap) {
  size_t n = t.layers.size();
  std::vector<bool> on(n, false);
  if (gap <= 1) return std::vector<bool>(n, true);
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return t.layers[a].timing.time_s > t.layers[b].timing.time_s; });
  for (size_t i : order) {
    bool clear = true;
    for (size_t j = i >= gap - 1 ? i - (gap - 1) : 0; j < std::min(n, i + gap) && clear; ++j) clear = !on[j];
    if (clear) on[i] = true;
  }
  return on;
}

}  // namespace

PlotBundle layers_plot(const Model& model, const RunSettings& settings, const TimedHardware& run,
                       const PlotStyle& style, const std::string& stem) {
  const RunResult& t = run.timing;
  const HardwareSpec& hw = run.hw;
  const TextMarkup mk = style.markup();
  const size_t n = t.layers.size();
  if (n == 0) throw RunError("plot layers: the model has no layers");

  // ---- frame: linear axes, bars at 0..n-1 ----
  Frame f;
  f.log_x = f.log_y = false;
  f.width_in = style.width_in;
  f.height_in = style.height_in;
  const double line = style.line_in();
  double max_time = 0;
  double longest = 0;
  for (size_t i = 0; i < n; ++i) {
    max_time = std::max(max_time, t.layers[i].timing.time_s);
    longest = std::max(longest, style.text_width_in(model.layers[i].name));
  }
  longest = std::min(longest, 1.3);  // longer names are cut short on the axis (full in the .dat)
  const double angle = n <= 16 ? 45 : 90;
  f.left_in = 0.12 + line + style.text_width_in("100.0 ms") + 0.1;
  f.right_in = 0.2;
  // Phrases: a wrapped title breaks between them, never inside "step 2.79 ms".
  std::vector<std::string> title = {model.name + " on " + hw.name + ":", "batch " + std::to_string(settings.batch) + ",",
                                    std::string(dtype_name(settings.dtype)) + ",",
                                    std::string(phase_name(settings.phase)) + ";", "step " + si_label(t.totals.timing.time_s, "s")};
  HeaderBand band = header_band(style, title, {"compute", "exposed memory", "host link", "launch", "compute-bound", "memory-bound"});
  f.top_in = band.top_in;
  f.bottom_in = 0.08 + line + longest * std::sin(angle * M_PI / 180) + 0.35 * line + 0.1;
  f.x_min = -0.7;
  f.x_max = static_cast<double>(n) - 0.3;
  f.y_min = 0;
  f.y_max = max_time > 0 ? max_time * 1.12 : 1;  // in seconds here; the script's axis is in `unit`
  Box area = f.plot_area();
  if (area.x1 - area.x0 < 1.0 || area.y1 - area.y0 < 1.0)
    throw InputError({}, "--size is too small for this model's layer names", "make the figure larger or --font-size smaller");
  double bar_in = (area.x1 - area.x0) / (f.x_max - f.x_min);
  size_t gap = static_cast<size_t>(std::ceil(line * 0.95 / bar_in));
  std::vector<bool> labelled = labelled_layers(t, gap);
  const size_t max_chars = 18;
  // The time axis in the unit that suits the longest layer.
  double unit = 1;
  std::string unit_name = "s";
  for (auto [u, name] : {std::pair{1e-3, "ms"}, std::pair{1e-6, "us"}, std::pair{1e-9, "ns"}})
    if (max_time < unit * 0.9995) {
      unit = u;
      unit_name = name;
    }
  f.y_max /= unit;

  // ---- data ----
  DataFile dat;
  dat.comment("ridge per-layer time plot data; times in seconds");
  dat.comment("each bar adds up to the layer's time: compute + exposed memory + link + launch, where");
  dat.comment("exposed memory = max(0, memory time - compute time) (the rest of the memory time overlaps compute)");
  dat.out() << "\n";
  int bars = dat.begin_block("layers: position compute_s exposed_memory_s link_s launch_s time_s memory_bound tick_label name bound");
  size_t n_labelled = 0;
  for (size_t i = 0; i < n; ++i) {
    const LayerResult& l = t.layers[i];
    const LayerTiming& tm = l.timing;
    double exposed = std::max(0.0, tm.memory_s - tm.compute_s);
    std::string name = model.layers[i].name;
    std::string tick;
    if (labelled[i]) {
      ++n_labelled;
      tick = name;
      if (tick.size() > max_chars) {
        size_t cut = max_chars - 2;
        while (cut > 0 && (static_cast<unsigned char>(tick[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
        tick = tick.substr(0, cut) + "..";
      }
    }
    const std::string& bound = l.bound.label;
    dat.out() << i << " " << gp_number(tm.compute_s) << " " << gp_number(exposed) << " " << gp_number(tm.link_s) << " "
              << gp_number(tm.overhead_s) << " " << gp_number(tm.time_s) << " " << (tm.memory_bound() ? 1 : 0) << " "
              << data_string(tick, mk) << " " << data_string(name, mk) << " " << data_string(bound, mk) << "\n";
  }

  // ---- script ----
  const std::string image = stem + extension_of(style.format);
  std::ostringstream g;
  g << "# ridge per-layer time plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# Bars stack compute, exposed memory (memory time beyond compute), host link and\n"
       "# kernel launch; each bar's top is the layer's time. Names come from the .dat file.\n\n";
  g << script_preamble(style, image) << "\n";
  g << "# ---- axes ----\n"
       "unit = " << gp_number(unit) << "  # seconds per axis unit\n"
       "set ylabel 'Time per layer [" << unit_name << "]'\n"
       "set format y '%g'\n"
       "set ytics nomirror\n"
       "set mytics 2\n"
       "set grid noxtics nomxtics\n"
       "set xtics scale 0 rotate by "
    << angle << " right offset 0,0.2 font ',"
    << gp_number(n > 40 ? std::max(5.0, style.font_size * 0.8) : style.font_size) << "'\n"
    << "# The axis title as a label: gnuplot would place an xlabel by the full width of the names\n"
    << "set label 1100 'Layer (" << (n_labelled == n ? std::string("all") : std::to_string(n_labelled) + " of " + std::to_string(n) + ", heaviest")
    << " named)' at screen 0.5, screen " << gp_number((0.08 + line * 0.5) / f.height_in) << " center\n";
  g << f.gnuplot_margins();
  g << band.script;
  g << "set style fill solid 1.0 " << (bar_in > 0.06 ? "border rgb '#444444'" : "noborder") << "\n"
       "set boxwidth " << (bar_in > 0.04 ? "0.75" : "1.0") << "\n"
       "data = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n\n";
  const std::string d = "    data index " + std::to_string(bars);
  const std::string mark = gp_number(max_time * 0.03);
  g << "# Stacked by drawing each cumulative sum, tallest first: launch on top, compute at the bottom.\n"
       "plot \\\n"
    << d << " using 1:(($2+$3+$4+$5)/unit):xticlabels(stringcolumn(8)) with boxes lt 4 title 'launch', \\\n"
    << d << " using 1:(($2+$3+$4)/unit) with boxes lt 3 title 'host link', \\\n"
    << d << " using 1:(($2+$3)/unit) with boxes lt 2 title 'exposed memory', \\\n"
    << d << " using 1:($2/unit) with boxes lt 1 title 'compute', \\\n"
    << d << " using 1:($7 == 0 ? ($6 + " << mark << ")/unit : NaN) with points pt 5 ps 0.35 lc rgb '#222222' title 'compute-bound', \\\n"
    << d << " using 1:($7 == 1 ? ($6 + " << mark << ")/unit : NaN) with points pt 9 ps 0.45 lc rgb '#222222' title 'memory-bound'\n";
  return make_bundle(style, stem, g.str(), dat.str());
}

}  // namespace ridge::plots
