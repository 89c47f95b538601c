// Sweep views (see sweep_report.hpp).
#include "sim/views/sweep_report.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "sim/views/column_table.hpp"
#include "sim/base/format_units.hpp"
#include "sim/views/output_format.hpp"

namespace ridge {

namespace {

double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

// The columns naming a point, in row order.
struct PointNames {
  std::string model, hardware, hw_model, phase, dtype, optimizer, batch;
  std::vector<std::string> values;  // per [[vary]], as written
};

PointNames names_of(const SweepPlan& plan, const SweepResult& result, size_t index) {
  SweepCoords c = plan.coords(index);
  const SweepHardwarePoint& hp = plan.hw_points[c.hw_point];
  PointNames n;
  n.model = plan.file.models[c.model].text;
  n.hardware = plan.file.hardware[hp.hardware].text;
  n.hw_model = result.points[index].hw_model;
  for (size_t k = 0; k < plan.file.vary.size(); ++k) n.values.push_back(plan.file.vary[k].values[hp.value[k]].text);
  n.phase = phase_name(c.phase);
  n.dtype = dtype_name(c.dtype);
  n.optimizer = optimizer_name(c.optimizer);
  n.batch = std::to_string(c.batch);
  return n;
}

std::vector<Column> point_columns(const SweepPlan& plan) {
  std::vector<Column> cols = {{"model", "model", false}, {"hardware", "hardware", false}, {"hw model", "hw_model", false}};
  for (const SweepVary& v : plan.file.vary) cols.push_back({v.key, v.key, false});
  for (const char* c : {"phase", "dtype", "optimizer"}) cols.push_back({c, c, false});
  cols.push_back({"batch", "batch"});
  cols.push_back({"status", "status", false});
  return cols;
}

std::vector<Cell> point_cells(const PointNames& n, const SweepPointResult& r) {
  std::vector<Cell> cells = {text_cell(n.model), text_cell(n.hardware), text_cell(n.hw_model)};
  for (const std::string& v : n.values) cells.push_back(text_cell(v));
  for (const std::string* s : {&n.phase, &n.dtype, &n.optimizer, &n.batch, &r.status}) cells.push_back(text_cell(*s));
  return cells;
}

Cell number(double v) { return {format_raw(v), format_raw(v)}; }

std::vector<std::string> preamble(const SweepPlan& plan, bool per_layer) {
  std::vector<std::string> lines = {
      "ridge sweep " + plan.file.path + ": " + std::to_string(plan.point_count()) + " points" +
          (per_layer ? ", one row per layer" : ""),
      "time: per layer max(compute, memory) + link + launch, summed over layers; seconds, FLOP/s, bytes (SI)",
      "bound: memory when memory-bound layers take more than half the step time, else compute",
      "peak_memory_bytes, fits: the step's peak device memory (ridge memory) against the DRAM less a 5% runtime reserve",
  };
  for (const auto& line : counting_conventions()) lines.push_back(line);
  return lines;
}

std::string level_bound(const SweepPlan& plan, size_t hw_point, int level) {
  if (level < 0) return "compute";
  return "memory:" + plan.hw_points[hw_point].spec.memory[static_cast<size_t>(level)].name;
}

}  // namespace

std::string point_bound(const SweepPointResult& r) {
  if (!r.ok()) return {};
  return ratio(r.sums.memory_bound_s, r.sums.time_s) > 0.5 ? "memory" : "compute";
}

void write_sweep_csv(const SweepPlan& plan, const SweepResult& result, bool per_layer, std::ostream& out) {
  ColumnTable t;
  t.preamble = preamble(plan, per_layer);
  t.columns = point_columns(plan);
  if (per_layer) {
    for (Column c : std::initializer_list<Column>{{"layer", "layer", false}, {"op", "op", false}, {"flops", "flops"},
                                                  {"bytes", "bytes"}, {"compute s", "compute_s"}, {"memory s", "memory_s"},
                                                  {"link s", "link_s"}, {"launch s", "overhead_s"}, {"time s", "time_s"},
                                                  {"bound", "bound", false}})
      t.columns.push_back(c);
  } else {
    for (Column c : std::initializer_list<Column>{
             {"step s", "step_time_s"}, {"samples/s", "samples_per_s"}, {"compute s", "compute_s"},
             {"memory s", "memory_s"}, {"link s", "link_s"}, {"launch s", "overhead_s"}, {"bound", "bound", false},
             {"memory-bound share", "memory_bound_share"}, {"flops", "flops"}, {"bytes", "bytes"},
             {"attained FLOP/s", "attained_flops"}, {"peak fraction", "peak_fraction"},
             {"peak memory", "peak_memory_bytes"}, {"fits", "fits", false}})
      t.columns.push_back(c);
  }
  const size_t width = t.columns.size();
  for (size_t i = 0; i < result.points.size(); ++i) {
    const SweepPointResult& r = result.points[i];
    std::vector<Cell> head = point_cells(names_of(plan, result, i), r);
    if (per_layer) {
      SweepCoords c = plan.coords(i);
      if (!r.ok()) {
        head.resize(width);
        t.rows.push_back(std::move(head));
        continue;
      }
      const Model& model = plan.models[c.variant];
      const LayerWorkArrays& w = result.group_work[c.group];
      for (Eigen::Index l = 0; l < w.size(); ++l) {
        std::vector<Cell> row = head;
        const Layer& layer = model.layers[static_cast<size_t>(l)];
        row.push_back(text_cell(layer.name));
        row.push_back(text_cell(layer.op));
        row.push_back(number(w.flops[l]));
        row.push_back(number(w.input_bytes[l] + w.output_bytes[l] + w.weight_bytes[l]));
        for (const Eigen::ArrayXd* a : {&r.layers.compute_s, &r.layers.memory_s, &r.layers.link_s, &r.layers.overhead_s,
                                        &r.layers.time_s})
          row.push_back(number((*a)[l]));
        row.push_back(text_cell(level_bound(plan, c.hw_point, r.layers.bound_level[l])));
        t.rows.push_back(std::move(row));
      }
      continue;
    }
    if (r.ok()) {
      const TimingSums& s = r.sums;
      double attained = ratio(r.flops, s.time_s);
      for (double v : {s.time_s, ratio(static_cast<double>(plan.coords(i).batch), s.time_s), s.compute_s, s.memory_s,
                       s.link_s, s.overhead_s})
        head.push_back(number(v));
      head.push_back(text_cell(point_bound(r)));
      for (double v : {ratio(s.memory_bound_s, s.time_s), r.flops, r.bytes, attained, ratio(attained, r.peak_flops)})
        head.push_back(number(v));
      head.push_back(r.memory.peak_bytes ? number(*r.memory.peak_bytes) : text_cell(""));
      head.push_back(text_cell(r.memory.fits ? (*r.memory.fits ? "yes" : "no") : ""));
    }
    head.resize(width);
    t.rows.push_back(std::move(head));
  }
  write_csv(t, out);
}

Json sweep_json(const SweepPlan& plan, const SweepResult& result, bool per_layer) {
  Json root = Json::object();
  root.set("schema_version", 1);
  root.set("sweep", plan.file.path);
  Json conventions = Json::array();
  for (const auto& line : preamble(plan, per_layer)) conventions.push(line);
  root.set("conventions", conventions);
  Json points = Json::array();
  for (size_t i = 0; i < result.points.size(); ++i) {
    const SweepPointResult& r = result.points[i];
    SweepCoords c = plan.coords(i);
    PointNames n = names_of(plan, result, i);
    Json p = Json::object();
    p.set("model", n.model).set("hardware", n.hardware).set("hw_model", n.hw_model);
    Json vary = Json::object();
    for (size_t k = 0; k < plan.file.vary.size(); ++k) vary.set(plan.file.vary[k].key, n.values[k]);
    p.set("vary", vary);
    p.set("phase", n.phase).set("dtype", n.dtype).set("optimizer", n.optimizer).set("batch", c.batch);
    p.set("status", r.status);
    if (r.ok()) {
      const TimingSums& s = r.sums;
      double attained = ratio(r.flops, s.time_s);
      Json tot = Json::object();
      tot.set("step_time_s", s.time_s).set("samples_per_s", ratio(static_cast<double>(c.batch), s.time_s));
      tot.set("compute_time_s", s.compute_s).set("memory_time_s", s.memory_s).set("link_time_s", s.link_s);
      tot.set("overhead_time_s", s.overhead_s).set("bound", point_bound(r));
      tot.set("memory_bound_share", ratio(s.memory_bound_s, s.time_s)).set("flops", r.flops).set("bytes", r.bytes);
      tot.set("attained_flops", attained).set("peak_fraction", ratio(attained, r.peak_flops));
      tot.set("peak_memory_bytes", r.memory.peak_bytes ? Json(*r.memory.peak_bytes) : Json());
      tot.set("fits", r.memory.fits ? Json(*r.memory.fits) : Json());
      p.set("totals", tot);
      if (per_layer) {
        const LayerWorkArrays& w = result.group_work[c.group];
        Json layers = Json::array();
        for (Eigen::Index l = 0; l < w.size(); ++l) {
          const Layer& layer = plan.models[c.variant].layers[static_cast<size_t>(l)];
          Json j = Json::object();
          j.set("name", layer.name).set("op", layer.op).set("flops", w.flops[l]);
          j.set("bytes", w.input_bytes[l] + w.output_bytes[l] + w.weight_bytes[l]);
          j.set("compute_time_s", r.layers.compute_s[l]).set("memory_time_s", r.layers.memory_s[l]);
          j.set("link_time_s", r.layers.link_s[l]).set("overhead_time_s", r.layers.overhead_s[l]);
          j.set("time_s", r.layers.time_s[l]).set("bound", level_bound(plan, c.hw_point, r.layers.bound_level[l]));
          layers.push(std::move(j));
        }
        p.set("layers", layers);
      }
    }
    points.push(std::move(p));
  }
  root.set("points", points);
  return root;
}

// ---------------------------------------------------------------------------------
// Summary

namespace {

// "v100 fp16 inference" plus whatever else distinguishes the series (other varied
// values, the hardware model when several are swept, the optimizer in training, the
// batch along a [[vary]] series: skip_vary >= 0 names the value the series runs along).
std::string series_name(const SweepPlan& plan, const PointNames& n, int skip_vary) {
  std::string s = n.hardware;
  if (plan.file.hw_models.size() > 1) s += " " + n.hw_model;
  for (size_t k = 0; k < n.values.size(); ++k)
    if (static_cast<int>(k) != skip_vary) s += " " + plan.file.vary[k].key + "=" + n.values[k];
  s += " " + n.dtype + " " + n.phase;
  if (plan.file.optimizers.size() > 1 && n.phase == "training") s += " " + n.optimizer;
  if (skip_vary >= 0 && plan.file.batches.size() > 1) s += " batch " + n.batch;  // a series along a varied value
  return s;
}

// Appends a line for every change of bound along `series` (point indices in order).
void flips(const SweepPlan& plan, const SweepResult& result, const std::vector<size_t>& series,
           const std::string& what, const std::vector<std::string>& labels, int skip_vary,
           std::vector<std::string>& lines) {
  size_t prev = series.size();
  for (size_t j = 0; j < series.size(); ++j) {
    const SweepPointResult& r = result.points[series[j]];
    if (!r.ok()) continue;
    if (prev < series.size()) {
      std::string a = point_bound(result.points[series[prev]]), b = point_bound(r);
      if (a != b)
        lines.push_back(series_name(plan, names_of(plan, result, series[j]), skip_vary) + ": " + a + "-bound at " +
                        what + " " + labels[prev] + ", " + b + "-bound at " + labels[j]);
    }
    prev = j;
  }
}

}  // namespace

std::string sweep_summary(const SweepPlan& plan, const SweepResult& result) {
  const SweepFile& f = plan.file;
  std::ostringstream out;
  size_t ok = 0;
  for (const SweepPointResult& r : result.points) ok += r.ok();
  out << "sweep " << f.path << ": " << result.points.size() << " points, " << ok << " ran, "
      << result.points.size() - ok << " could not (see the status column)\n";

  // Batch order ascending, whatever the file's order.
  std::vector<size_t> batch_order(f.batches.size());
  std::iota(batch_order.begin(), batch_order.end(), 0);
  std::stable_sort(batch_order.begin(), batch_order.end(), [&](size_t a, size_t b) { return f.batches[a] < f.batches[b]; });
  std::vector<std::string> batch_labels;
  for (size_t b : batch_order) batch_labels.push_back(std::to_string(f.batches[b]));

  const size_t per_model = result.points.size() / std::max<size_t>(f.models.size(), 1);
  constexpr size_t kMaxFlipLines = 6;
  for (size_t m = 0; m < f.models.size(); ++m) {
    const size_t begin = m * per_model, end = begin + per_model;
    // Fastest: the highest samples/s per phase.
    for (Phase phase : f.phases) {
      size_t best = end;
      double best_rate = 0;
      for (size_t i = begin; i < end; ++i) {
        const SweepPointResult& r = result.points[i];
        if (!r.ok() || plan.coords(i).phase != phase) continue;
        double rate = ratio(static_cast<double>(plan.coords(i).batch), r.sums.time_s);
        if (best == end || rate > best_rate) best = i, best_rate = rate;
      }
      out << f.models[m].text << " " << phase_name(phase) << ": ";
      if (best == end) {
        out << "no point ran\n";
        continue;
      }
      PointNames n = names_of(plan, result, best);
      out << "fastest " << series_name(plan, n, -1) << " batch " << n.batch << ", " << format_count(best_rate)
          << " samples/s (" << format_seconds(result.points[best].sums.time_s) << " per step, "
          << point_bound(result.points[best]) << "-bound)\n";
    }
    std::vector<std::string> lines;
    // As batch grows: batch is the fastest-varying coordinate, so a series is contiguous.
    const size_t nb = f.batches.size();
    for (size_t i = begin; nb > 1 && i < end; i += nb) {
      std::vector<size_t> series;
      for (size_t b : batch_order) series.push_back(i + b);
      flips(plan, result, series, "batch", batch_labels, -1, lines);
    }
    // As each varied value grows (in the file's order).
    const size_t block = f.phases.size() * f.dtypes.size() * f.optimizers.size() * nb;
    for (size_t k = 0; k < f.vary.size(); ++k) {
      size_t stride = block;
      for (size_t k2 = k + 1; k2 < f.vary.size(); ++k2) stride *= f.vary[k2].values.size();
      const size_t count = f.vary[k].values.size();
      if (count < 2) continue;
      std::vector<std::string> labels;
      for (const SweepItem& v : f.vary[k].values) labels.push_back(v.text);
      for (size_t i = begin; i < end; ++i) {
        if (plan.hw_points[plan.coords(i).hw_point].value[k] != 0) continue;
        std::vector<size_t> series;
        for (size_t j = 0; j < count; ++j) series.push_back(i + j * stride);
        flips(plan, result, series, f.vary[k].key, labels, static_cast<int>(k), lines);
      }
    }
    for (size_t j = 0; j < lines.size() && j < kMaxFlipLines; ++j) out << "  bound flips: " << lines[j] << '\n';
    if (lines.size() > kMaxFlipLines) out << "  (" << lines.size() - kMaxFlipLines << " more flips; see the bound column)\n";
    if (lines.empty() && (nb > 1 || !f.vary.empty())) out << "  the bound does not flip in this sweep\n";
  }
  return out.str();
}

}  // namespace ridge
