// The sweep figure's plan (see sweep_figure.hpp).
#include "plots/sweep_figure.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "plots/plot_style.hpp"
#include "sim/base/error.hpp"

namespace ridge::plots {

namespace {


// A column as a reader names it: a [[vary]] key path without its first part, in words
// ("memory.HBM2e.bandwidth" -> "HBM2e bandwidth"); other columns as they are.
std::string title_of(const SweepTable& t, int col) {
  std::string key = name_of(t, col);
  if (std::count(key.begin(), key.end(), '.') >= 2) key = key.substr(key.find('.') + 1);
  if (key.find('.') == std::string::npos) return key;
  std::replace(key.begin(), key.end(), '.', ' ');
  return key;
}

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
    line.points.push_back({x_varied ? quantity_at(t, i, x_col) : number_at(t, i, x_col), number_at(t, i, y_col)});
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
    fig.varied_unit = quantity_value(cell(t, 0, c.varied[0]))->unit;
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

}  // namespace ridge::plots
