// The sweep plot (see sweep_plot.hpp): the figure's plan laid out in inches (a grid of
// panels, the title, the legend), the data file and the gnuplot script.
#include "plots/sweep_plot.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "plots/axis_ticks.hpp"
#include "plots/data_file.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_text.hpp"
#include "plots/sweep_legend.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

namespace {

// The text of a letter page with 1-inch margins is 9 in tall: LaTeX does not break a
// picture across pages, so a .tex figure taller than that says so.
constexpr double kPageTextHeightIn = 9.0;

std::string screen(double in, double total) { return "screen " + gp_number(in / total); }

// Texts at the figure's font size or (points > 0) at `points`.
void write_texts(DataFile& dat, const std::string& what, const std::vector<PlacedText>& texts, TextMarkup mk,
                 double points = 0) {
  dat.begin_block(what);
  for (const PlacedText& t : texts)
    dat.out() << gp_number(t.x) << " " << gp_number(t.y) << " "
              << (points > 0 ? data_string(t.text, mk, points) : data_string(t.text, mk)) << "\n";
}

// The figure's grid in inches: facets in rows, each facet's panels (one per quantity)
// side by side, or, in a figure too narrow for that (--style column), under each other;
// the title above, the legend below or in the last row's empty cells.
struct Grid {
  double W = 0, H = 0;
  size_t per_row = 1, cols = 1, rows = 1;
  bool stacked = false;  // a facet's panels in a column, one row each (a narrow figure)
  double cw = 0, ch = 0;  // a cell
  double left = 0, right = 0, top = 0, bottom = 0;  // the plot area inside a cell
  std::vector<std::string> title_lines;
  double title_line = 0, title_h = 0;
  LegendLayout legend;
  double legend_x = 0, legend_top = 0;
  // The cell (row, column) of facet f's quantity q.
  std::pair<size_t, size_t> cell_of(size_t f, size_t q, size_t Q) const {
    if (stacked) return {f * ((Q + cols - 1) / cols) + q / cols, q % cols};
    return {f / per_row, (f % per_row) * Q + q};
  }
};

Grid grid_of(const SweepFigure& fig, const PlotStyle& style) {
  Grid g;
  const double L = style.line_in();
  const size_t F = fig.facets.size(), Q = fig.y.size();
  const bool facet_titles = F > 1;  // one facet: its model is in the figure's title
  // Inside a cell: y label, tic labels, plot; under it tic labels and x label; above it the facet title.
  g.left = 0.08 + L + 0.1 + style.text_width_in("250 ms") * 1.1 + 0.1;
  g.right = 0.16;
  g.top = (facet_titles ? L * 1.25 : 0.0) + 0.12;
  // Under it: the tic labels, and the x label's centre 0.06 + 1.6 lines below the plot
  // (as the per-layer chart's), its foot half a line lower, then 0.06 in to the cell's edge.
  g.bottom = 0.06 + 2.1 * L + 0.06;
  constexpr double kMinPlotIn = 0.9;
  g.W = style.width_in;
  const size_t fit = std::max<size_t>(1, static_cast<size_t>(g.W / (g.left + g.right + kMinPlotIn)));
  g.stacked = Q > fit;
  if (g.stacked) {
    g.cols = fit;
    g.rows = F * ((Q + fit - 1) / fit);
  } else {
    g.per_row = Q >= 2 || F == 1 ? 1 : std::min<size_t>(2, fit);
    g.cols = g.per_row * Q;
    g.rows = (F + g.per_row - 1) / g.per_row;
  }
  g.title_lines = style.title ? wrap_phrases(style, fig.title, (g.W - 0.3) / 1.1) : std::vector<std::string>{};
  g.title_line = L * 1.1 * 1.05;
  g.title_h = g.title_lines.empty() ? 0.1 : 0.1 + g.title_line * static_cast<double>(g.title_lines.size()) + 0.08;
  g.cw = g.W / static_cast<double>(g.cols);
  // The legend goes below the grid or, when the last row has empty cells it fits in, there.
  const size_t free_cells = g.stacked ? 0 : (g.per_row - F % g.per_row) % g.per_row * Q;
  const double free_x = g.W - static_cast<double>(free_cells) * g.cw;
  g.legend = layout_legend(style, fig.legend, g.W);
  LegendLayout in_cells = layout_legend(style, fig.legend, g.W - free_x);
  // A cell's height: given by --size; else as for a screen, or at a preset about 0.6 of its width (0.5 stacked).
  const double natural = style.size_given ? std::clamp(g.cw * (g.stacked ? 0.5 : 0.6), 1.5, 2.4) : g.cols == 1 ? 3.0 : 2.2;
  g.ch = style.height_given ? (style.height_in - g.title_h) / static_cast<double>(g.rows) : natural;
  const bool legend_in_cells = free_cells > 0 && !fig.legend.empty() && in_cells.height <= g.ch - 0.3;
  if (legend_in_cells) g.legend = in_cells;
  const double legend_below = legend_in_cells ? 0.0 : g.legend.height;
  if (style.height_given) {
    g.H = style.height_in;
    g.ch = (g.H - g.title_h - legend_below) / static_cast<double>(g.rows);
  } else {
    g.H = g.title_h + static_cast<double>(g.rows) * g.ch + legend_below;
  }
  if (g.cw - g.left - g.right < kMinPlotIn || g.ch - g.top - g.bottom < kMinPlotIn) {
    throw InputError({}, too_small_message(style, std::to_string(F * Q) + (F * Q == 1 ? " panel" : " panels")),
                     style.height_given ? "leave --size out (the figure grows with its panels), pick models with --where "
                                          "model=NAME, or draw one quantity with --y"
                                        : "use a smaller --font-size or a wider --style");
  }
  // In the empty cells: at the top of the last row, from the first empty cell.
  g.legend_top = g.H - g.title_h - static_cast<double>(g.rows - (legend_in_cells ? 1 : 0)) * g.ch -
                 (legend_in_cells ? 0.25 : 0.0);
  g.legend_x = legend_in_cells ? free_x + 0.2 : 0.0;
  return g;
}

// An axis shown in the SI prefix of its largest value: "900 GB/s .. 3 TB/s" as 0.9 .. 3
// under "HBM2e bandwidth [TB/s]". Counts and rates keep their values (and no unit).
struct XScale {
  double divide = 1;
  std::string label;
};

XScale x_scale_of(const SweepAxis& x) {
  XScale s;
  std::string prefix;
  static const char* const prefixes[] = {"", "k", "M", "G", "T", "P"};
  const double hi = std::max(std::fabs(x.lo), std::fabs(x.hi));
  for (int i = 5; i > 0; --i)
    if (!x.unit.empty() && hi >= std::pow(1000.0, i)) {
      s.divide = std::pow(1000.0, i);
      prefix = prefixes[i];
      break;
    }
  s.label = x.title + (x.unit.empty() ? "" : " [" + prefix + x.unit + "]");
  return s;
}

struct Panel {
  Box area;
  size_t facet, quantity;
  std::vector<int> blocks;  // its lines' blocks in the data file
};

// The gnuplot commands that set one axis: the same range and scale on every panel it is in.
std::string x_axis_script(const SweepFigure& fig, const XScale& xs, const Panel& p, const PlotStyle& style) {
  std::ostringstream g;
  std::vector<double> values;
  for (const SweepFacet& f : fig.facets)
    for (const auto& lines : f.panels)
      for (const SweepLine& s : lines)
        for (auto [x, y] : s.points) values.push_back(x / xs.divide);
  const bool log = fig.x.log;
  double lo = fig.x.lo / xs.divide, hi = fig.x.hi / xs.divide;
  if (lo == hi) {
    lo = log || lo > 0 ? lo / 2 : lo - 1;
    hi = log || hi > 0 ? hi * 2 : hi + 1;
  }
  // A little room at both ends: markers clear the frame, and gnuplot keeps the end tics.
  if (log) {
    double pad = std::pow(hi / lo, 0.03);
    lo /= pad;
    hi *= pad;
  } else {
    double pad = (hi - lo) * 0.03;
    lo -= pad;
    hi += pad;
  }
  // Counts double (batch 1, 2, 4, ...): base 2; other quantities base 10.
  if (log) g << "set logscale x " << (xs.divide == 1 && fig.x.unit.empty() ? 2 : 10) << "\n";
  g << "set xrange [" << gp_number(lo) << ":" << gp_number(hi) << "]\nset xtics (";
  double label_w = 0;  // the widest tic label ('%g' of a value), with a gap
  for (double v : values) label_w = std::max(label_w, style.text_width_in(gp_number(v)));
  std::vector<double> tics = tics_at(values, log, p.area.x1 - p.area.x0, label_w + 0.06);
  for (size_t i = 0; i < tics.size(); ++i) g << (i ? ", " : "") << gp_number(tics[i]);
  g << ")\nset format x '%g'\n";
  g << "xscale = " << gp_number(xs.divide) << "  # the axis shows value / xscale\n";
  return g.str();
}

// A linear axis: its tics (about one per 2.2 lines of a panel `height_in` tall) and, for
// a quantity with a unit, the one SI prefix its title names ("step time [ms]" over 0, 1,
// 2, 3, 4: never "0 s" beside "2 ms").
struct YScale {
  LinearAxis axis;
  SiScale scale;
};

YScale y_scale_of(const SweepAxis& y, double height_in, const PlotStyle& style) {
  YScale s{nice_axis(y.lo, y.hi, height_in / (style.line_in() * 2.2)), {}};
  if (!y.unit.empty()) s.scale = si_scale_of(std::max(std::fabs(s.axis.tics.front()), std::fabs(s.axis.tics.back())));
  return s;
}

// The y axis's title: the schema's, and on a linear axis with a unit, that unit with its prefix.
std::string y_title(const SweepAxis& y, double height_in, const PlotStyle& style) {
  if (y.log || y.unit.empty()) return y.title;
  return y.title + " [" + y_scale_of(y, height_in, style).scale.prefix + y.unit + "]";
}

std::string y_axis_script(const SweepAxis& y, const Panel& p, const PlotStyle& style) {
  std::ostringstream g;
  if (y.log) {
    double lo = std::pow(10.0, std::floor(std::log10(y.lo) + 1e-9)), hi = std::pow(10.0, std::ceil(std::log10(y.hi) - 1e-9));
    if (hi / lo < 10) hi = lo * 10;
    g << "set logscale y 10\nset mytics 10\nset format y '%.0s %c" << y.unit << "'\nset yrange [" << gp_number(lo) << ":"
      << gp_number(hi) << "]\n";
  } else {
    const YScale s = y_scale_of(y, p.area.y1 - p.area.y0, style);
    g << "set yrange [" << gp_number(s.axis.lo) << ":" << gp_number(s.axis.hi) << "]\nset ytics "
      << tic_list(s.axis.tics, s.scale.divide) << "\nset mytics 2\n";
  }
  return g.str();
}

std::string line_style(int colour, int style) {
  std::string s = colour >= 0 ? "lt " + std::to_string(colour % static_cast<int>(kOkabeIto.size()) + 1)
                              : "lc rgb '#444444' lw 1.5";
  return s + " dt " + (style >= 0 ? kDashes[static_cast<size_t>(style) % std::size(kDashes)] : "solid");
}

}  // namespace

PlotBundle sweep_plot(const SweepTable& table, const PlotStyle& style, const std::string& stem, const SweepChoice& choice) {
  const SweepTable t = with_device_names(table);
  const SweepFigure fig = plan_sweep_figure(t, choice);
  const TextMarkup mk = style.markup();
  const double L = style.line_in();
  const size_t F = fig.facets.size(), Q = fig.y.size();
  const Grid grid = grid_of(fig, style);
  const double W = grid.W, H = grid.H;
  const XScale xs = x_scale_of(fig.x);

  // ---- data: the lines, panel by panel, then every text the figure shows ----
  DataFile dat;
  dat.comment("ridge sweep plot data; one block per line of the plot, its first row the line's label and model,");
  dat.comment("then the facets' texts and the legend; every name is here, none in the script");
  dat.comment("x: " + fig.x.key + (fig.x.unit.empty() ? "" : " [" + fig.x.unit + "]") + "; colour: " +
              (fig.colour.empty() ? "none" : fig.colour));
  dat.out() << "\n";
  std::vector<Panel> panels;
  std::vector<PlacedText> title_texts, centred, rotated, legend_texts;
  struct Rule {
    double x0, x1, y;
  };
  std::vector<Rule> rules;
  for (size_t f = 0; f < F; ++f) {
    for (size_t q = 0; q < Q; ++q) {
      const auto [r, c] = grid.cell_of(f, q, Q);
      const double y1 = H - grid.title_h - static_cast<double>(r) * grid.ch, y0 = y1 - grid.ch;
      const double x0 = static_cast<double>(c) * grid.cw;
      Panel p{{x0 + grid.left, y0 + grid.bottom, x0 + grid.cw - grid.right, y1 - grid.top}, f, q, {}};
      const std::string what = fig.y[q].key + " against " + fig.x.key + ": " + fig.x.key +
                               (fig.x.unit.empty() ? "" : " [" + fig.x.unit + "]") + " " + fig.y[q].key +
                               (fig.y[q].unit.empty() ? "" : " [" + fig.y[q].unit + "]");
      for (const SweepLine& s : fig.facets[f].panels[q]) {
        p.blocks.push_back(dat.begin_block(what));
        dat.out() << data_string(s.label, mk) << " " << data_string(fig.facets[f].model, mk) << "\n";
        for (auto [x, y] : s.points) dat.out() << gp_number(x) << " " << gp_number(y) << "\n";
      }
      // Centred under the plot, but kept inside the cell (the plot sits right of the cell's centre).
      double half = style.text_width_in(xs.label) * 1.25 / 2;  // the estimate runs short on long mixed-case labels
      centred.push_back({std::min((p.area.x0 + p.area.x1) / 2, x0 + grid.cw - 0.1 - half), y0 + 0.06 + L * 0.5, xs.label});
      rotated.push_back({x0 + 0.08 + L * 0.5, (p.area.y0 + p.area.y1) / 2, y_title(fig.y[q], p.area.y1 - p.area.y0, style)});
      panels.push_back(std::move(p));
      // A facet's title over its row (each row of a stacked facet); over several panels
      // a rule under it spans them, so the title reads as theirs.
      const bool row_ends = q + 1 == Q || grid.cell_of(f, q + 1, Q).first != r;
      if (F > 1 && row_ends) {
        size_t first = panels.size() - 1;
        while (first > 0 && panels[first - 1].facet == f && grid.cell_of(f, panels[first - 1].quantity, Q).first == r) --first;
        const Box& a = panels[first].area;
        centred.push_back({(a.x0 + panels.back().area.x1) / 2, y1 - 0.06 - L * 0.55, fig.facets[f].model});
        if (first + 1 < panels.size()) rules.push_back({a.x0, panels.back().area.x1, y1 - 0.06 - L * 1.15});
      }
    }
  }
  for (size_t i = 0; i < grid.title_lines.size(); ++i)
    title_texts.push_back({W / 2, H - 0.1 - grid.title_line * (static_cast<double>(i) + 0.5), grid.title_lines[i]});
  for (const PlacedText& tx : grid.legend.texts)
    legend_texts.push_back({grid.legend_x + tx.x, grid.legend_top + tx.y, tx.text});
  const int title_block = dat.blocks();
  write_texts(dat, "the title: x y text (inches from the lower left)", title_texts, mk, style.font_size * 1.1);
  write_texts(dat, "facet titles and x labels: x y text", centred, mk);
  write_texts(dat, "y labels: x y text", rotated, mk);
  write_texts(dat, "the legend's texts: x y text", legend_texts, mk);
  const int rule_block = rules.empty() ? -1 : dat.begin_block("rules under the facet titles: x y (one segment per facet)");
  for (size_t i = 0; i < rules.size(); ++i)  // one blank line between segments: no line joins them
    dat.out() << (i ? "\n" : "") << gp_number(rules[i].x0) << " " << gp_number(rules[i].y) << "\n"
              << gp_number(rules[i].x1) << " " << gp_number(rules[i].y) << "\n";
  std::vector<int> sample_blocks;
  for (const LegendSample& s : grid.legend.samples) {
    sample_blocks.push_back(dat.begin_block("a legend sample: x y (a line and its marker in the middle)"));
    double y = grid.legend_top + s.y, x0 = grid.legend_x + s.x0, x1 = grid.legend_x + s.x1;
    dat.out() << gp_number(x0) << " " << gp_number(y) << "\n"
              << gp_number((x0 + x1) / 2) << " " << gp_number(y) << "\n"
              << gp_number(x1) << " " << gp_number(y) << "\n";
  }

  // ---- script ----
  PlotStyle sized = style;
  sized.width_in = W;
  sized.height_in = H;
  std::ostringstream g;
  g << "# ridge sweep plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# One facet per model; colour and dash tell lines apart as the legend says. Every\n"
       "# text (title, facet titles, legend) is drawn from the .dat file, none is in here.\n\n";
  g << script_preamble(sized, gnuplot_output_name(style, stem)) << "\n";
  g << "data = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n";
  g << "set multiplot\nunset key\n";
  for (const Panel& p : panels) {
    const std::vector<SweepLine>& lines = fig.facets[p.facet].panels[p.quantity];
    g << "\n# ---- facet " << p.facet + 1 << ", " << fig.y[p.quantity].key << " against " << fig.x.key << " ----\n";
    g << "set lmargin at " << screen(p.area.x0, W) << "; set rmargin at " << screen(p.area.x1, W) << "\n"
      << "set bmargin at " << screen(p.area.y0, H) << "; set tmargin at " << screen(p.area.y1, H) << "\n";
    g << "unset logscale\nset border\nset ytics autofreq\nset grid xtics ytics mytics\nunset mxtics\n";
    g << x_axis_script(fig, xs, p, style) << y_axis_script(fig.y[p.quantity], p, style);
    g << "plot \\\n";
    for (size_t i = 0; i < lines.size(); ++i)
      g << "    data index " << p.blocks[i] << " using ($1/xscale):2 with linespoints "
        << line_style(static_cast<int>(lines[i].colour), static_cast<int>(lines[i].style)) << " pt "
        << kMarkers[lines[i].style % std::size(kMarkers)] << " ps 0.75*marker title columnheader(1)"
        << (i + 1 < lines.size() ? ", \\\n" : "\n");
  }
  g << "\n# ---- texts and legend: one layer over the whole figure, in inches ----\n"
       "set lmargin at screen 0; set rmargin at screen 1; set bmargin at screen 0; set tmargin at screen 1\n"
       "unset logscale\nunset border\nunset tics\nunset grid\n"
    << "set xrange [0:" << gp_number(W) << "]\nset yrange [0:" << gp_number(H) << "]\nplot \\\n";
  std::vector<std::string> clauses;
  auto idx = [](int b) { return "    data index " + std::to_string(b); };
  if (!title_texts.empty())
    clauses.push_back(idx(title_block) + " using 1:2:3 with labels center font '," + gp_number(style.font_size * 1.1) +
                      "' notitle");
  clauses.push_back(idx(title_block + 1) + " using 1:2:3 with labels center notitle");
  clauses.push_back(idx(title_block + 2) + " using 1:2:3 with labels center rotate by 90 notitle");
  if (!legend_texts.empty()) clauses.push_back(idx(title_block + 3) + " using 1:2:3 with labels left notitle");
  if (rule_block >= 0) clauses.push_back(idx(rule_block) + " using 1:2 with lines lc rgb '#999999' lw 0.8 notitle");
  for (size_t i = 0; i < grid.legend.samples.size(); ++i) {
    const LegendSample& s = grid.legend.samples[i];
    clauses.push_back(idx(sample_blocks[i]) + " using 1:2 with lines " + line_style(s.colour, s.style) + " notitle");
    if (s.style >= 0)
      clauses.push_back(idx(sample_blocks[i]) + " every ::1::1 using 1:2 with points " + line_style(s.colour, s.style) +
                        " pt " + std::to_string(kMarkers[static_cast<size_t>(s.style) % std::size(kMarkers)]) +
                        " ps 0.75*marker notitle");
  }
  for (size_t i = 0; i < clauses.size(); ++i) g << clauses[i] << (i + 1 < clauses.size() ? ", \\\n" : "\n");
  g << "unset multiplot\n";

  PlotBundle bundle = make_bundle(style, stem, g.str(), dat.str());
  if (style.format == ImageFormat::tex && H > kPageTextHeightIn) {
    std::ostringstream note;
    note << "the figure is " << std::fixed << std::setprecision(1) << H << " in tall, more than a page's text ("
         << std::setprecision(0) << kPageTextHeightIn << " in on letter with 1-inch margins): pick models with "
         << "--where model=NAME, or give --size WxH";
    bundle.notes.push_back(note.str());
  } else if (!style.height_given && style.max_height_in() > 0 && H > style.max_height_in()) {
    std::ostringstream note;
    note << "the figure is " << std::fixed << std::setprecision(1) << H << " in tall, more than a --style " << style.preset
         << " figure's " << style.max_height_in() << " in: pick models with --where model=NAME, or one quantity with --y";
    bundle.notes.push_back(note.str());
  }
  return bundle;
}

}  // namespace ridge::plots
