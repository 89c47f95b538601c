// The device comparison as grouped bars (see compare_plot.hpp).
#include "plots/compare_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <sstream>

#include "plots/data_file.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_text.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct DeviceBars {
  double value[3] = {kNaN, kNaN, kNaN};     // throughput, per $, per J
  double relative[3] = {kNaN, kNaN, kNaN};  // over the first device's
};

std::vector<DeviceBars> bars_of(const ComparisonResult& r) {
  std::vector<DeviceBars> out;
  for (const ComparedDevice& d : r.devices) {
    DeviceBars b;
    b.value[0] = r.token_phase ? d.tokens_per_s : d.samples_per_s;
    if (d.samples_per_usd) b.value[1] = *d.samples_per_usd * (r.token_phase ? d.tokens_per_s / d.samples_per_s : 1.0);
    if (d.joules_per_sample && *d.joules_per_sample > 0)
      b.value[2] = (r.token_phase ? d.tokens_per_s / d.samples_per_s : 1.0) / *d.joules_per_sample;
    out.push_back(b);
  }
  for (DeviceBars& b : out)
    for (int k = 0; k < 3; ++k)
      if (std::isfinite(b.value[k]) && std::isfinite(out.front().value[k]) && out.front().value[k] > 0)
        b.relative[k] = b.value[k] / out.front().value[k];
  return out;
}

// "12.6 M", "299", "0.0431": thousands and up with an SI prefix, smaller values as they are
// (a prefix like "m" would read as metres on a per-joule bar).
std::string label_of(double v) {
  if (!std::isfinite(v)) return "n/a";
  if (std::fabs(v) >= 999.5) return si_label(v, "");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

PlotBundle compare_plot(const ComparisonResult& r, const PlotStyle& style, const std::string& stem) {
  if (r.devices.empty()) throw RunError("plot compare: no devices");
  const TextMarkup mk = style.markup();
  const size_t n = r.devices.size();
  const std::vector<DeviceBars> bars = bars_of(r);
  const std::string unit = r.token_phase ? "tokens" : "samples";
  const std::string first = r.devices.front().hardware;
  const std::string basis = r.basis.kind == CostBasis::Kind::cloud ? "cloud $" : "$ (purchase)";
  const std::string groups[3] = {unit + "/s", unit + " per " + basis, unit + " per joule"};
  std::vector<std::string> title = {r.model + ":",
                                    "batch " + std::to_string(r.settings.batch) + ",",
                                    std::string(dtype_name(r.settings.dtype)) + ",",
                                    std::string(phase_name(r.settings.phase)) + ";",
                                    "bars relative to " + first + ",",
                                    "values above them"};
  std::vector<std::string> key;
  for (const ComparedDevice& d : r.devices) key.push_back(d.hardware);
  std::vector<std::string> notes;
  const char* missing[3] = {nullptr, "[price] for its cost basis", "[power]"};
  for (size_t i = 0; i < n; ++i)
    for (int k = 1; k < 3; ++k)
      if (!std::isfinite(bars[i].relative[k]))
        notes.push_back(r.devices[i].hardware + ": no bar for " + groups[k] + " (" +
                        (std::isfinite(bars[i].value[k]) ? "the first device has none" : std::string("its descriptor has no ") + missing[k]) + ")");

  double top = 1;
  for (const DeviceBars& b : bars)
    for (double v : b.relative)
      if (std::isfinite(v)) top = std::max(top, v);

  // ---- frame: three groups across, the ratio up ----
  const double line = style.line_in();
  PlotStyle sized = style;
  Frame f;
  f.log_x = f.log_y = false;
  f.left_in = 0.1 + line + 0.1 + style.text_width_in("10.0") + 0.1;
  f.right_in = 0.2;
  f.bottom_in = 0.15 + 1.4 * line;
  if (!style.size_given) {  // every bar at least a text line wide
    double groups_width = 3 * (static_cast<double>(n) * line * 1.3 + 0.3);
    sized.width_in = std::max(style.width_in, f.left_in + f.right_in + groups_width);
  }
  // A preset fixes the width, not the height: the figure grows until the bars have room
  // for their values (a column's key and title at 9 pt took it all).
  const double label_in = style.text_width_in("0000000") + 0.1;
  if (style.size_given && !style.height_given)
    sized.height_in = std::max(sized.height_in, header_band(sized, title, key).top_in + f.bottom_in + label_in + 1.2);
  const HeaderBand band = header_band(sized, title, key);
  f.width_in = sized.width_in;
  f.height_in = sized.height_in;
  f.top_in = band.top_in;
  f.x_min = 0.5;
  f.x_max = 3.5;
  f.y_min = 0;
  // Room above the tallest bar for its value, set upright: about 7 characters.
  Box area = f.plot_area();
  if (area.y1 - area.y0 < label_in + 0.6 || area.x1 - area.x0 < 1.0)
    throw InputError({}, too_small_message(style, std::to_string(n) + " devices' bars"),
                     style.height_given ? "make the figure larger" : "use a smaller --font-size");
  f.y_max = top * (area.y1 - area.y0) / (area.y1 - area.y0 - label_in);
  const double slot = 0.8 / static_cast<double>(n);
  // The group names under the axis: the long forms where each fits its third of the plot
  // (a column's 3.3 in at 9 pt does not hold "samples per $ (purchase)"), else short ones.
  std::string tics[3] = {groups[0], groups[1], groups[2]};
  const double group_in = (area.x1 - area.x0) / 3;
  for (const std::string& t : tics)
    if (style.text_width_in(t) > 0.9 * group_in) {
      tics[1] = r.basis.kind == CostBasis::Kind::cloud ? "per cloud $" : "per $";
      tics[2] = "per joule";
      break;
    }

  // ---- data ----
  DataFile dat;
  dat.comment("ridge device comparison plot data: " + r.model + ", " + unit + " per second, per dollar (" + basis +
              ") and per joule");
  dat.comment("relative columns are over the first device's (" + first + "); NaN: unknown (no [price] or [power])");
  dat.out() << "\n";
  int block = dat.begin_block("devices in --hw order: index throughput per_usd per_joule throughput_rel per_usd_rel "
                              "per_joule_rel hardware throughput_label per_usd_label per_joule_label");
  for (size_t i = 0; i < n; ++i) {
    const DeviceBars& b = bars[i];
    dat.out() << i;
    for (double v : b.value) dat.out() << " " << (std::isfinite(v) ? gp_number(v) : "NaN");
    for (double v : b.relative) dat.out() << " " << (std::isfinite(v) ? gp_number(v) : "NaN");
    dat.out() << " " << data_string(r.devices[i].hardware, mk);
    for (double v : b.value) dat.out() << " " << data_string(label_of(v), mk);
    dat.out() << "\n";
  }

  // ---- script ----
  std::ostringstream g;
  g << "# ridge device comparison plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# Three groups (throughput, per dollar, per joule); in each, one bar per device, its height\n"
       "# over the first device's, its value above it. Devices differ by colour and fill pattern.\n\n";
  g << script_preamble(sized, gnuplot_output_name(style, stem)) << "\n";
  g << "# ---- axes ----\n"
       "set format y '%g'\n"
       "set ytics nomirror\n"
       "set xtics scale 0 nomirror (";
  for (int k = 0; k < 3; ++k) g << (k ? ", " : "") << gp_string(tics[k], mk) << " " << k + 1;
  g << ")\n"
       "set grid ytics noxtics nomxtics nomytics\n";
  g << f.gnuplot_margins();
  g << axis_titles(sized, f, "", "relative to " + first);
  g << band.script;
  g << "set boxwidth " << gp_number(slot * 0.9) << " absolute\n"
    << "data = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n"
    << "slot = " << gp_number(slot) << "  # each device's share of a group's width\n\n";
  g << "# One clause per device (its row of the data), drawn in each group: x = group - 0.4 + (i + 0.5) slot.\n"
       "plot \\\n";
  for (size_t i = 0; i < n; ++i) {
    const std::string row = "    data index " + std::to_string(block) + " every ::" + std::to_string(i) + "::" + std::to_string(i);
    const std::string x = "(K - 0.4 + (" + std::to_string(i) + " + 0.5) * slot)";
    const int pattern = kComparePatterns[i % std::size(kComparePatterns)];
    for (int k = 0; k < 3; ++k) {
      std::string xk = x;
      xk.replace(xk.find('K'), 1, std::to_string(k + 1));
      g << row << " using " << xk << ":" << 5 + k << " with boxes lt " << (i % 7) + 1 << " fill pattern " << pattern
        << " border lc rgb '#222222' " << (k == 0 ? "title " + gp_string(r.devices[i].hardware, mk) : "notitle") << ", \\\n";
      g << row << " using " << xk << ":" << 5 + k << ":" << 9 + k << " with labels rotate by 90 left offset 0,0.3 notitle"
        << (i + 1 == n && k == 2 ? "\n" : ", \\\n");
    }
  }
  PlotBundle bundle = make_bundle(style, stem, g.str(), dat.str());
  bundle.notes = notes;
  return bundle;
}

}  // namespace ridge::plots
