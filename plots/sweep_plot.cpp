// The sweep plot (see sweep_plot.hpp).
#include "plots/sweep_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "sim/base/units.hpp"
#include "plots/data_file.hpp"
#include "plots/label_layout.hpp"
#include "plots/plot_text.hpp"
#include "sim/base/close_names.hpp"
#include "sim/base/error.hpp"

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

const std::string& cell(const SweepTable& t, size_t row, int col) { return t.rows[row][static_cast<size_t>(col)]; }
const std::string& name_of(const SweepTable& t, int col) { return t.header[static_cast<size_t>(col)]; }

// A column as a reader names it: a [[vary]] key path without its first part, in words
// ("memory.HBM2e.bandwidth" -> "HBM2e bandwidth"); other columns as they are.
std::string title_of(const SweepTable& t, int col) {
  std::string key = name_of(t, col);
  if (std::count(key.begin(), key.end(), '.') >= 2) key = key.substr(key.find('.') + 1);
  if (key.find('.') == std::string::npos) return key;
  std::replace(key.begin(), key.end(), '.', ' ');
  return key;
}

constexpr double kMaxPlotted = 1e300;

double number_at(const SweepTable& t, size_t row, int col) {
  const std::string& s = cell(t, row, col);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0' || !std::isfinite(v))
    throw InputError({t.file, static_cast<int64_t>(row + 2), 0},
                     "column '" + name_of(t, col) + "' is not a number (got '" + s + "')");
  // Batches, samples/s and step times are positive; beyond 1e300 axis arithmetic overflows.
  if (!(v > 0 && v <= kMaxPlotted))
    throw InputError({t.file, static_cast<int64_t>(row + 2), 0},
                     "column '" + name_of(t, col) + "' must be a positive number up to 1e300 (got '" + s + "')",
                     "plot sweep draws the CSV of ridge sweep; check the hand-edited rows");
  return v;
}

double x_at(const SweepTable& t, size_t row, int col, bool varied) {
  if (!varied) return number_at(t, row, col);
  auto v = varied_value(cell(t, row, col));
  if (!v)
    throw InputError({t.file, static_cast<int64_t>(row + 2), 0},
                     "cannot read '" + cell(t, row, col) + "' in column '" + name_of(t, col) + "' as a number or quantity");
  if (std::fabs(v->value) > kMaxPlotted)
    throw InputError({t.file, static_cast<int64_t>(row + 2), 0},
                     "column '" + name_of(t, col) + "' is beyond 1e300 in size (got '" + cell(t, row, col) + "')");
  return v->value;
}

// A column's distinct values in the order the rows first show them (the sweep's order).
std::vector<std::string> distinct(const SweepTable& t, int col) {
  std::vector<std::string> out;
  if (col < 0) return out;
  std::set<std::string> seen;
  for (size_t i = 0; i < t.rows.size(); ++i)
    if (seen.insert(cell(t, i, col)).second) out.push_back(cell(t, i, col));
  return out;
}

bool varies(const SweepTable& t, int col) { return distinct(t, col).size() > 1; }

std::string joined(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// The columns the figure reads.
struct Columns {
  int model = -1, batch = -1, sps = -1, time = -1;
  std::vector<int> ids;     // hardware, hw_model, dtype, phase, optimizer: those present
  std::vector<int> varied;  // descriptor fields (a '.' in the name)
  bool has_times() const { return !varied.empty() && time >= 0; }
};

Columns columns_of(const SweepTable& t) {
  Columns c;
  c.model = t.column("model");
  c.batch = t.column("batch");
  c.sps = t.column("samples_per_s");
  c.time = t.column("time_s");
  for (const char* n : {"hardware", "hw_model", "dtype", "phase", "optimizer"})
    if (t.column(n) >= 0) c.ids.push_back(t.column(n));
  for (size_t i = 0; i < t.header.size(); ++i)
    if (t.header[i].find('.') != std::string::npos) c.varied.push_back(static_cast<int>(i));
  return c;
}

// What one kind of panel tells its lines apart by: a colour column and dash/marker columns.
struct Keying {
  int colour = -1;
  std::vector<int> style;
};

// Colour is the hardware or, with one hardware, the first id column that varies, so
// that both kinds of panel colour alike; only when no id column varies does it go to
// the panel's own columns (the varied field, or batch). Dash and marker take the rest.
Keying keying(const SweepTable& t, const Columns& c, bool times) {
  std::vector<int> candidates = c.ids;
  if (times) {
    candidates.push_back(c.batch);
    candidates.insert(candidates.end(), c.varied.begin() + 1, c.varied.end());
  } else {
    candidates.insert(candidates.end(), c.varied.begin(), c.varied.end());
  }
  std::vector<int> varying;
  for (int col : candidates)
    if (varies(t, col)) varying.push_back(col);
  Keying k;
  for (int col : c.ids)
    if (varies(t, col)) {
      k.colour = col;
      break;
    }
  if (k.colour < 0 && !varying.empty()) k.colour = varying[0];
  for (int col : varying)
    if (col != k.colour) k.style.push_back(col);
  return k;
}

// A value as a legend names it: "batch 8" (a bare number says nothing), else as written.
std::string value_text(const SweepTable& t, int col, const std::string& v) {
  return name_of(t, col) == "batch" ? "batch " + v : v;
}

std::vector<std::string> style_values(const SweepTable& t, size_t row, const Keying& k) {
  std::vector<std::string> out;
  for (int col : k.style) out.push_back(cell(t, row, col));
  return out;
}

// How crowded the most crowded panel is, and how many colours a kind of panel needs.
struct Crowding {
  size_t series = 0;
  std::string facet;  // the model of the most crowded panel
  size_t colours = 0;
  int colour_col = -1;
};

Crowding crowding(const SweepTable& t, const Columns& c) {
  Crowding out;
  for (bool times : {false, true}) {
    if (times && !c.has_times()) continue;
    Keying k = keying(t, c, times);
    std::map<std::string, std::set<std::vector<std::string>>> lines;
    for (size_t i = 0; i < t.rows.size(); ++i) {
      std::vector<std::string> key = style_values(t, i, k);
      if (k.colour >= 0) key.push_back(cell(t, i, k.colour));
      lines[c.model >= 0 ? cell(t, i, c.model) : ""].insert(key);
    }
    for (const auto& [model, set] : lines)
      if (set.size() > out.series) {
        out.series = set.size();
        out.facet = model;
      }
    if (size_t n = distinct(t, k.colour).size(); n > out.colours) {
      out.colours = n;
      out.colour_col = k.colour;
    }
  }
  return out;
}

bool readable(const Crowding& cr) { return cr.series <= kMaxSeriesPerPanel && cr.colours <= kOkabeIto.size(); }

std::string where_arg(const std::string& column, const std::string& value) {
  std::string w = column + "=" + value;
  return "--where " + (w.find_first_of(" '\"$`\\") == std::string::npos ? w : "'" + w + "'");
}

// "the columns that vary: hardware (4), dtype (2), phase (2); keep fewer with --where,
// e.g. --where phase=inference": the example fixes columns other than hardware first
// (the comparison across hardware is what a sweep is usually for), one at a time, to
// the value the sweep lists first, until every panel is readable.
std::string narrowing_hint(const SweepTable& t, const Columns& c) {
  std::vector<std::string> vary;
  std::vector<int> shown = c.ids;
  if (c.has_times()) shown.push_back(c.batch);
  shown.insert(shown.end(), c.varied.begin(), c.varied.end());
  for (int col : shown)
    if (size_t n = distinct(t, col).size(); n > 1) vary.push_back(name_of(t, col) + " (" + std::to_string(n) + ")");
  std::vector<int> order(c.varied.rbegin(), c.varied.rend());
  for (const char* n : {"optimizer", "hw_model", "phase", "dtype", "batch", "hardware"})
    if (t.column(n) >= 0) order.push_back(t.column(n));
  SweepTable narrowed = t;
  std::vector<std::string> picks;
  for (int col : order) {
    if (readable(crowding(narrowed, c))) break;
    std::vector<std::string> values = distinct(narrowed, col);
    if (values.size() < 2) continue;
    std::erase_if(narrowed.rows, [&](const auto& r) { return r[static_cast<size_t>(col)] != values[0]; });
    picks.push_back(where_arg(name_of(t, col), values[0]));
  }
  return "the columns that vary: " + joined(vary, ", ") + "; keep fewer with --where COLUMN=VALUE" +
         (picks.empty() ? "" : ", e.g. " + joined(picks, " "));
}

// The lines of one kind of panel for one model: colour and style indices are global
// (`colours`, `styles`) so that every facet and the legend agree.
std::vector<SweepLine> lines_of(const SweepTable& t, const Columns& c, const std::string& model, const Keying& k,
                                const std::vector<std::string>& colours,
                                const std::vector<std::vector<std::string>>& styles, int x_col, int y_col,
                                bool x_varied) {
  std::map<std::pair<size_t, size_t>, SweepLine> by_key;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    if (c.model >= 0 && cell(t, i, c.model) != model) continue;
    size_t colour = 0, style = 0;
    std::vector<std::string> label;
    if (k.colour >= 0) {
      colour = static_cast<size_t>(std::find(colours.begin(), colours.end(), cell(t, i, k.colour)) - colours.begin());
      label.push_back(value_text(t, k.colour, cell(t, i, k.colour)));
    }
    std::vector<std::string> sv = style_values(t, i, k);
    style = static_cast<size_t>(std::find(styles.begin(), styles.end(), sv) - styles.begin());
    for (size_t j = 0; j < sv.size(); ++j) label.push_back(value_text(t, k.style[j], sv[j]));
    SweepLine& line = by_key[{colour, style}];
    line.colour = colour;
    line.style = style;
    line.label = joined(label, ", ");
    line.points.push_back({x_at(t, i, x_col, x_varied), number_at(t, i, y_col)});
  }
  std::vector<SweepLine> out;
  for (auto& [key, line] : by_key) {
    std::sort(line.points.begin(), line.points.end());
    out.push_back(std::move(line));
  }
  return out;
}

std::vector<std::vector<std::string>> style_tuples(const SweepTable& t, const Keying& k) {
  std::vector<std::vector<std::string>> out;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    std::vector<std::string> sv = style_values(t, i, k);
    if (std::find(out.begin(), out.end(), sv) == out.end()) out.push_back(sv);
  }
  return out;
}

}  // namespace

SweepTable select_rows(const SweepTable& t, const std::vector<std::string>& where) {
  std::map<int, std::set<std::string>> wanted;
  for (const std::string& w : where) {
    size_t eq = w.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError({}, "--where: expected COLUMN=VALUE (got '" + w + "')", "e.g. --where model=resnet50");
    std::string column = w.substr(0, eq), value = w.substr(eq + 1);
    int col = t.column(column);
    if (col < 0)
      throw InputError({t.file, 0, 0}, "--where: the CSV has no column '" + column + "'", suggestion_hint(column, t.header));
    std::vector<std::string> values = distinct(t, col);
    if (std::find(values.begin(), values.end(), value) == values.end())
      throw InputError({t.file, 0, 0}, "--where: no row that ran has " + column + "=" + value,
                       column + ": " + suggestion_hint(value, values));
    wanted[col].insert(value);
  }
  SweepTable out = t;
  std::erase_if(out.rows, [&](const auto& r) {
    for (const auto& [col, values] : wanted)
      if (!values.count(r[static_cast<size_t>(col)])) return true;
    return false;
  });
  if (out.rows.empty())
    throw InputError({t.file, 0, 0}, "--where: no row has all of " + joined(where, ", "),
                     "each --where is on its own fine: some of the values never ran together");
  return out;
}

SweepFigure plan_sweep_figure(const SweepTable& t) {
  const Columns c = columns_of(t);
  std::vector<std::string> models = c.model >= 0 ? distinct(t, c.model) : std::vector<std::string>{""};
  if (models.size() > kMaxFacets)
    throw InputError({t.file, 0, 0},
                     "plot sweep: " + std::to_string(models.size()) + " models are too many panels to read (at most " +
                         std::to_string(kMaxFacets) + ")",
                     "pick some with --where model=NAME (repeatable), e.g. " + where_arg("model", models[0]));
  Crowding cr = crowding(t, c);
  if (cr.series > kMaxSeriesPerPanel)
    throw InputError({t.file, 0, 0},
                     "plot sweep: " + std::to_string(cr.series) + " series in one panel" +
                         (cr.facet.empty() ? "" : " (" + cr.facet + ")") + " are too many to read (at most " +
                         std::to_string(kMaxSeriesPerPanel) + ")",
                     narrowing_hint(t, c));
  if (cr.colours > kOkabeIto.size())
    throw InputError({t.file, 0, 0},
                     "plot sweep: " + std::to_string(cr.colours) + " values of " + name_of(t, cr.colour_col) +
                         " are more colours than can be told apart (at most " + std::to_string(kOkabeIto.size()) + ")",
                     narrowing_hint(t, c));

  SweepFigure fig;
  // The title: what every row shares, models and devices first ("resnet50, a100, roofline model, fp16, inference").
  std::vector<std::string> fixed;
  std::vector<int> title_cols{c.model};
  title_cols.insert(title_cols.end(), c.ids.begin(), c.ids.end());
  title_cols.insert(title_cols.end(), c.varied.begin(), c.varied.end());
  title_cols.push_back(c.batch);
  std::vector<std::string> phases = distinct(t, t.column("phase"));
  bool training = std::find(phases.begin(), phases.end(), "training") != phases.end();
  for (int col : title_cols) {
    std::vector<std::string> v = distinct(t, col);
    if (v.size() != 1) continue;
    const std::string& name = name_of(t, col);
    if (name == "optimizer" && !training) continue;  // an optimizer means nothing to inference
    fixed.push_back(name == "hw_model" ? v[0] + " model"
                    : name.find('.') != std::string::npos ? title_of(t, col) + " " + v[0]
                                                          : value_text(t, col, v[0]));
  }
  if (fixed.empty()) fixed.push_back("ridge sweep");
  for (size_t i = 0; i < fixed.size(); ++i) fig.title.push_back(fixed[i] + (i + 1 < fixed.size() ? "," : ""));

  const bool times = c.has_times();
  const Keying k1 = keying(t, c, false), k2 = times ? keying(t, c, true) : Keying{};
  const auto styles1 = style_tuples(t, k1), styles2 = style_tuples(t, k2);
  const auto colours1 = distinct(t, k1.colour), colours2 = distinct(t, k2.colour);
  for (const std::string& m : models) {
    SweepFacet f;
    f.model = m;
    f.through = lines_of(t, c, m, k1, colours1, styles1, c.batch, c.sps, false);
    if (times) f.times = lines_of(t, c, m, k2, colours2, styles2, c.varied[0], c.time, true);
    fig.facets.push_back(std::move(f));
  }
  if (times) {
    fig.varied_field = title_of(t, c.varied[0]);
    fig.varied_unit = varied_value(cell(t, 0, c.varied[0]))->unit;
  }

  // The legend: colours once when both kinds share them, then each kind's dashes.
  auto colour_group = [&](const Keying& k, const std::vector<std::string>& colours, size_t n_styles,
                          const std::string& prefix) {
    LegendGroup g{prefix + title_of(t, k.colour), {}};
    for (size_t i = 0; i < colours.size(); ++i)
      g.entries.push_back({value_text(t, k.colour, colours[i]), static_cast<int>(i), n_styles > 1 ? -1 : 0});
    return g;
  };
  auto style_group = [&](const Keying& k, const std::vector<std::vector<std::string>>& styles, const std::string& prefix) {
    std::vector<std::string> names;
    for (int col : k.style) names.push_back(title_of(t, col));
    LegendGroup g{prefix + joined(names, ", "), {}};
    for (size_t i = 0; i < styles.size(); ++i) {
      std::vector<std::string> texts;
      for (size_t j = 0; j < styles[i].size(); ++j) texts.push_back(value_text(t, k.style[j], styles[i][j]));
      g.entries.push_back({joined(texts, ", "), -1, static_cast<int>(i)});
    }
    return g;
  };
  const bool same_colours = !times || k1.colour == k2.colour;
  const std::string p1 = times ? "samples/s: " : "", p2 = "step time: ";
  if (k1.colour >= 0) fig.legend.push_back(colour_group(k1, colours1, styles1.size(), same_colours ? "" : p1));
  if (!same_colours && k2.colour >= 0) fig.legend.push_back(colour_group(k2, colours2, styles2.size(), p2));
  if (!k1.style.empty()) fig.legend.push_back(style_group(k1, styles1, p1));
  if (times && !k2.style.empty()) fig.legend.push_back(style_group(k2, styles2, p2));
  return fig;
}

namespace {

// Dashes and markers, one per style index (at most kMaxSeriesPerPanel are needed).
const char* const kDashes[] = {"solid",   "(8,4)",     "(2,3)",        "(10,3,2,3)", "(4,4)",    "(16,4)",
                               "(2,6)",   "(8,3,2,3,2,3)", "(12,3,4,3)", "(6,2)",      "(3,3,9,3)", "(1,2)"};
const int kMarkers[] = {7, 5, 9, 11, 13, 6, 4, 8, 10, 12, 1, 2};
static_assert(std::size(kDashes) >= kMaxSeriesPerPanel && std::size(kMarkers) >= kMaxSeriesPerPanel);

struct Text {
  double x, y;
  std::string text;
};

struct Sample {
  double x0, x1, y;
  int colour, style;
};

// The legend laid out in rows from y = 0 downward, `width` wide: each group's title,
// then its entries flowing to the right, wrapping under the first entry.
struct LegendLayout {
  std::vector<Text> texts;
  std::vector<Sample> samples;
  double height = 0;
};

LegendLayout layout_legend(const PlotStyle& style, const std::vector<LegendGroup>& groups, double width) {
  LegendLayout out;
  if (groups.empty()) return out;
  // Text is measured 10% wide: the estimate is an average, and a legend must never touch.
  auto text_w = [&](const std::string& s) { return style.text_width_in(s) * 1.1; };
  const double row = style.line_in() * 1.35, sample_w = 0.4, gap = 0.08, between = 0.3, left = 0.15;
  // Every group's entries start at one indent, right of the widest group title, like a
  // table; when the titles are too wide for that, entries go on the rows under them.
  double titles_w = 0;
  for (const LegendGroup& g : groups) titles_w = std::max(titles_w, text_w(g.title + ":"));
  const bool beside = left + titles_w + 0.2 <= width * 0.35;
  const double indent = beside ? left + titles_w + 0.2 : left + 0.3;
  double y = -row * 0.5;
  for (const LegendGroup& g : groups) {
    out.texts.push_back({left, y, g.title + ":"});
    if (!beside) y -= row;
    double x = indent;
    for (const LegendEntry& e : g.entries) {
      double w = sample_w + gap + text_w(e.text);
      if (x > indent && x + w > width - 0.1) {
        y -= row;
        x = indent;
      }
      out.samples.push_back({x, x + sample_w, y, e.colour, e.style});
      out.texts.push_back({x + sample_w + gap, y, e.text});
      x += w + between;
    }
    y -= row;
  }
  out.height = -y - row * 0.5 + 0.12;
  return out;
}

// Linear-axis tics at 1, 2 or 5 x 10^k, about `count` of them, covering [lo, hi]; the
// range is widened to the outer tics.
struct LinearAxis {
  double lo, hi;
  std::vector<double> tics;
};

LinearAxis nice_axis(double lo, double hi, double count) {
  // A range below double resolution (1e16 and 1e16 + 2) is drawn as one value.
  if (hi - lo <= std::max(std::fabs(lo), std::fabs(hi)) * 1e-12) {
    double d = lo != 0 ? std::fabs(lo) * 0.1 : 1;
    lo -= d;
    hi += d;
  }
  double raw = (hi - lo) / std::max(2.0, count);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag * 10;
  for (double m : {1.0, 2.0, 5.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  LinearAxis a{std::floor(lo / step + 1e-9) * step, std::ceil(hi / step - 1e-9) * step, {}};
  // Each tic from its index, never by a running sum that a step below resolution would not advance.
  const int64_t n = std::llround((a.hi - a.lo) / step);
  for (int64_t i = 0; i <= n; ++i) {
    double v = a.lo + static_cast<double>(i) * step;
    a.tics.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  }
  return a;
}

// `set ytics ("2.5 ms" 0.0025, ...)`: SI labels with as many digits as keep them apart.
std::string tic_list(const std::vector<double>& tics, const std::string& unit) {
  std::vector<std::string> labels;
  for (int digits = 3; digits <= 8; ++digits) {
    labels.clear();
    for (double v : tics) labels.push_back(si_label(v, unit, digits));
    if (std::set<std::string>(labels.begin(), labels.end()).size() == labels.size()) break;
  }
  std::string out = "(";
  for (size_t i = 0; i < tics.size(); ++i) out += (i ? ", " : "") + gp_string(labels[i], TextMarkup::plain) + " " + gp_number(tics[i]);
  return out + ")";
}

// Tic positions: the x values the data has, thinned so that labels `label_in` wide
// keep apart on an axis `axis_in` long (first and last kept).
std::vector<double> tics_at(std::vector<double> xs, bool log, double axis_in, double label_in) {
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  if (xs.size() < 2) return xs;
  auto pos = [&](double v) {
    double a = log ? std::log(v) : v, lo = log ? std::log(xs.front()) : xs.front(),
           hi = log ? std::log(xs.back()) : xs.back();
    return (a - lo) / (hi - lo) * axis_in;
  };
  std::vector<double> out{xs.front()};
  for (size_t i = 1; i < xs.size(); ++i) {
    if (pos(xs[i]) - pos(out.back()) < label_in) {
      if (i + 1 == xs.size() && out.size() > 1) out.back() = xs[i];  // keep the last
      continue;
    }
    out.push_back(xs[i]);
  }
  return out;
}

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

void write_texts(DataFile& dat, const std::string& what, const std::vector<Text>& texts, TextMarkup mk) {
  dat.begin_block(what);
  for (const Text& t : texts) dat.out() << gp_number(t.x) << " " << gp_number(t.y) << " " << data_string(t.text, mk) << "\n";
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
  std::vector<Text> title_texts, centred, rotated, legend_texts;
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
  for (const Text& tx : legend.texts) legend_texts.push_back({legend_x + tx.x, legend_top + tx.y, tx.text});
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
  for (const Sample& s : legend.samples) {
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
    return s + " dt " + (style >= 0 ? kDashes[style] : "solid");
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
        << kMarkers[lines[i].style] << " ps 0.75 title columnheader(1)" << (i + 1 < lines.size() ? ", \\\n" : "\n");
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
    const Sample& s = legend.samples[i];
    clauses.push_back(idx(sample_blocks[i]) + " using 1:2 with lines " + style_of(s.colour, s.style) + " notitle");
    if (s.style >= 0)
      clauses.push_back(idx(sample_blocks[i]) + " every ::1::1 using 1:2 with points " + style_of(s.colour, s.style) +
                        " pt " + std::to_string(kMarkers[s.style]) + " ps 0.75 notitle");
  }
  for (size_t i = 0; i < clauses.size(); ++i) g << clauses[i] << (i + 1 < clauses.size() ? ", \\\n" : "\n");
  g << "unset multiplot\n";

  return make_bundle(style, stem, g.str(), dat.str());
}

}  // namespace ridge::plots
