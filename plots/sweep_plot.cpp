// The sweep plot (see sweep_plot.hpp).
#include "plots/sweep_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "hw/units.hpp"
#include "plots/data_file.hpp"
#include "sim/error.hpp"

namespace ridge::plots {

int SweepTable::column(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

SweepTable parse_sweep_csv(const std::string& text, const std::string& file) {
  SweepTable t;
  t.file = file;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, field_started = false;
  int64_t line = 1, row_line = 1;
  auto end_row = [&]() {
    row.push_back(field);
    field.clear();
    field_started = false;
    bool blank = row.size() == 1 && row[0].empty();
    if (!blank) {
      if (t.header.empty()) {
        t.header = row;
      } else if (row.size() != t.header.size()) {
        throw InputError({file, row_line, 0}, "a row of " + std::to_string(row.size()) + " fields under a header of " +
                                                  std::to_string(t.header.size()));
      } else {
        t.rows.push_back(row);
      }
    }
    row.clear();
    row_line = line;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '#' && !field_started && row.empty()) {  // a preamble line (ridge sweep writes them)
      while (i < text.size() && text[i] != '\n') ++i;
      ++line;
      row_line = line;
    } else if (c == '"' && !field_started) {
      quoted = field_started = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      field_started = false;
    } else if (c == '\n') {
      ++line;
      end_row();
    } else if (c != '\r') {
      field += c;
      field_started = true;
    }
  }
  if (quoted) throw InputError({file, row_line, 0}, "a quoted field is never closed");
  if (!field.empty() || !row.empty()) end_row();
  if (t.header.empty()) throw InputError({file, 0, 0}, "the CSV is empty", "write one with: ridge sweep SWEEP.toml --format csv");
  for (const char* need : {"hardware", "batch", "samples_per_s"})
    if (t.column(need) < 0)
      throw InputError({file, 1, 0}, std::string("the CSV has no '") + need + "' column",
                       "plot sweep reads the CSV of ridge sweep --format csv (columns hardware, batch, samples_per_s, ...)");
  // Points that could not run (unsupported dtype, does not fit) have no times to draw.
  if (int status = t.column("status"); status >= 0)
    std::erase_if(t.rows, [&](const auto& r) { return r[static_cast<size_t>(status)] != "ok"; });
  if (t.rows.empty()) throw InputError({file, 0, 0}, "the CSV has no rows that ran (status ok)");
  return t;
}

SweepTable read_sweep_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({path, 0, 0}, "cannot read the sweep CSV", "check the path");
  std::ostringstream s;
  s << in.rdbuf();
  return parse_sweep_csv(s.str(), path);
}

namespace {

struct Varied {
  double value;
  std::string unit;  // SI base unit of the field ("B/s"), empty for plain numbers
};

// A varied field's value: a plain number or a datasheet quantity ("900 GB/s").
std::optional<Varied> varied_value(const std::string& text) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && *end == '\0' && std::isfinite(v)) return Varied{v, ""};
  static const std::pair<Quantity, const char*> kinds[] = {
      {Quantity::bandwidth, "B/s"}, {Quantity::flops, "FLOP/s"}, {Quantity::ops, "OP/s"},  {Quantity::size, "B"},
      {Quantity::time, "s"},        {Quantity::frequency, "Hz"}, {Quantity::transfer_rate, "T/s"}};
  for (const auto& [kind, unit] : kinds) {
    QuantityResult r = parse_quantity(text, kind, true);
    if (r.value) return Varied{*r.value, unit};
  }
  return std::nullopt;
}

double number_at(const SweepTable& t, size_t row, int col) {
  const std::string& s = t.rows[row][static_cast<size_t>(col)];
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v))
    throw InputError({t.file, static_cast<int64_t>(row + 2), 0},
                     "column '" + t.header[static_cast<size_t>(col)] + "' is not a number (got '" + s + "')");
  return v;
}

struct Series {
  std::string title;
  std::vector<std::pair<double, double>> points;
};

// Groups rows by the values of `key_cols`; a series' title joins the values of the
// key columns that differ anywhere in the file ("a100, fp16").
std::vector<Series> group(const SweepTable& t, const std::vector<int>& key_cols, int x_col, int y_col, bool x_varied) {
  std::vector<int> shown;
  for (int c : key_cols) {
    std::set<std::string> distinct;
    for (const auto& r : t.rows) distinct.insert(r[static_cast<size_t>(c)]);
    if (distinct.size() > 1 || t.header[static_cast<size_t>(c)] == "hardware") shown.push_back(c);
  }
  std::map<std::vector<std::string>, size_t> index;
  std::vector<Series> out;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    std::vector<std::string> key;
    for (int c : key_cols) key.push_back(t.rows[i][static_cast<size_t>(c)]);
    auto [it, fresh] = index.try_emplace(key, out.size());
    if (fresh) {
      std::string title;
      for (int c : shown) {
        std::string name = t.header[static_cast<size_t>(c)];
        std::string v = t.rows[i][static_cast<size_t>(c)];
        std::string part = name == "batch" ? "batch " + v : (name.find('.') != std::string::npos ? name + " = " + v : v);
        title += (title.empty() ? "" : ", ") + part;
      }
      out.push_back({title, {}});
    }
    double x;
    if (x_varied) {
      auto v = varied_value(t.rows[i][static_cast<size_t>(x_col)]);
      if (!v)
        throw InputError({t.file, static_cast<int64_t>(i + 2), 0},
                         "cannot read '" + t.rows[i][static_cast<size_t>(x_col)] + "' in column '" +
                             t.header[static_cast<size_t>(x_col)] + "' as a number or quantity");
      x = v->value;
    } else {
      x = number_at(t, i, x_col);
    }
    out[it->second].points.push_back({x, number_at(t, i, y_col)});
  }
  for (Series& s : out) std::sort(s.points.begin(), s.points.end());
  return out;
}

void write_series(DataFile& dat, const std::vector<Series>& series, const std::string& what, TextMarkup mk) {
  for (const Series& s : series) {
    dat.begin_block(what);
    dat.out() << data_string(s.title, mk) << " \"y\"\n";
    for (auto [x, y] : s.points) dat.out() << gp_number(x) << " " << gp_number(y) << "\n";
  }
}

bool spans_decades(const std::vector<Series>& series, bool x) {
  double lo = 1e300, hi = 0;
  for (const Series& s : series)
    for (auto [a, b] : s.points) {
      double v = x ? a : b;
      if (v <= 0) return false;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  return hi / lo >= 10;
}

std::string plot_loop(int first, size_t count, const std::string& x) {
  std::ostringstream p;
  p << "set key below Left reverse samplen 2 spacing 1.1 maxcols 1\n";
  p << "plot for [i=0:" << count - 1 << "] data index (" << first << " + i) using " << x
    << ":2 with linespoints lt (i % 7 + 1) pt (i % 9 + 4) ps 0.8 title columnheader(1)\n";
  return p.str();
}

}  // namespace

PlotBundle sweep_plot(const SweepTable& t, const PlotStyle& style, const std::string& stem) {
  const TextMarkup mk = style.markup();
  int batch = t.column("batch"), sps = t.column("samples_per_s"), time = t.column("step_time_s");
  std::vector<int> ids;  // what tells runs apart, besides the x of each panel
  for (const char* c : {"model", "hardware", "hw_model", "dtype", "phase", "optimizer"})
    if (t.column(c) >= 0) ids.push_back(t.column(c));
  std::vector<int> varied;
  for (size_t c = 0; c < t.header.size(); ++c)
    if (t.header[c].find('.') != std::string::npos) varied.push_back(static_cast<int>(c));

  std::vector<int> keys1 = ids;
  keys1.insert(keys1.end(), varied.begin(), varied.end());
  std::vector<Series> through = group(t, keys1, batch, sps, false);
  std::vector<Series> times;
  std::string varied_unit, x_prefix;
  double x_scale = 1;
  if (!varied.empty() && time >= 0) {
    std::vector<int> keys2 = ids;
    keys2.push_back(batch);
    keys2.insert(keys2.end(), varied.begin() + 1, varied.end());
    times = group(t, keys2, varied[0], time, true);
    varied_unit = varied_value(t.rows[0][static_cast<size_t>(varied[0])])->unit;
    // The varied axis in the SI prefix of its largest value: "900 GB/s .. 3 TB/s" as 0.9 .. 3 [TB/s].
    double hi = 0;
    for (const Series& s : times)
      for (auto [x, y] : s.points) hi = std::max(hi, std::fabs(x));
    static const char* const prefixes[] = {"", "k", "M", "G", "T", "P"};
    for (int i = 5; i > 0; --i)
      if (!varied_unit.empty() && hi >= std::pow(1000.0, i)) {
        x_scale = std::pow(1000.0, i);
        x_prefix = prefixes[i];
        break;
      }
  }

  DataFile dat;
  dat.comment("ridge sweep plot data; one block per line of the plot, its first row the line's title");
  dat.out() << "\n";
  write_series(dat, through, "samples/s against batch: batch samples_per_s", mk);
  write_series(dat, times, "step time against the varied field: value (SI units) time_s", mk);

  const std::string image = stem + extension_of(style.format);
  std::ostringstream g;
  g << "# ridge sweep plot. Regenerate the image: run gnuplot THIS.gp in this folder.\n"
       "# Every line's title is the first row of its block in the .dat file.\n\n";
  g << script_preamble(style, image) << "\n";
  g << "data = " << gp_string(stem + ".dat", TextMarkup::plain) << "\n";
  std::string title = "Sweep " + std::filesystem::path(t.file).filename().string();
  if (!times.empty()) {
    g << "set multiplot layout 1,2 title " << gp_string(title, mk) << "\n";
  } else {
    g << "set title " << gp_string(title, mk) << "\n";
  }
  g << "\n# ---- samples/s against batch ----\n"
       "set logscale x 2\n"
       "set format x '%g'\n"
    << (spans_decades(through, false) ? "set logscale y 10\nset mytics 10\n" : "") <<
       "set format y '%.0s %c'\n"
       "set xlabel 'Batch'\n"
       "set ylabel 'Throughput [samples/s]'\n"
    << plot_loop(0, through.size(), "1");
  if (!times.empty()) {
    std::string field = t.header[static_cast<size_t>(varied[0])];
    g << "\n# ---- step time against the varied descriptor field ----\n"
         "unset logscale\n"
      << (spans_decades(times, true) ? "set logscale x 10\n" : "")
      << (spans_decades(times, false) ? "set logscale y 10\n" : "")
      << "xscale = " << gp_number(x_scale) << "  # the axis shows value / xscale\n"
         "set format x '%g'\n"
      << (spans_decades(times, false) ? "set format y '%.0s %cs'\n" : "set format y '%.1s %cs'\n") << "set xlabel "
      << gp_string(field + " [" + x_prefix + varied_unit + "]", mk) << "\n"
      << "set ylabel 'Step time'\n"
      << plot_loop(static_cast<int>(through.size()), times.size(), "($1/xscale)") << "unset multiplot\n";
  }

  return make_bundle(style, stem, g.str(), dat.str());
}

}  // namespace ridge::plots
