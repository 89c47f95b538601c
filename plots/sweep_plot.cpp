// The sweep plot (see sweep_plot.hpp): the figure's plan laid out in inches (a grid of
// panels, the title, the legend), the data file and the gnuplot script.
#include "plots/sweep_plot.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "plots/axis_ticks.hpp"
#include "plots/data_file.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_text.hpp"
#include "plots/sweep_legend.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

namespace {

bool spans_decades(const std::vector<SweepLine>& lines, bool x) {
  double lo = 1e300, hi = 0;
  for (const SweepLine& s : lines)
    for (auto [a, b] : s.points) {
      double v = x ? a : b;
      if (v <= 0) return false;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  return hi > 0 && hi / lo >= 10;
}

std::string screen(double in, double total) { return "screen " + gp_number(in / total); }

void write_texts(DataFile& dat, const std::string& what, const std::vector<PlacedText>& texts, TextMarkup mk) {
  dat.begin_block(what);
  for (const PlacedText& t : texts) dat.out() << gp_number(t.x) << " " << gp_number(t.y) << " " << data_string(t.text, mk) << "\n";
}

}  // namespace

PlotBundle sweep_plot(const SweepTable& t, const PlotStyle& style, const std::string& stem) {
  const SweepFigure fig = plan_sweep_figure(t);
  const TextMarkup mk = style.markup();
  const double L = style.line_in();
  const bool pair = !fig.varied_field.empty();
  const size_t F = fig.facets.size();
  // The grid: facets side by side, a facet being one panel or (with a varied field) two.
  const size_t per_row = pair ? (F <= 3 ? 1 : 2) : (F == 1 ? 1 : F <= 4 ? 2 : F <= 9 ? 3 : 4);
  const size_t cols = per_row * (pair ? 2 : 1), rows = (F + per_row - 1) / per_row;
  const bool facet_titles = F > 1;  // one facet: its model is in the figure's title

  double W = style.width_in, H = style.height_in;
  if (!style.size_given) W = cols == 1 ? 6.0 : static_cast<double>(cols) * (cols == 2 ? 3.4 : 3.1);
  const std::vector<std::string> title_lines = wrap_phrases(style, fig.title, (W - 0.3) / 1.1);
  const double title_line = L * 1.1 * 1.05;
  const double title_h = 0.1 + title_line * static_cast<double>(title_lines.size()) + 0.08;
  const double cw = W / static_cast<double>(cols);
  // The legend goes below the grid or, when the last row has empty cells it fits in, there.
  const size_t free_cells = (per_row - F % per_row) % per_row * (pair ? 2 : 1);
  const double free_x = W - static_cast<double>(free_cells) * cw;
  LegendLayout legend = layout_legend(style, fig.legend, W);
  LegendLayout in_cells = layout_legend(style, fig.legend, W - free_x);
  double ch;
  if (!style.size_given) {
    ch = rows == 1 ? 3.2 : 2.5;
  } else {
    ch = (H - title_h) / static_cast<double>(rows);
  }
  const bool legend_in_cells = free_cells > 0 && !fig.legend.empty() && in_cells.height <= ch - 0.3;
  if (legend_in_cells) legend = in_cells;
  const double legend_below = legend_in_cells ? 0.0 : legend.height;
  if (!style.size_given)
    H = title_h + static_cast<double>(rows) * ch + legend_below;
  else
    ch = (H - title_h - legend_below) / static_cast<double>(rows);
  // Inside a cell: y label, tic labels, plot; under it tic labels and x label; above it the facet title.
  const double tic_w = style.text_width_in("250.0 ms");
  const double left = 0.08 + L + 0.06 + tic_w + 0.08, right = 0.22;
  const double top = (facet_titles ? L * 1.25 : 0.0) + 0.12, bottom = 0.06 + L + 0.06 + L + 0.1;
  if (cw - left - right < 1.0 || ch - top - bottom < 0.9)
    throw InputError({}, "--size is too small for " + std::to_string(F * (pair ? 2 : 1)) + " panels",
                     "leave --size out (the figure grows with its panels), or pick models with --where model=NAME");
  // In the empty cells: at the top of the last row, from the first empty cell.
  const double legend_top = H - title_h - static_cast<double>(rows - (legend_in_cells ? 1 : 0)) * ch -
                            (legend_in_cells ? 0.25 : 0.0);
  const double legend_x = legend_in_cells ? free_x + 0.2 : 0.0;

  // The varied axis in the SI prefix of its largest value: "900 GB/s .. 3 TB/s" as 0.9 .. 3 [TB/s].
  double x_scale = 1;
  std::string x_prefix;
  std::vector<double> varied_xs, batches;
  for (const SweepFacet& f : fig.facets) {
    for (const SweepLine& s : f.through)
      for (auto [x, y] : s.points) batches.push_back(x);
    for (const SweepLine& s : f.times)
      for (auto [x, y] : s.points) varied_xs.push_back(x);
  }
  if (pair) {
    double hi = 0;
    for (double x : varied_xs) hi = std::max(hi, std::fabs(x));
    static const char* const prefixes[] = {"", "k", "M", "G", "T", "P"};
    for (int i = 5; i > 0; --i)
      if (!fig.varied_unit.empty() && hi >= std::pow(1000.0, i)) {
        x_scale = std::pow(1000.0, i);
        x_prefix = prefixes[i];
        break;
      }
    for (double& x : varied_xs) x /= x_scale;
  }

  // ---- data: the lines, facet by facet, then every text the figure shows ----
  DataFile dat;
  dat.comment("ridge sweep plot data; one block per line of the plot, its first row the line's label and model,");
  dat.comment("then the facets' texts and the legend; every name is here, none in the script");
  dat.out() << "\n";
  std::vector<std::vector<int>> through_blocks(F), time_blocks(F);
  for (size_t f = 0; f < F; ++f) {
    auto write = [&](const std::vector<SweepLine>& lines, const std::string& what, std::vector<int>& blocks) {
      for (const SweepLine& s : lines) {
        blocks.push_back(dat.begin_block(what));
        dat.out() << data_string(s.label, mk) << " " << data_string(fig.facets[f].model, mk) << "\n";
        for (auto [x, y] : s.points) dat.out() << gp_number(x) << " " << gp_number(y) << "\n";
      }
    };
    write(fig.facets[f].through, "samples/s against batch: batch samples_per_s", through_blocks[f]);
    write(fig.facets[f].times, "step time against the varied field: value (SI units) time_s", time_blocks[f]);
  }
  std::vector<PlacedText> title_texts, centred, rotated, legend_texts;
  for (size_t i = 0; i < title_lines.size(); ++i)
    title_texts.push_back({W / 2, H - 0.1 - title_line * (static_cast<double>(i) + 0.5), title_lines[i]});
  struct Panel {
    Box area;
    size_t facet;
    bool times;
  };
  std::vector<Panel> panels;
  // The varied field's axis label in words and unit ("HBM2e bandwidth [TB/s]"), its leading
  // words dropped while it is wider than a cell.
  std::string varied_label = fig.varied_field;
  const std::string unit_text = fig.varied_unit.empty() ? "" : " [" + x_prefix + fig.varied_unit + "]";
  while (style.text_width_in(varied_label + unit_text) * 1.1 > cw - 0.2 && varied_label.find(' ') != std::string::npos)
    varied_label = varied_label.substr(varied_label.find(' ') + 1);
  varied_label += unit_text;
  struct Rule {
    double x0, x1, y;
  };
  std::vector<Rule> rules;
  for (size_t f = 0; f < F; ++f) {
    size_t r = f / per_row, c0 = (f % per_row) * (pair ? 2 : 1);
    double y1 = H - title_h - static_cast<double>(r) * ch, y0 = y1 - ch;
    for (size_t k = 0; k < (pair ? 2u : 1u); ++k) {
      double x0 = static_cast<double>(c0 + k) * cw;
      Box a{x0 + left, y0 + bottom, x0 + cw - right, y1 - top};
      panels.push_back({a, f, k == 1});
      // Centred under the plot, but kept inside the cell (the plot sits right of the cell's centre).
      const std::string& xl = k == 1 ? varied_label : "batch";
      double half = style.text_width_in(xl) * 1.25 / 2;  // the estimate runs short on long mixed-case labels
      centred.push_back({std::min((a.x0 + a.x1) / 2, x0 + cw - 0.1 - half), y0 + 0.06 + L * 0.5, xl});
      rotated.push_back({x0 + 0.08 + L * 0.5, (a.y0 + a.y1) / 2, k == 1 ? "step time" : "samples/s"});
    }
    if (facet_titles) {
      const Box& first = panels[panels.size() - (pair ? 2 : 1)].area;
      centred.push_back({(first.x0 + panels.back().area.x1) / 2, y1 - 0.06 - L * 0.55, fig.facets[f].model});
      // A facet of two panels: a rule under its title spans both, so the title reads as theirs.
      if (pair) rules.push_back({first.x0, panels.back().area.x1, y1 - 0.06 - L * 1.15});
    }
  }
  for (const PlacedText& tx : legend.texts) legend_texts.push_back({legend_x + tx.x, legend_top + tx.y, tx.text});
  const int title_block = dat.blocks();
  write_texts(dat, "the title: x y text (inches from the lower left)", title_texts, mk);
  write_texts(dat, "facet titles and x labels: x y text", centred, mk);
  write_texts(dat, "y labels: x y text", rotated, mk);
  write_texts(dat, "the legend's texts: x y text", legend_texts, mk);
  const int rule_block = rules.empty() ? -1 : dat.begin_block("rules under the facet titles: x y (one segment per facet)");
  for (size_t i = 0; i < rules.size(); ++i)  // one blank line between segments: no line joins them
    dat.out() << (i ? "\n" : "") << gp_number(rules[i].x0) << " " << gp_number(rules[i].y) << "\n"
              << gp_number(rules[i].x1) << " " << gp_number(rules[i].y) << "\n";
  std::vector<int> sample_blocks;
  for (const LegendSample& s : legend.samples) {
    sample_blocks.push_back(dat.begin_block("a legend sample: x y (a line and its marker in the middle)"));
    double y = legend_top + s.y, x0 = legend_x + s.x0, x1 = legend_x + s.x1;
    dat.out() << gp_number(x0) << " " << gp_number(y) << "\n"
              << gp_number((x0 + x1) / 2) << " " << gp_number(y) << "\n"
              << gp_number(x1) << " " << gp_number(y) << "\n";
  }

  // ---- script ----
  const std::string image = gnuplot_output_name(style, stem);
  PlotStyle sized = style;
  sized.width_in = W;
  sized.height_in = H;
  std::ostringstream g;
  g << "# ridge sweep plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# One facet per model; colour and dash tell lines apart as the legend says. Every\n"
       "# text (title, facet titles, legend) is drawn from the .dat file, none is in here.\n\n";
  g << script_preamble(sized, image) << "\n";
  g << "data = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n";
  g << "set multiplot\nunset key\n";
  auto style_of = [](int colour, int style) {
    std::string s = colour >= 0 ? "lt " + std::to_string(colour % static_cast<int>(kOkabeIto.size()) + 1)
                                : "lc rgb '#444444' lw 1.5";
    return s + " dt " + (style >= 0 ? kDashes[static_cast<size_t>(style) % std::size(kDashes)] : "solid");
  };
  const double tic_label_w = style.text_width_in("0000") + 0.08;
  for (const Panel& p : panels) {
    const SweepFacet& f = fig.facets[p.facet];
    const std::vector<SweepLine>& lines = p.times ? f.times : f.through;
    const std::vector<int>& blocks = p.times ? time_blocks[p.facet] : through_blocks[p.facet];
    g << "\n# ---- facet " << p.facet + 1 << ", " << (p.times ? "step time against the varied field" : "samples/s against batch")
      << " ----\n";
    g << "set lmargin at " << screen(p.area.x0, W) << "; set rmargin at " << screen(p.area.x1, W) << "\n"
      << "set bmargin at " << screen(p.area.y0, H) << "; set tmargin at " << screen(p.area.y1, H) << "\n";
    g << "unset logscale\nset border\nset ytics autofreq\nset grid xtics ytics mytics\nunset mxtics\n";
    const std::vector<double>& xs = p.times ? varied_xs : batches;
    bool log_x = p.times ? spans_decades(f.times, true) : true;
    double lo = *std::min_element(xs.begin(), xs.end()), hi = *std::max_element(xs.begin(), xs.end());
    if (lo == hi) {
      lo = log_x ? lo / 2 : lo - 1;
      hi = log_x ? hi * 2 : hi + 1;
    }
    // A little room at both ends: markers clear the frame, and gnuplot keeps the end tics.
    if (log_x) {
      double pad = std::pow(hi / lo, 0.03);
      lo /= pad;
      hi *= pad;
    } else {
      double pad = (hi - lo) * 0.03;
      lo -= pad;
      hi += pad;
    }
    if (log_x) g << "set logscale x " << (p.times ? 10 : 2) << "\n";
    g << "set xrange [" << gp_number(lo) << ":" << gp_number(hi) << "]\nset xtics (";
    std::vector<double> tics = tics_at(xs, log_x, p.area.x1 - p.area.x0, tic_label_w);
    for (size_t i = 0; i < tics.size(); ++i) g << (i ? ", " : "") << gp_number(tics[i]);
    g << ")\nset format x '%g'\n";
    if (p.times) g << "xscale = " << gp_number(x_scale) << "  # the axis shows value / xscale\n";
    const std::string unit = p.times ? "s" : "";
    if (spans_decades(lines, false)) {
      g << "set logscale y 10\nset mytics 10\nset format y '%.0s %c" << unit << "'\nset autoscale y\n";
    } else {
      double ylo = 1e300, yhi = -1e300;
      for (const SweepLine& s : lines)
        for (auto [x, y] : s.points) {
          ylo = std::min(ylo, y);
          yhi = std::max(yhi, y);
        }
      LinearAxis a = nice_axis(ylo, yhi, (p.area.y1 - p.area.y0) / (L * 2.2));
      g << "set yrange [" << gp_number(a.lo) << ":" << gp_number(a.hi) << "]\nset ytics " << tic_list(a.tics, unit)
        << "\nset mytics 2\n";
    }
    g << "plot \\\n";
    for (size_t i = 0; i < lines.size(); ++i)
      g << "    data index " << blocks[i] << " using " << (p.times ? "($1/xscale)" : "1") << ":2 with linespoints "
        << style_of(static_cast<int>(lines[i].colour), static_cast<int>(lines[i].style)) << " pt "
        << kMarkers[static_cast<size_t>(lines[i].style) % std::size(kMarkers)] << " ps 0.75 title columnheader(1)" << (i + 1 < lines.size() ? ", \\\n" : "\n");
  }
  g << "\n# ---- texts and legend: one layer over the whole figure, in inches ----\n"
       "set lmargin at screen 0; set rmargin at screen 1; set bmargin at screen 0; set tmargin at screen 1\n"
       "unset logscale\nunset border\nunset tics\nunset grid\n"
    << "set xrange [0:" << gp_number(W) << "]\nset yrange [0:" << gp_number(H) << "]\nplot \\\n";
  std::vector<std::string> clauses;
  auto idx = [](int b) { return "    data index " + std::to_string(b); };
  if (!title_texts.empty())
    clauses.push_back(idx(title_block) + " using 1:2:3 with labels center font '," +
                      gp_number(style.font_size * 1.1) + "' notitle");
  clauses.push_back(idx(title_block + 1) + " using 1:2:3 with labels center notitle");
  clauses.push_back(idx(title_block + 2) + " using 1:2:3 with labels center rotate by 90 notitle");
  if (!legend_texts.empty()) clauses.push_back(idx(title_block + 3) + " using 1:2:3 with labels left notitle");
  if (rule_block >= 0) clauses.push_back(idx(rule_block) + " using 1:2 with lines lc rgb '#999999' lw 0.8 notitle");
  for (size_t i = 0; i < legend.samples.size(); ++i) {
    const LegendSample& s = legend.samples[i];
    clauses.push_back(idx(sample_blocks[i]) + " using 1:2 with lines " + style_of(s.colour, s.style) + " notitle");
    if (s.style >= 0)
      clauses.push_back(idx(sample_blocks[i]) + " every ::1::1 using 1:2 with points " + style_of(s.colour, s.style) +
                        " pt " + std::to_string(kMarkers[static_cast<size_t>(s.style) % std::size(kMarkers)]) + " ps 0.75 notitle");
  }
  for (size_t i = 0; i < clauses.size(); ++i) g << clauses[i] << (i + 1 < clauses.size() ? ", \\\n" : "\n");
  g << "unset multiplot\n";

  return make_bundle(style, stem, g.str(), dat.str());
}

}  // namespace ridge::plots
