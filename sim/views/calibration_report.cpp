// The calibration report (see calibration_report.hpp).
#include "sim/views/calibration_report.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include "sim/base/format_units.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/text_width.hpp"

namespace ridge {

namespace {

// The q-quantile (nearest rank) of |errors|.
double quantile(std::vector<double> errors, double q) {
  if (errors.empty()) return 0;
  for (double& e : errors) e = std::abs(e);
  std::sort(errors.begin(), errors.end());
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(errors.size())));
  return errors[std::clamp<size_t>(rank, 1, errors.size()) - 1];
}

std::string pct(double v) { return format_fixed(100 * v, 1) + "%"; }

std::string csv_number(double v) {
  std::ostringstream out;
  out << std::setprecision(9) << v;
  return out.str();
}

// "DDR 0.374  L3 0.077": each level's fitted fraction (one figure for every level).
std::string memory_fractions(const ClassEfficiency& c) {
  if (c.memory_by_level.empty()) return format_fixed(c.memory, 3) + " (every level)";
  std::string out;
  for (const auto& [level, fraction] : c.memory_by_level) out += (out.empty() ? "" : "  ") + level + " " + format_fixed(fraction, 3);
  return out;
}

// "P 25.1 K 49.5": the GEMM-shape halves the class has ("-": none).
std::string shape_halves(const ClassEfficiency& c) {
  std::string out;
  if (c.positions_half > 0) out += "P " + format_count(c.positions_half);
  if (c.reduction_half > 0) out += (out.empty() ? "" : " ") + std::string("K ") + format_count(c.reduction_half);
  return out.empty() ? "-" : out;
}

}  // namespace

std::string calibration_report(const HardwareSpec& hw, const std::vector<MeasuredLayer>& rows,
                               const CalibrationResult& result, const std::string& cv_column) {
  std::ostringstream out;
  const Calibration& cal = result.calibration;
  out << wrap_lines("calibrated " + hw.id + " (" + hw.name + ") on " + std::to_string(rows.size()) +
                    " measured layers of " + cal.data + "\n|error| = |predicted / measured - 1|; held out: each '" +
                    cv_column + "' predicted by a fit on the others (a class missing there stays at the pure roofline); " +
                    "kept: no when held out is no better than pure (the class then stays at the pure roofline)\n\n");
  if (!cal.conditions.empty()) out << wrap_lines("measured under: " + conditions_text(cal.conditions) + "\n");
  // Roofs the measurements beat (--fit-peaks): above a datasheet figure, worth a look.
  HardwareSpec own = hw;
  own.drop_calibration();
  for (const auto& [dtype, flops] : cal.peaks)
    out << "fitted " << dtype_name(dtype) << " peak: " << format_rate(flops, "FLOP/s") << ", " << format_fixed(flops / *own.peak(dtype), 2)
        << "x the descriptor's " << format_rate(*own.peak(dtype), "FLOP/s") << " (the best rate a measured layer attained)\n";
  for (const MemoryLevel& m : own.memory)
    if (cal.bandwidths.count(m.name))
      out << "fitted " << m.name << " bandwidth: " << format_rate(cal.bandwidths.at(m.name), "B/s") << ", "
          << format_fixed(cal.bandwidths.at(m.name) / m.bandwidth_Bps, 2) << "x the descriptor's " << format_rate(m.bandwidth_Bps, "B/s") << "\n";
  if (cal.kernel_time_s > 0)
    out << "fitted time per kernel (shared by every class; replaces kernel_launch " << format_seconds(own.kernel_launch_s)
        << "): " << format_seconds(cal.kernel_time_s) << "\n";
  if (!cal.peaks.empty() || !cal.bandwidths.empty() || cal.kernel_time_s > 0) out << "\n";
  ColumnTable classes;
  // The library column where the descriptor's [library] places layers (hw/kernel_library.hpp).
  // Or the algorithm [conv_algorithms] runs a convolution with, fastest at the pure roofline (hw/conv_algorithms.hpp).
  const bool by_library = hw.library.has_value() || hw.conv_algorithms.has_value();
  if (hw.library) {
    size_t agree = 0, checked = 0;
    for (const MeasuredLayer& r : rows) {
      auto it = r.extra.find("kernel");
      if (it == r.extra.end()) continue;
      const std::string placed = row_class(r, hw).library;
      agree += it->second == (placed.empty() ? "native" : placed);
      ++checked;
    }
    out << wrap_lines("kernel libraries by the descriptor's [library] rule (" + hw.library->framework + "; " +
                      hw.library->source + ")" +
                      (checked ? ": it names the library the measurement's 'kernel' column recorded for " +
                                     std::to_string(agree) + " of " + std::to_string(checked) + " rows"
                               : "") +
                      "\n\n");
  }
  classes.key_columns = by_library ? 3 : 2;
  classes.columns = {{"op class", "op_class", false}, {"dtype", "dtype", false}, {"library", "library", false}, {"rows", "rows"},
                     {"compute", "compute"}, {"n_half", "n_half_flops"}, {"shape halves", "shape_halves", false},
                     {"time", "time", false}, {"pure med", "pure_median"}, {"fitted med", "fitted_median"},
                     {"held-out med", "held_out_median"}, {"held-out p90", "held_out_p90"},
                     {"memory (x level bandwidth)", "memory", false}, {"kept", "kept", false}};
  std::map<ClassKey, std::vector<size_t>> groups;
  for (size_t i = 0; i < rows.size(); ++i) groups[row_class(rows[i], hw)].push_back(i);
  std::vector<double> all_pure, all_held;
  for (const auto& [key, idx] : groups) {
    const bool dropped = result.dropped.count(key) > 0;
    const ClassEfficiency& c = dropped ? result.dropped.at(key) : cal.classes.at(key);
    std::vector<double> pure, fitted, held;
    for (size_t i : idx) {
      pure.push_back(result.rows[i].pure_s / rows[i].seconds - 1);
      fitted.push_back(result.rows[i].fitted_s / rows[i].seconds - 1);
      held.push_back(result.rows[i].held_out_s / rows[i].seconds - 1);
    }
    all_pure.insert(all_pure.end(), pure.begin(), pure.end());
    all_held.insert(all_held.end(), held.begin(), held.end());
    classes.rows.push_back({text_cell(std::string(op_class_name(key.op_class))), text_cell(std::string(dtype_name(key.dtype))),
                            text_cell(key.library.empty() ? "-" : key.library), text_cell(std::to_string(idx.size())), text_cell(format_fixed(c.compute, 3)),
                            text_cell(format_count(c.n_half_flops) + " FLOP"), text_cell(shape_halves(c)),
                            text_cell(c.overlap ? "max(cmp, mem)" : "cmp + mem"), text_cell(pct(quantile(pure, 0.5))),
                            text_cell(pct(quantile(fitted, 0.5))), text_cell(pct(quantile(held, 0.5))),
                            text_cell(pct(quantile(held, 0.9))), text_cell(memory_fractions(c)),
                            text_cell(dropped ? "no" : "yes")});
  }
  // The same columns as above, the class-only ones left blank.
  classes.totals = {text_cell("all"), text_cell(""), text_cell(""), text_cell(std::to_string(rows.size())), text_cell(""), text_cell(""),
                    text_cell(""), text_cell(""), text_cell(pct(quantile(all_pure, 0.5))), text_cell(""),
                    text_cell(pct(quantile(all_held, 0.5))), text_cell(pct(quantile(all_held, 0.9))), text_cell(""),
                    text_cell("")};
  if (!by_library) {
    classes.columns.erase(classes.columns.begin() + 2);
    for (auto& row : classes.rows) row.erase(row.begin() + 2);
    classes.totals.erase(classes.totals.begin() + 2);
  }
  write_text_table(classes, out);

  // Whole networks: every layer of a model at one batch and dtype, summed.
  struct Sum {
    double measured = 0, pure = 0, held = 0;
    size_t layers = 0;
  };
  std::map<std::tuple<std::string, int64_t, std::string>, Sum> nets;
  for (size_t i = 0; i < rows.size(); ++i) {
    Sum& s = nets[{rows[i].model, rows[i].batch, std::string(dtype_name(rows[i].dtype))}];
    s.measured += rows[i].seconds;
    s.pure += result.rows[i].pure_s;
    s.held += result.rows[i].held_out_s;
    ++s.layers;
  }
  out << "\nper model, batch and dtype (sum over its measured layers):\n";
  ColumnTable networks;
  networks.columns = {{"model", "model", false, true}, {"batch", "batch"}, {"dtype", "dtype", false}, {"layers", "layers"},
                      {"measured", "measured_s"}, {"pure err", "pure_error"}, {"held-out err", "held_out_error"}};
  for (const auto& [key, s] : nets)
    networks.rows.push_back({text_cell(std::get<0>(key)), text_cell(std::to_string(std::get<1>(key))),
                             text_cell(std::get<2>(key)), text_cell(std::to_string(s.layers)),
                             text_cell(format_seconds(s.measured)), text_cell(pct(s.pure / s.measured - 1)),
                             text_cell(pct(s.held / s.measured - 1))});
  write_text_table(networks, out);
  return out.str();
}

std::string calibration_predictions_csv(const HardwareSpec& hw, const std::vector<MeasuredLayer>& rows,
                                        const CalibrationResult& result) {
  std::ostringstream out;
  out << "model,layer,op_class,dtype,batch,flops,measured_s,pure_s,fitted_s,held_out_s,held_out_calibrated,class_kept,"
         "held_out_roofline_s"
      << (hw.library || hw.conv_algorithms ? ",library" : "") << "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const RowPrediction& p = result.rows[i];
    out << rows[i].model << ',' << rows[i].layer << ',' << op_class_name(rows[i].work.op_class) << ','
        << dtype_name(rows[i].dtype) << ',' << rows[i].batch << ',' << csv_number(rows[i].work.flops) << ','
        << csv_number(rows[i].seconds) << ',' << csv_number(p.pure_s) << ',' << csv_number(p.fitted_s) << ','
        << csv_number(p.held_out_s) << ',' << (p.held_out_calibrated ? "true" : "false") << ','
        << (result.calibration.classes.count(row_class(rows[i], hw)) ? "true" : "false") << ','
        << csv_number(p.held_out_roofline_s);
    if (hw.library || hw.conv_algorithms) out << ',' << row_class(rows[i], hw).library;
    out << '\n';
  }
  return out.str();
}

std::string calibration_check_report(const HardwareSpec& hw, const std::vector<MeasuredLayer>& rows,
                                     const std::vector<CheckedRow>& checked, const std::string& data) {
  std::ostringstream out;
  out << wrap_lines("checked " + hw.id + " (" + hw.name + ") on " + std::to_string(rows.size()) + " measured layers of " + data +
                    ", nothing fitted\n|error| = |predicted / measured - 1|; pure: the datasheet roofline (--efficiency none); " +
                    (hw.calibration || !hw.efficiency_source.empty() ? "predicted: the descriptor as it is"
                                                                     : "predicted: the same (the descriptor has no [efficiency] or [calibration])") +
                    "; bound holds: share of rows measured at least as slow as the pure roofline\n\n");
  ColumnTable table;
  table.key_columns = 2;
  table.columns = {{"op class", "op_class", false}, {"dtype", "dtype", false}, {"rows", "rows"},
                   {"pure med", "pure_median"},     {"pure p90", "pure_p90"},   {"predicted med", "predicted_median"},
                   {"predicted p90", "predicted_p90"}, {"bound holds", "bound_holds"}};
  std::map<std::pair<OpClass, DType>, std::vector<size_t>> groups;
  for (size_t i = 0; i < rows.size(); ++i) groups[{rows[i].work.op_class, rows[i].dtype}].push_back(i);
  auto cells = [&](const std::vector<size_t>& idx) {
    std::vector<double> pure, predicted;
    size_t holds = 0;
    for (size_t i : idx) {
      pure.push_back(checked[i].pure_s / rows[i].seconds - 1);
      predicted.push_back(checked[i].predicted_s / rows[i].seconds - 1);
      holds += rows[i].seconds >= checked[i].pure_s;
    }
    return std::vector<Cell>{text_cell(std::to_string(idx.size())), text_cell(pct(quantile(pure, 0.5))),
                             text_cell(pct(quantile(pure, 0.9))), text_cell(pct(quantile(predicted, 0.5))),
                             text_cell(pct(quantile(predicted, 0.9))),
                             text_cell(pct(static_cast<double>(holds) / static_cast<double>(idx.size())))};
  };
  std::vector<size_t> every;
  for (const auto& [key, idx] : groups) {
    std::vector<Cell> row = {text_cell(std::string(op_class_name(key.first))), text_cell(std::string(dtype_name(key.second)))};
    for (Cell& c : cells(idx)) row.push_back(std::move(c));
    table.rows.push_back(std::move(row));
    every.insert(every.end(), idx.begin(), idx.end());
  }
  table.totals = {text_cell("all"), text_cell("")};
  if (!every.empty())
    for (Cell& c : cells(every)) table.totals.push_back(std::move(c));
  write_text_table(table, out);
  return out.str();
}

std::string calibration_check_csv(const std::vector<MeasuredLayer>& rows, const std::vector<CheckedRow>& checked,
                                  const std::string& time_column) {
  // The columns the work and time were read from are in the predictions already.
  const std::vector<std::string> read = {"model",        "layer",        "op_class", "dtype",   "batch",     "flops",
                                         "input_bytes",  "output_bytes", "weight_bytes", "bytes", "kernels", "positions",
                                         "reduction",    time_column};
  std::vector<std::string> extra;  // every other column, in name order (MeasuredLayer::extra is a map)
  for (const MeasuredLayer& r : rows)
    for (const auto& [name, value] : r.extra)
      if (std::find(read.begin(), read.end(), name) == read.end() && std::find(extra.begin(), extra.end(), name) == extra.end())
        extra.push_back(name);
  std::sort(extra.begin(), extra.end());
  std::ostringstream out;
  out << "model,layer,op_class,dtype,batch,flops,measured_s,pure_s,predicted_s";
  for (const std::string& name : extra) out << ',' << name;
  out << '\n';
  for (size_t i = 0; i < rows.size(); ++i) {
    out << rows[i].model << ',' << rows[i].layer << ',' << op_class_name(rows[i].work.op_class) << ','
        << dtype_name(rows[i].dtype) << ',' << rows[i].batch << ',' << csv_number(rows[i].work.flops) << ','
        << csv_number(rows[i].seconds) << ',' << csv_number(checked[i].pure_s) << ',' << csv_number(checked[i].predicted_s);
    for (const std::string& name : extra) {
      auto it = rows[i].extra.find(name);
      out << ',' << (it == rows[i].extra.end() ? "" : it->second);
    }
    out << '\n';
  }
  return out.str();
}

}  // namespace ridge

