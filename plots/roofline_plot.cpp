// The roofline plot (see roofline_plot.hpp), in four phases, each in a file of its own:
// what to draw (roofline_scene: roofs, diagonals, points), where the frame and every
// label go in inches (roofline_layout, roofline_labels), and the data file and script
// (roofline_script). Here: the title and key, and the phases put together. Geometry
// and label placement are done by ridge; gnuplot only draws.
#include "plots/roofline_plot.hpp"

#include <algorithm>
#include <sstream>

#include "plots/data_file.hpp"
#include "plots/plot_text.hpp"
#include "plots/roofline_layout.hpp"
#include "plots/roofline_scene.hpp"
#include "plots/roofline_script.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

PlotBundle roofline_plot(const RooflineRequest& req, const PlotStyle& style, const std::string& stem) {
  if (!req.model || req.runs.empty() || req.labels < 0) throw RunError("roofline plot: nothing to draw");
  using namespace roofline;
  for (const TimedHardware& r : req.runs)
    if (!r.timing.hardware) throw RunError("roofline plot: a run was not timed on hardware");
  const TextMarkup mk = style.markup();
  const DType dtype = req.settings.dtype;
  const size_t H = req.runs.size();

  Scene scene = scene_of(req);

  // The title names the model, the run and, when there is one, the hardware; as phrases,
  // so that a wrapped title breaks between them, never inside "batch 64". The key sits
  // in a band under it: one entry per hardware (several only) and the marker note.
  const Model& model = *req.model;
  std::vector<std::string> title = {H == 1 ? model.name + " on " + hardware_title(req.runs[0].hw) + ":" : model.name + ",",
                                    "batch " + std::to_string(req.settings.batch) + ",", std::string(dtype_name(dtype)) + ",",
                                    std::string(phase_name(req.settings.phase))};
  std::vector<std::string> key_texts;
  if (H > 1)
    for (size_t h = 0; h < H; ++h) key_texts.push_back(hardware_key(req.runs[h], scene.hw[h]));
  // An overlay too narrow for the full entries (at a given size or \textwidth): short
  // ones naming each run roof, which the plot then leaves unlabelled (labels by the
  // roofs would crowd the points).
  const bool roofs_in_key =
      H > 1 && !style.may_widen() &&
      std::any_of(key_texts.begin(), key_texts.end(), [&](const std::string& k) { return !key_entry_fits(style, k); });
  if (roofs_in_key)
    for (size_t h = 0; h < H; ++h) key_texts[h] = short_hardware_key(req.runs[h], scene.hw[h]);
  key_texts.push_back("marker area: time share");
  if (scene.launch_bound) key_texts.push_back(kLaunchBoundKey);
  // Several hardware: without --size, room for their roof labels in the margin (and
  // for the key's entries, below the title).
  PlotStyle sized = style;
  if (H > 1 && !style.size_given) {
    if (style.may_widen()) sized.width_in += 1.5;
    sized.height_in += 0.8;
  }
  HeaderBand band = header_band(sized, title, key_texts);
  // A preset (--style paper: a journal column's width) fixes the width, not the height:
  // its height is for a one-row key, and each further row (an overlay's hardware, the
  // launch-bound note) makes the figure taller rather than its plot area shorter.
  if (style.size_given && !style.height_given) {
    sized.height_in += band.top_in - header_band(sized, title, {key_texts.front()}).top_in;
    band = header_band(sized, title, key_texts);  // it places the title and key by height
  }

  const Layout L = layout_of(req, sized, scene, band.top_in, roofs_in_key);
  sized.width_in = L.frame.width_in;

  DataFile dat;
  dat.comment("ridge roofline plot data: " + std::to_string(H) + " hardware run(s); blocks are selected with `index N`");
  dat.comment("units: arithmetic intensity in FLOP/B, performance in FLOP/s, time in s");
  dat.comment("roofs and diagonals are at achievable values: peak x the descriptor's efficiency factors");
  dat.out() << "\n";
  std::vector<Blocks> blocks;
  for (size_t h = 0; h < H; ++h) blocks.push_back(write_hardware(dat, req, scene, L, h, mk, sized.font_size * kLineFont));
  int layer_block = dat.begin_block("labels of the heaviest layers: x y text angle linetype (x: left edge, y: vertical centre)");
  write_texts(dat, L.layer_labels, mk);
  int boxed_layer_block = dat.begin_block("labels of the heaviest layers set over lines, in an opaque box: x y text angle");
  write_texts(dat, L.boxed_layer_labels, mk);
  int leader_block = dat.begin_block("leader lines from markers to labels placed away from them, x y (segments)");
  dat.out() << L.leaders;

  const Frame& f = L.frame;
  std::ostringstream g;
  g << "# ridge roofline plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# The numbers are in the .dat file beside it; every name is read from there.\n\n";
  g << script_preamble(sized, gnuplot_output_name(style, stem)) << "\n";
  g << "# ---- axes: log-log ----\n"
       "set logscale xy 10\n"
       "set format x '%g'\n"
       "set format y '%.0s %cFLOP/s'\n"
       "set xtics 10\nset ytics 10\nset mxtics 10\nset mytics 10\n";
  g << f.gnuplot_margins();
  g << axis_titles(sized, f, "Arithmetic intensity [FLOP/B]", "Attained performance");
  g << band.script;
  g << "set style fill transparent solid 0.45 noborder\n"
       "set style textbox opaque noborder margins 1,1\n";
  if (L.margin_roofs) g << margin_roof_script(L, sized);
  g << "\ndata = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n\n";
  g << plot_command(scene, L, blocks, layer_block, boxed_layer_block, leader_block, key_texts, sized);

  PlotBundle bundle = make_bundle(style, stem, g.str(), dat.str());
  if (run_only(L.roof_labels))
    bundle.notes.push_back("only the run's roof is labelled: the figure has no room for the other dtypes' values");
  const size_t placed = L.layer_labels.size() + L.boxed_layer_labels.size();
  if (placed < L.layers_wanted)
    bundle.notes.push_back("labelled " + std::to_string(placed) + " of the " + std::to_string(L.layers_wanted) +
                           " heaviest points; the rest had no free spot (a larger --size makes room)");
  return bundle;
}

}  // namespace ridge::plots
