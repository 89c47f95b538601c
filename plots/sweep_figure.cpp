// The sweep figure's plan (see sweep_figure.hpp).
#include "plots/sweep_figure.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "plots/plot_style.hpp"
#include "sim/base/close_names.hpp"
#include "sim/base/error.hpp"
#include "sim/views/sweep_fields.hpp"

namespace ridge::plots {

namespace {

// A column's title as the sweep schema declares it ("hw_model" -> "hw model",
// "memory.HBM2e.bandwidth" -> "HBM2e bandwidth"); a column the schema lacks as it is.
std::string title_of(const std::string& key) {
  std::optional<SweepColumn> c = sweep_column(key);
  return c ? c->title : key;
}
std::string title_of(const SweepTable& t, int col) { return title_of(name_of(t, col)); }

// Counts (batch, context) read as "batch 8" in a legend; other values as written.
bool is_count(const std::string& key) {
  std::optional<SweepColumn> c = sweep_column(key);
  return c && c->unit == Unit::integer;
}
std::string value_text(const SweepTable& t, int col, const std::string& v) {
  return is_count(name_of(t, col)) ? title_of(t, col) + " " + v : v;
}

// An x value: a count (batch, context) is a positive number; a [[vary]] field a number
// or a datasheet quantity ("900 GB/s").
double x_value(const SweepTable& t, size_t row, int col) {
  return is_count(name_of(t, col)) ? number_at(t, row, col) : quantity_at(t, row, col);
}

// The columns the figure can use: numbers that can be an x axis (batch, context and
// [[vary]] fields, the sweep's order) and names that can only tell lines apart.
struct Columns {
  int model = -1;
  std::vector<int> numeric, names;
};

Columns columns_of(const SweepTable& t) {
  Columns c;
  c.model = t.column("model");
  for (const char* n : {"batch", "context", "seq"})
    if (t.column(n) >= 0) c.numeric.push_back(t.column(n));
  for (size_t i = 0; i < t.header.size(); ++i)
    if (t.header[i].find('.') != std::string::npos) c.numeric.push_back(static_cast<int>(i));
  for (const char* n : {"hardware", "hw_model", "dtype", "phase", "optimizer"})
    if (t.column(n) >= 0) c.names.push_back(t.column(n));
  return c;
}

// The figure's roles: x, colour, and the columns that take dash and marker.
struct Roles {
  int x = -1, colour = -1;
  std::vector<int> style;
};

std::vector<std::string> varying_names(const SweepTable& t, const std::vector<int>& cols) {
  std::vector<std::string> out;
  for (int col : cols)
    if (varies(t, col)) out.push_back(name_of(t, col));
  return out;
}

// A column the user named: it must be in the CSV, and vary in the rows drawn.
int chosen_column(const SweepTable& t, const std::string& option, const std::string& key,
                  const std::vector<int>& allowed, const std::string& what) {
  std::vector<std::string> allowed_names;
  for (int col : allowed) allowed_names.push_back(name_of(t, col));
  std::vector<std::string> ok = varying_names(t, allowed);
  std::string choices = ok.empty() ? "none varies in these rows" : "the " + what + " that vary: " + joined(ok, ", ");
  int col = t.column(key);
  if (col < 0 || std::find(allowed.begin(), allowed.end(), col) == allowed.end())
    throw InputError({t.file, 0, 0}, option + " " + key + ": not a column that can be " + what,
                     col < 0 ? suggestion_hint(key, allowed_names) + "; " + choices : choices);
  if (!varies(t, col))
    throw InputError({t.file, 0, 0}, option + " " + key + ": every row drawn has " + key + "=" + cell(t, 0, col),
                     ok.empty() ? choices : choices + ", e.g. " + option + " " + ok[0]);
  return col;
}

Roles roles_of(const SweepTable& t, const Columns& c, const SweepChoice& choice) {
  Roles r;
  if (!choice.x.empty()) {
    r.x = chosen_column(t, "--x", choice.x, c.numeric, "numbers on the x axis");
  } else {
    size_t most = 1;
    for (int col : c.numeric)
      if (size_t n = distinct(t, col).size(); n > most) {
        most = n;
        r.x = col;
      }
    if (r.x < 0) r.x = c.numeric.front();  // nothing varies: batch, one point per line
  }
  std::vector<int> others;  // every column but model and x, in the default colour order
  if (int hw = t.column("hardware"); hw >= 0) others.push_back(hw);
  for (int col : c.numeric)
    if (col != r.x) others.push_back(col);
  for (int col : c.names)
    if (name_of(t, col) != "hardware") others.push_back(col);
  if (!choice.colour.empty()) {
    r.colour = chosen_column(t, "--colour", choice.colour, others, "line colours");
  } else {
    for (int col : others)
      if (varies(t, col)) {
        r.colour = col;
        break;
      }
  }
  for (int col : others)
    if (col != r.colour && varies(t, col)) r.style.push_back(col);
  return r;
}

std::vector<std::string> style_values(const SweepTable& t, size_t row, const Roles& r) {
  std::vector<std::string> out;
  for (int col : r.style) out.push_back(cell(t, row, col));
  return out;
}

// How crowded the most crowded panel is, and how many colours the figure needs.
struct Crowding {
  size_t series = 0;
  std::string facet;  // the model of the most crowded panel
  size_t colours = 0;
};

Crowding crowding(const SweepTable& t, const Columns& c, const Roles& r) {
  Crowding out;
  std::map<std::string, std::set<std::vector<std::string>>> lines;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    std::vector<std::string> key = style_values(t, i, r);
    if (r.colour >= 0) key.push_back(cell(t, i, r.colour));
    lines[c.model >= 0 ? cell(t, i, c.model) : ""].insert(key);
  }
  for (const auto& [model, set] : lines)
    if (set.size() > out.series) {
      out.series = set.size();
      out.facet = model;
    }
  out.colours = distinct(t, r.colour).size();
  return out;
}

bool readable(const Crowding& cr) { return cr.series <= kMaxSeriesPerPanel && cr.colours <= kOkabeIto.size(); }

std::string where_arg(const std::string& column, const std::string& value) {
  std::string w = column + "=" + value;
  return "--where " + (w.find_first_of(" '\"$`\\") == std::string::npos ? w : "'" + w + "'");
}

// "x is batch and colour hardware; the other columns that vary: dtype (2), phase (2);
// keep one value of each with --where, e.g. --where phase=inference --where dtype=fp32":
// the example fixes the dash-and-marker columns, one at a time, to the value the sweep
// lists first, until every panel is readable; then, with still too many colours, keeps
// the first colours. x and the colour stay as they are, so the figure it gives has
// whole lines in every colour.
std::string narrowing_hint(const SweepTable& t, const Columns& c, const Roles& r) {
  std::vector<std::string> vary;
  for (int col : r.style) vary.push_back(name_of(t, col) + " (" + std::to_string(distinct(t, col).size()) + ")");
  SweepTable narrowed = t;
  std::vector<std::string> picks;
  std::vector<int> order(r.style.rbegin(), r.style.rend());
  for (int col : order) {
    if (readable(crowding(narrowed, c, r))) break;
    std::vector<std::string> values = distinct(narrowed, col);
    if (values.size() < 2) continue;
    keep_rows(narrowed, [&](const auto& row) { return row[static_cast<size_t>(col)] == values[0]; });
    picks.push_back(where_arg(name_of(t, col), values[0]));
  }
  if (!readable(crowding(narrowed, c, r)) && r.colour >= 0) {
    std::vector<std::string> colours = distinct(narrowed, r.colour);
    for (size_t i = 0; i < std::min(colours.size(), kOkabeIto.size()); ++i)
      picks.push_back(where_arg(name_of(t, r.colour), colours[i]));
  }
  std::string roles = "x is " + name_of(t, r.x) + (r.colour >= 0 ? " and colour " + name_of(t, r.colour) : "");
  return roles + (vary.empty() ? "" : "; the other columns that vary: " + joined(vary, ", ")) +
         "; keep fewer with --where COLUMN=VALUE" + (picks.empty() ? "" : ", e.g. " + joined(picks, " "));
}

// The lines of one panel for one model: colour and style indices are global
// (`colours`, `styles`) so that every facet and the legend agree.
std::vector<SweepLine> lines_of(const SweepTable& t, const Columns& c, const Roles& r, const std::string& model,
                                const std::vector<std::string>& colours,
                                const std::vector<std::vector<std::string>>& styles, int y_col) {
  std::map<std::pair<size_t, size_t>, SweepLine> by_key;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    if (c.model >= 0 && cell(t, i, c.model) != model) continue;
    size_t colour = 0;
    std::vector<std::string> label;
    if (r.colour >= 0) {
      colour = static_cast<size_t>(std::find(colours.begin(), colours.end(), cell(t, i, r.colour)) - colours.begin());
      label.push_back(value_text(t, r.colour, cell(t, i, r.colour)));
    }
    std::vector<std::string> sv = style_values(t, i, r);
    size_t style = static_cast<size_t>(std::find(styles.begin(), styles.end(), sv) - styles.begin());
    for (size_t j = 0; j < sv.size(); ++j) label.push_back(value_text(t, r.style[j], sv[j]));
    SweepLine& line = by_key[{colour, style}];
    line.colour = colour;
    line.style = style;
    line.label = joined(label, ", ");
    line.points.push_back({x_value(t, i, r.x), number_at(t, i, y_col)});
  }
  std::vector<SweepLine> out;
  for (auto& [key, line] : by_key) {
    std::sort(line.points.begin(), line.points.end());
    out.push_back(std::move(line));
  }
  return out;
}

std::vector<std::vector<std::string>> style_tuples(const SweepTable& t, const Roles& r) {
  std::vector<std::vector<std::string>> out;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    std::vector<std::string> sv = style_values(t, i, r);
    if (std::find(out.begin(), out.end(), sv) == out.end()) out.push_back(sv);
  }
  return out;
}

// The SI unit an axis shows its values in: a [[vary]] field's from its values ("B/s"),
// a quantity's from the schema (seconds: "s"); counts and rates have none.
std::string axis_unit(const SweepTable& t, int col) {
  std::optional<SweepColumn> sc = sweep_column(name_of(t, col));
  if (sc && sc->unit == Unit::seconds) return "s";
  if (sc && sc->unit == Unit::bytes) return "B";
  if (sc && sc->unit == Unit::text) {
    std::optional<Quantified> q = quantity_value(cell(t, 0, col));
    return q ? q->unit : "";
  }
  return "";
}

// Log when every value is positive and they span a factor of 8 (batches 1 to 8 and up).
void set_range(SweepAxis& a, const std::vector<double>& values) {
  a.lo = *std::min_element(values.begin(), values.end());
  a.hi = *std::max_element(values.begin(), values.end());
  a.log = a.lo > 0 && a.hi / a.lo >= 8;
}

// The title's phrases: "bert-base, resnet50 on a100;" then what every row shares
// ("roofline model, fp16, inference"); the models and devices that vary are named
// too, so that the title says what the figure compares.
std::vector<std::string> title_of_figure(const SweepTable& t, const Columns& c, const Roles& r) {
  std::vector<std::string> phrases;
  std::vector<std::string> models = distinct(t, c.model), devices = distinct(t, t.column("hardware"));
  for (size_t i = 0; i < models.size(); ++i) phrases.push_back(models[i] + (i + 1 < models.size() ? "," : ""));
  for (size_t i = 0; i < devices.size(); ++i)
    phrases.push_back((i == 0 && !models.empty() ? "on " : "") + devices[i] + (i + 1 < devices.size() ? "," : ""));
  std::vector<std::string> fixed;
  std::vector<int> cols = c.names;
  cols.insert(cols.end(), c.numeric.begin(), c.numeric.end());
  std::vector<std::string> phases = distinct(t, t.column("phase"));
  const bool training = std::find(phases.begin(), phases.end(), "training") != phases.end();
  for (int col : cols) {
    const std::string& name = name_of(t, col);
    if (name == "hardware" || col == r.x || varies(t, col)) continue;
    if (name == "optimizer" && !training) continue;  // an optimizer means nothing to inference
    const std::string& v = cell(t, 0, col);
    fixed.push_back(name == "hw_model" ? v + " model"
                    : name.find('.') != std::string::npos ? title_of(t, col) + " " + v
                                                          : value_text(t, col, v));
  }
  if (!fixed.empty() && !phrases.empty()) phrases.back() += ";";
  for (size_t i = 0; i < fixed.size(); ++i) phrases.push_back(fixed[i] + (i + 1 < fixed.size() ? "," : ""));
  return phrases;
}

}  // namespace

SweepFigure plan_sweep_figure(const SweepTable& t, const SweepChoice& choice) {
  const Columns c = columns_of(t);
  std::vector<std::string> models = c.model >= 0 ? distinct(t, c.model) : std::vector<std::string>{""};
  if (models.size() > kMaxFacets)
    throw InputError({t.file, 0, 0},
                     "plot sweep: " + std::to_string(models.size()) + " models are too many panels to read (at most " +
                         std::to_string(kMaxFacets) + ")",
                     "pick some with --where model=NAME (repeatable), e.g. " + where_arg("model", models[0]));
  const Roles r = roles_of(t, c, choice);
  Crowding cr = crowding(t, c, r);
  if (cr.series > kMaxSeriesPerPanel)
    throw InputError({t.file, 0, 0},
                     "plot sweep: " + std::to_string(cr.series) + " series in one panel" +
                         (cr.facet.empty() ? "" : " (" + cr.facet + ")") + " are too many to read (at most " +
                         std::to_string(kMaxSeriesPerPanel) + ")",
                     narrowing_hint(t, c, r));
  if (cr.colours > kOkabeIto.size())
    throw InputError({t.file, 0, 0},
                     "plot sweep: " + std::to_string(cr.colours) + " values of " + name_of(t, r.colour) +
                         " are more colours than can be told apart (at most " + std::to_string(kOkabeIto.size()) + ")",
                     narrowing_hint(t, c, r));

  // The quantities: one panel each, numbers the schema declares.
  std::vector<std::string> ys = choice.y;
  if (ys.empty()) {
    ys.push_back("samples_per_s");
    if (t.column("time_s") >= 0) ys.push_back("time_s");
  }
  std::vector<int> y_cols;
  for (const std::string& key : ys) {
    std::optional<SweepColumn> sc = sweep_column(key);
    int col = t.column(key);
    if (col < 0 || !sc || sc->unit == Unit::text || sc->unit == Unit::flag || sc->unit == Unit::shape)
      throw InputError({t.file, 0, 0}, "--y " + key + ": not a quantity of this CSV",
                       "e.g. --y samples_per_s, --y time_s, --y attained_flops (the columns of ridge sweep --format csv)");
    y_cols.push_back(col);
  }

  SweepFigure fig;
  fig.title = title_of_figure(t, c, r);
  const auto styles = style_tuples(t, r);
  const auto colours = distinct(t, r.colour);
  for (const std::string& m : models) {
    SweepFacet f;
    f.model = m;
    for (int y : y_cols) f.panels.push_back(lines_of(t, c, r, m, colours, styles, y));
    fig.facets.push_back(std::move(f));
  }
  fig.x = {name_of(t, r.x), title_of(t, r.x), axis_unit(t, r.x)};
  std::vector<double> xs;
  for (size_t i = 0; i < t.rows.size(); ++i) xs.push_back(x_value(t, i, r.x));
  set_range(fig.x, xs);
  for (size_t q = 0; q < y_cols.size(); ++q) {
    SweepAxis a{ys[q], title_of(t, y_cols[q]), axis_unit(t, y_cols[q])};
    std::vector<double> values;
    for (const SweepFacet& f : fig.facets)
      for (const SweepLine& l : f.panels[q])
        for (auto [x, y] : l.points) values.push_back(y);
    set_range(a, values);
    a.log = a.lo > 0 && a.hi / a.lo >= 10;  // a quantity: log when it spans a decade
    fig.y.push_back(a);
  }
  if (r.colour >= 0) fig.colour = name_of(t, r.colour);

  // The legend: the colours (a solid line each, under the column's title), then the
  // dashes and markers.
  if (r.colour >= 0) {
    LegendGroup g{title_of(t, r.colour), {}};
    for (size_t i = 0; i < colours.size(); ++i)
      g.entries.push_back({colours[i], static_cast<int>(i), styles.size() > 1 ? -1 : 0});  // the title names the column
    fig.legend.push_back(std::move(g));
  }
  if (!r.style.empty()) {
    std::vector<std::string> names;
    for (int col : r.style) names.push_back(title_of(t, col));
    LegendGroup g{joined(names, ", "), {}};
    for (size_t i = 0; i < styles.size(); ++i) {
      std::vector<std::string> texts;
      for (size_t j = 0; j < styles[i].size(); ++j) texts.push_back(value_text(t, r.style[j], styles[i][j]));
      g.entries.push_back({joined(texts, ", "), -1, static_cast<int>(i)});
    }
    fig.legend.push_back(std::move(g));
  }
  return fig;
}

}  // namespace ridge::plots
