// The roofline plot (see roofline_plot.hpp), in four phases, each in a file of its own:
// what to draw (roofline_scene: roofs, diagonals, points), where the frame and every
// label go in inches (roofline_layout, roofline_labels), and the data file and script
// (roofline_script). Here: the title and key, and the phases put together. Geometry
// and label placement are done by ridge; gnuplot only draws.
#include "plots/roofline_plot.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "plots/data_file.hpp"
#include "plots/plot_text.hpp"
#include "plots/roofline_layout.hpp"
#include "plots/roofline_scene.hpp"
#include "plots/roofline_script.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

namespace {

using namespace roofline;

// What both the bundle and the geometry come from: the scene, its layout, the title and key.
struct Prepared {
  Scene scene;
  PlotStyle sized;  // the style at the figure's final size
  HeaderBand band;
  std::vector<std::string> key_texts;
  Layout layout;
  bool aside_in_title = false;  // "launch time aside" is said in the title, not the y axis's
};

constexpr const char* kLaunchAside = ", launch time aside";

Prepared prepare(const RooflineRequest& req, const PlotStyle& style) {
  if (!req.model || req.runs.empty() || req.labels < 0) throw RunError("roofline plot: nothing to draw");
  for (const TimedHardware& r : req.runs)
    if (!r.timing.hardware) throw RunError("roofline plot: a run was not timed on hardware");
  const DType dtype = req.settings.dtype;
  const size_t H = req.runs.size();
  Prepared pr;
  Scene& scene = pr.scene;
  scene = scene_of(req);

  // The title names the model, the run and, when there is one, the hardware; as phrases,
  // so that a wrapped title breaks between them, never inside "batch 64". The key sits
  // in a band under it: one entry per hardware (several only) and the marker note.
  const Model& model = *req.model;
  std::vector<std::string> title = {H == 1 ? model.name + " on " + hardware_title(req.runs[0].hw) + ":" : model.name + ",",
                                    "batch " + std::to_string(req.settings.batch) + ",", std::string(dtype_name(dtype)) + ",",
                                    std::string(phase_name(req.settings.phase))};
  if (!req.plan.empty()) title.insert(title.begin() + 1, req.plan + ", one device,");
  std::vector<std::string>& key_texts = pr.key_texts;
  if (H > 1)
    for (size_t h = 0; h < H; ++h) key_texts.push_back(hardware_key(req.runs[h], scene.hw[h]));
  // An overlay too narrow for the full entries (at a given size or \textwidth): short
  // ones naming each run roof, which the plot then leaves unlabelled (labels by the
  // roofs would crowd the points).
  const bool roofs_in_key =
      H > 1 &&
      std::any_of(key_texts.begin(), key_texts.end(), [&](const std::string& k) { return !key_entry_fits(style, k); });
  if (roofs_in_key)
    for (size_t h = 0; h < H; ++h) key_texts[h] = short_hardware_key(req.runs[h], scene.hw[h]);
  key_texts.push_back("marker area: time share");
  if (scene.launch_bound) key_texts.push_back(kLaunchBoundKey);
  // A link diagonal's label may find no free spot beside its line: the key names each.
  key_texts.insert(key_texts.end(), scene.link_keys.begin(), scene.link_keys.end());
  PlotStyle& sized = pr.sized;
  auto size_header = [&]() {
    // Several hardware: without --size, room for the key's entries below the title.
    sized = style;
    if (H > 1 && !style.size_given) sized.height_in += 0.8;
    pr.band = header_band(sized, title, key_texts);
    // A preset (--style column: a journal column's width) fixes the width, not the height:
    // its height is for a one-row key, and each further row (an overlay's hardware, the
    // launch-bound note) makes the figure taller rather than its plot area shorter.
    if (style.size_given && !style.height_given) {
      sized.height_in += pr.band.top_in - header_band(sized, title, {key_texts.front()}).top_in;
      // and the plot area keeps at least 0.62 of the width in height, however tall the header.
      const double bottom_in = 0.15 + 2.2 * sized.line_in();
      sized.height_in = std::max(sized.height_in, pr.band.top_in + bottom_in + 0.62 * sized.width_in);
      pr.band = header_band(sized, title, key_texts);  // it places the title and key by height
    }
  };
  size_header();
  // The y title says the launch time is left out where it fits the plot's height (the
  // widest tick unit assumed); else (a journal column's plot is short) the title says so.
  const double plot_h = sized.height_in - pr.band.top_in - (0.15 + 2.2 * sized.line_in());
  if (sized.text_width_in(std::string("Performance [TFLOP/s]") + kLaunchAside) > plot_h + 0.3) {
    pr.aside_in_title = true;
    title.back() += kLaunchAside;
    size_header();
  }
  const Scene unlaid = scene;  // before a layout clips its lines
  std::optional<Layout> layout = layout_of(req, sized, scene, pr.band.top_in, roofs_in_key);
  // One hardware whose roof label finds no spot by its roof (a parallel plan's link
  // diagonals and collectives crowding a column): the key names the roof instead.
  if (!layout && H == 1) {
    for (const Roof& r : scene.hw[0].roofs)
      if (r.run) scene.roof_key = "roof: " + r.short_label;
    key_texts.insert(key_texts.begin(), scene.roof_key);
    size_header();
    layout = layout_of(req, sized, scene, pr.band.top_in, true);
  }
  // One hardware whose DRAM diagonal's label found no spot by its line: the key names
  // it instead, where the plot laid out again with that entry in its key leaves out no
  // more labels.
  if (layout && H == 1 && !unlaid.hw[0].diags.empty()) {
    const Diagonal& dram = unlaid.hw[0].diags.front();
    if (std::find(layout->dropped.begin(), layout->dropped.end(), dram.short_label) != layout->dropped.end()) {
      Scene again = unlaid;
      again.roof_key = scene.roof_key;
      again.dram_key = dram.label;
      const std::vector<std::string> before = key_texts;
      const PlotStyle sized_before = sized;
      const HeaderBand band_before = pr.band;
      // With the roof named in the key too, one entry names the thick line: "roof: bf16 229 TFLOP/s, HBM2e 1.29 TB/s".
      if (scene.roof_key.empty()) key_texts.insert(key_texts.begin(), again.dram_key);
      else key_texts.front() = again.roof_key = scene.roof_key + ", " + dram.label;
      size_header();
      std::optional<Layout> keyed = layout_of(req, sized, again, pr.band.top_in, roofs_in_key || !scene.roof_key.empty());
      if (keyed && keyed->dropped.size() < layout->dropped.size()) {
        layout = std::move(keyed);
        scene = std::move(again);
      } else {
        key_texts = before, sized = sized_before, pr.band = band_before;
      }
    }
  }
  if (!layout) {
    // Blame --size only where it was given (a --style preset fixes the width alone).
    if (style.height_given)
      throw InputError({}, "--size is too small for this font size", "make the figure larger or --font-size smaller");
    throw InputError({}, "the figure is too small for its text at " + gp_number(style.font_size) + " pt",
                     "give --font-size smaller, or a larger --size");
  }
  pr.layout = std::move(*layout);
  sized.width_in = pr.layout.frame.width_in;
  return pr;
}

double decade_at_or_below(double v) { return std::pow(10.0, std::floor(std::log10(v) + 1e-9)); }

// Log x ticks on decades, a decade apart, or every second or third decade where the plot area is
// too narrow for a label per decade ("1000" and "10000" would run together).
std::string x_tick_step(const Frame& f, const PlotStyle& style) {
  const Box a = f.plot_area();
  const double per_decade = (a.x1 - a.x0) / std::log10(f.x_max / f.x_min);
  const double label = style.text_width_in(gp_number(f.x_max)) * 1.25 + 0.08;
  const char* step = per_decade >= label ? "10" : per_decade * 2 >= label ? "100" : "1000";
  return gp_number(decade_at_or_below(f.x_min)) + ", " + step;
}

}  // namespace

RooflineGeometry roofline_geometry(const RooflineRequest& req, const PlotStyle& style) {
  return prepare(req, style).layout.geometry;
}

PlotBundle roofline_plot(const RooflineRequest& req, const PlotStyle& style, const std::string& stem) {
  Prepared pr = prepare(req, style);
  const TextMarkup mk = style.markup();
  const size_t H = req.runs.size();
  const Scene& scene = pr.scene;
  const Layout& L = pr.layout;
  const PlotStyle& sized = pr.sized;
  const HeaderBand& band = pr.band;
  const std::vector<std::string>& key_texts = pr.key_texts;

  DataFile dat;
  dat.comment("ridge roofline plot data: " + std::to_string(H) + " hardware run(s); blocks are selected with `index N`");
  dat.comment("units: arithmetic intensity in FLOP/B, performance in FLOP/s, time in s");
  dat.comment("roofs and diagonals are at achievable values: peak x the descriptor's efficiency factors");
  dat.out() << "\n";
  std::vector<Blocks> blocks;
  for (size_t h = 0; h < H; ++h) blocks.push_back(write_hardware(dat, req, scene, L, h, mk, sized.font_size * kLineFont));
  int layer_block = dat.begin_block("labels of the heaviest layers: x y text angle linetype (x: left edge, y: vertical centre)");
  write_texts(dat, L.layer_labels, mk);
  int leader_block = dat.begin_block("leader lines from markers to labels placed away from them, x y (segments)");
  dat.out() << L.leaders;

  const Frame& f = L.frame;
  std::ostringstream g;
  g << "# ridge roofline plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# The numbers are in the .dat file beside it; every name is read from there.\n\n";
  g << script_preamble(sized, gnuplot_output_name(style, stem)) << "\n";
  // The y ticks are decades with their labels given (in one unit, named in the axis
  // title), the minor ticks from an unlabelled series.
  const YUnit unit = y_unit(f.y_min, f.y_max);
  std::string y_labels;
  for (const auto& [v, text] : y_tick_labels(f.y_min, f.y_max, unit))
    // (a hair inside the range: gnuplot drops a given tick that rounds to just outside it)
    y_labels += (y_labels.empty() ? "" : ", ") + gp_string(text, TextMarkup::plain) + " " +
                gp_number(std::clamp(v, f.y_min * (1 + 1e-6), f.y_max * (1 - 1e-6)));
  g << "# ---- axes: log-log ----\n"
       "set logscale xy 10\n"
       "set format x '%g'\n"
       "set xtics " << x_tick_step(f, sized) << "\nset ytics " << gp_number(decade_at_or_below(f.y_min)) << ", 10 format ''\n"
    << "set ytics add (" << y_labels << ")\nset mxtics 10\nset mytics 10\n";
  g << f.gnuplot_margins();
  const std::string y_title = "Performance [" + unit.name + "]" + (pr.aside_in_title ? "" : kLaunchAside);
  g << axis_titles(sized, f, "Arithmetic intensity [FLOP/B]", y_title);
  g << band.script;
  g << "set style fill transparent solid 0.45 noborder\n";
  if (L.margin_roofs) g << margin_roof_script(L, sized);
  g << "\ndata = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n\n";
  g << plot_command(scene, L, blocks, layer_block, leader_block, key_texts, sized);

  PlotBundle bundle = make_bundle(style, stem, g.str(), dat.str());
  if (L.other_roofs_hidden)
    bundle.notes.push_back("only the run's roof is drawn: the figure has no room to name the other dtypes' roofs");
  const size_t placed = L.layer_labels.size();
  if (placed < L.layers_wanted)
    bundle.notes.push_back("labelled " + std::to_string(placed) + " of the " + std::to_string(L.layers_wanted) +
                           " heaviest points; the rest had no free spot (a larger --size makes room)");
  for (const std::string& d : L.dropped) bundle.notes.push_back("left out the label \"" + d + "\": no free spot beside its line");
  if (!scene.dram_key.empty())
    bundle.notes.push_back("named \"" + scene.dram_key + "\" in the key: no free spot beside its line");
  return bundle;
}

}  // namespace ridge::plots
