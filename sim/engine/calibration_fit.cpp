// Robust least-squares fit of per-class efficiencies (see calibration_fit.hpp).
#include "sim/engine/calibration_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <Eigen/Dense>

#include "hw/attainable_rates.hpp"
#include "sim/engine/calibration_model.hpp"
#include "sim/engine/shared_calibration_fit.hpp"

namespace ridge {

namespace {

using namespace calibration_model;
using Key = ClassKey;

// Levels with at least kParametersPerClass of `count` get their own fraction (the
// level with the most when none has); `shape` keeps the shape terms and the overlap.
ClassParameters level_parameters(const std::vector<int>& count, const std::vector<double>& bandwidth,
                                 ClassParameters shape) {
  ClassParameters cp = shape;
  cp.bandwidth = bandwidth;
  cp.own.clear();
  cp.nearest.clear();
  const int levels = static_cast<int>(bandwidth.size());
  cp.own.assign(static_cast<size_t>(levels), -1);
  const int first = cp.first_level();
  int k = first;
  for (int l = 0; l < levels; ++l)
    if (count[static_cast<size_t>(l)] >= kParametersPerClass) cp.own[static_cast<size_t>(l)] = k++;
  if (k == first && levels > 0)
    cp.own[static_cast<size_t>(std::max_element(count.begin(), count.end()) - count.begin())] = k++;
  std::vector<bool> has_fraction;
  for (int i : cp.own) has_fraction.push_back(i >= 0);
  for (int l = 0; l < levels; ++l) cp.nearest.push_back(fraction_level(has_fraction, l));
  return cp;
}

constexpr double kMinLogH = 0;       // n_half >= 1 FLOP
constexpr double kMaxLogH = 40;      // ~2e17 FLOP
constexpr double kMinLogShape = -5;  // a shape half of ~0.007: no effect on any GEMM
constexpr double kMaxLogShape = 14;  // ~1.2e6 rows or dot-product length

void clamp(Eigen::VectorXd& p, const ClassParameters& cp) {
  p[0] = std::clamp(p[0], std::log(1e-4), 0.0);
  p[1] = std::clamp(p[1], kMinLogH, kMaxLogH);
  for (int k : {cp.positions, cp.reduction})
    if (k >= 0) p[k] = std::clamp(p[k], kMinLogShape, kMaxLogShape);
  for (Eigen::Index k = cp.first_level(); k < p.size(); ++k) p[k] = std::clamp(p[k], std::log(1e-4), 0.0);
}

double robust_cost(const std::vector<Terms>& rows, const Eigen::VectorXd& p, const ClassParameters& cp) {
  const Eigen::VectorXd x = p.array().exp();
  double cost = 0;
  for (const Terms& t : rows) {
    cost += huber(std::log(predict(t, x, cp)) - t.log_measured);
  }
  return cost;
}

// Levenberg-Marquardt with iteratively reweighted (Huber) residuals, from one start.
Eigen::VectorXd fit_from(const std::vector<Terms>& rows, Eigen::VectorXd p, const ClassParameters& cp) {
  clamp(p, cp);
  double cost = robust_cost(rows, p, cp), lambda = 1e-2;
  for (int iter = 0; iter < 100; ++iter) {
    NormalEquations equations(p.size());
    const Eigen::VectorXd x = p.array().exp();
    for (const Terms& t : rows) {
      const double compute = compute_time(t, x, cp);
      const auto [memory, k] = memory_time(t, x, cp);
      const double total = kernel_time_s(compute, memory, cp.overlap) + fixed_time(t, cp);
      // d log(total) / d p has at most five non-zero entries: the compute side's (e,
      // n_half and the shape halves) and one fraction.
      std::array<std::pair<Eigen::Index, double>, 5> j{};
      int nonzero = 0;
      if (!cp.overlap || compute >= memory) {
        j[nonzero++] = {0, -compute / total};
        if (t.flops > 0) {
          const auto [sp, sk] = shape_slowdowns(t, x, cp);
          j[nonzero++] = {1, x[1] * t.seconds_per_flop / x[0] * sp * sk / total};
          if (sp != 1.0) j[nonzero++] = {cp.positions, compute * (sp - 1) / sp / total};
          if (sk != 1.0) j[nonzero++] = {cp.reduction, compute * (sk - 1) / sk / total};
        }
      }
      if ((!cp.overlap || compute < memory) && k >= 0) j[nonzero++] = {k, -memory / total};
      equations.add_row(j, nonzero, std::log(total) - t.log_measured);
    }
    const Step step = levenberg_marquardt_step(
        p, cost, lambda, equations, [&](const Eigen::VectorXd& q) { return robust_cost(rows, q, cp); },
        [&](Eigen::VectorXd& q) { clamp(q, cp); });
    if (step != Step::moved) break;
  }
  return p;
}

double median_of(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Starts the fit refines: the kRefinedStarts cheapest of the grid below.
constexpr size_t kRefinedStarts = 6;

// The best of a few starts (the max() makes the cost non-convex): a grid of starts is
// costed, and the cheapest kRefinedStarts are refined.
Eigen::VectorXd best_start(const std::vector<Terms>& rows, const ClassParameters& cp) {
  std::vector<double> flops, positions, reduction;
  for (const Terms& t : rows) {
    flops.push_back(std::max(t.flops, 1.0));
    if (t.positions > 0) positions.push_back(t.positions);
    if (t.reduction > 0) reduction.push_back(t.reduction);
  }
  const double median_flops = median_of(flops);
  std::vector<std::pair<double, Eigen::VectorXd>> grid;
  // Efficiencies span decades (a generic BLAS on a wide-vector CPU attains ~1 % of peak);
  // shape halves start at the median size (half speed there).
  for (double e : {1.0, 0.1, 0.01})
    for (double h : {1.0, 0.3 * median_flops})
      for (double m : {1.0, 0.1}) {
        Eigen::VectorXd start = Eigen::VectorXd::Constant(cp.size(), std::log(m));
        start[0] = std::log(e);
        start[1] = std::log(std::max(h, 1.0));
        if (cp.positions >= 0) start[cp.positions] = std::log(median_of(positions));
        if (cp.reduction >= 0) start[cp.reduction] = std::log(median_of(reduction));
        clamp(start, cp);
        grid.emplace_back(robust_cost(rows, start, cp), start);
      }
  std::sort(grid.begin(), grid.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Eigen::VectorXd best = grid.front().second;
  double best_cost = grid.front().first;
  for (size_t i = 0; i < std::min(kRefinedStarts, grid.size()); ++i) {
    Eigen::VectorXd p = fit_from(rows, grid[i].second, cp);
    double c = robust_cost(rows, p, cp);
    if (c < best_cost) best_cost = c, best = p;
  }
  return best;
}

// A start for parameters `to` from a fit with other levels' fractions: the compute side
// as it was, each level's fraction its own if it had one, else the one it borrowed.
Eigen::VectorXd carried_start(const ClassFit& from, const ClassParameters& to) {
  Eigen::VectorXd p = Eigen::VectorXd::Zero(to.size());
  p.head(to.first_level()) = from.p.head(to.first_level());
  for (size_t l = 0; l < to.own.size(); ++l)
    if (to.own[l] >= 0) p[to.own[l]] = from.p[from.parameters.own[static_cast<size_t>(from.parameters.nearest[l])]];
  return p;
}

// A memory fraction binds a row when it changes the row's time: memory slower than
// compute, or any memory where the two add.
bool memory_binds(const Terms& t, const Eigen::VectorXd& x, const ClassParameters& cp) {
  const double memory = memory_time(t, x, cp).first;
  return cp.overlap ? memory > compute_time(t, x, cp) : memory > 0;
}

// Fits a class with its compute and memory overlapping or not (`shape.overlap`): first
// with a fraction for every level serving enough rows (from every start), then with a
// fraction only for the levels whose rows it binds often enough (from the previous
// fit), until that set repeats; the set with the lowest cost is kept. A fraction that then binds no row is unknown, and becomes 1 (the
// level's full bandwidth): that changes no prediction, and claims no inefficiency the
// data does not show.
std::pair<double, ClassFit> fit_levels(const std::vector<Terms>& rows, const std::vector<double>& bandwidth,
                                       const ClassParameters& shape) {
  std::vector<int> served(bandwidth.size(), 0);
  for (const Terms& t : rows)
    if (t.level >= 0) ++served[static_cast<size_t>(t.level)];
  ClassFit fit{Eigen::VectorXd::Zero(0), level_parameters(served, bandwidth, shape)};
  fit.p = best_start(rows, fit.parameters);
  std::vector<std::pair<double, ClassFit>> tried{{robust_cost(rows, fit.p, fit.parameters), fit}};
  for (int pass = 0; pass < 4; ++pass) {
    std::vector<int> binding(bandwidth.size(), 0);
    const Eigen::VectorXd x = fit.p.array().exp();
    for (const Terms& t : rows)
      if (t.level >= 0 && memory_binds(t, x, fit.parameters)) ++binding[static_cast<size_t>(t.level)];
    if (std::count(binding.begin(), binding.end(), 0) == static_cast<long>(binding.size())) break;
    ClassParameters next = level_parameters(binding, bandwidth, shape);
    if (std::any_of(tried.begin(), tried.end(), [&](const auto& t) { return t.second.parameters.own == next.own; })) break;
    fit.p = fit_from(rows, carried_start(fit, next), next);
    fit.parameters = next;
    tried.emplace_back(robust_cost(rows, fit.p, fit.parameters), fit);
  }
  // The lowest cost; on a tie (within 1e-6) the earlier, wider set: a level whose rows
  // never bind keeps its own fraction (then 1) rather than borrowing another's.
  auto best = tried.front();
  for (const auto& t : tried)
    if (t.first < best.first * (1 - 1e-6)) best = t;
  ClassFit& f = best.second;
  std::vector<bool> binds(static_cast<size_t>(f.p.size()), false);
  const Eigen::VectorXd x = f.p.array().exp();
  for (const Terms& t : rows) {
    const int k = memory_time(t, x, f.parameters).second;
    if (k >= 0 && memory_binds(t, x, f.parameters)) binds[static_cast<size_t>(k)] = true;
  }
  for (Eigen::Index k = f.parameters.first_level(); k < f.p.size(); ++k)
    if (!binds[static_cast<size_t>(k)]) f.p[k] = 0;
  best.first = robust_cost(rows, f.p, f.parameters);
  return best;
}

// How many distinct positive values `field` takes over the rows.
size_t distinct_positive(const std::vector<Terms>& rows, double Terms::*field) {
  std::set<double> values;
  for (const Terms& t : rows)
    if (t.*field > 0) values.insert(t.*field);
  return values.size();
}

// Fits a class: a shape term for each GEMM dimension its rows vary in (at least
// kParametersPerClass distinct values), with compute and memory overlapping and adding.
// The sum is kept where its cost is clearly lower: by 1 % of the max's and by what a
// 0.1 % error on every row costs (on a tie, as when no row's memory time matters, the
// roofline's max stays): a scalar loop that
// waits for each load, like PyTorch's CPU max pooling, is described by the sum; so, on
// this project's CPU data, are oneDNN's small convolutions.
ClassFit fit_group(const std::vector<Terms>& rows, const std::vector<double>& bandwidth, double kernel_s) {
  ClassParameters shape;
  shape.kernel_s = kernel_s;
  int k = 2;
  if (distinct_positive(rows, &Terms::positions) >= kParametersPerClass) shape.positions = k++;
  if (distinct_positive(rows, &Terms::reduction) >= kParametersPerClass) shape.reduction = k++;
  auto overlapped = fit_levels(rows, bandwidth, shape);
  shape.overlap = false;
  auto added = fit_levels(rows, bandwidth, shape);
  const double tie = 0.01 * overlapped.first + 0.5 * 1e-3 * 1e-3 * static_cast<double>(rows.size());
  return added.first < overlapped.first - tie ? added.second : overlapped.second;
}

double median_abs_error(std::vector<double> errors) {
  if (errors.empty()) return 0;
  for (double& e : errors) e = std::abs(e);
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  return errors[errors.size() / 2];
}

ClassEfficiency to_efficiency(const ClassFit& fit, const HardwareSpec& hw) {
  const ClassParameters& cp = fit.parameters;
  ClassEfficiency c;
  c.compute = std::exp(fit.p[0]);
  c.n_half_flops = std::exp(fit.p[1]) <= 1.0 ? 0.0 : std::exp(fit.p[1]);
  // A shape half at its lower bound changes no prediction: no term.
  if (cp.positions >= 0 && fit.p[cp.positions] > kMinLogShape) c.positions_half = std::exp(fit.p[cp.positions]);
  if (cp.reduction >= 0 && fit.p[cp.reduction] > kMinLogShape) c.reduction_half = std::exp(fit.p[cp.reduction]);
  c.overlap = cp.overlap;
  for (size_t l = 0; l < cp.own.size(); ++l)
    if (cp.own[l] >= 0) c.memory_by_level[hw.memory[l].name] = std::exp(fit.p[cp.own[l]]);
  return c;
}

std::string group_name(const Key& k) {
  return "op class '" + std::string(op_class_name(k.op_class)) + "' (" + std::string(dtype_name(k.dtype)) +
         (k.library.empty() ? "" : ", library " + k.library) + ")";
}

// Fits every group in `members` (indices into terms), each kernel paying `kernel_s`;
// groups smaller than the parameter count are left out of the result. Shared: one fit
// over every group (shared_calibration_fit.hpp), which fits the time per kernel too.
std::map<Key, ClassFit> fit_all(const std::map<Key, std::vector<size_t>>& members, const std::vector<Terms>& terms,
                                const std::vector<double>& bandwidth, double kernel_s, bool shared) {
  if (shared) return fit_shared(members, terms, bandwidth, kernel_s);
  std::map<Key, ClassFit> out;
  for (const auto& [key, idx] : members) {
    if (idx.size() < kParametersPerClass) continue;
    std::vector<Terms> rows;
    for (size_t i : idx) rows.push_back(terms[i]);
    out.emplace(key, fit_group(rows, bandwidth, kernel_s));
  }
  return out;
}

// The roofs a set of rows is fitted against: the descriptor's bandwidths, and with
// fit_peaks each raised to what the rows attained. A row mostly of fixed time (link,
// launch) says nothing of the roofs and is skipped.
struct Roofs {
  std::map<DType, double> peak_scale;  // fitted peak / descriptor's (> 1 where raised)
  std::vector<double> bandwidth;
};

Roofs fitted_roofs(const std::vector<Terms>& terms, const std::vector<size_t>& idx, const std::vector<double>& bandwidth,
                   bool fit_peaks, double kernel_s) {
  Roofs r{{}, bandwidth};
  if (!fit_peaks) return r;
  for (size_t i : idx) {
    const Terms& t = terms[i];
    const double measured = std::exp(t.log_measured), busy = measured - t.link_s - t.kernels * kernel_s;
    if (busy < 0.5 * measured) continue;
    if (t.flops > 0) {
      double& scale = r.peak_scale.try_emplace(t.dtype, 1.0).first->second;
      scale = std::max(scale, t.flops * t.seconds_per_flop / busy);
    }
    if (t.level >= 0) {
      double& b = r.bandwidth[static_cast<size_t>(t.level)];
      b = std::max(b, t.level_bytes / busy);
    }
  }
  return r;
}

// A row's pure roofline against `roofs` (its terms already against their peaks): its own
// algorithm's compute, the slowest level's traffic, its link time and launches.
double roofline_seconds(const Terms& t, const Roofs& roofs, double kernel_s) {
  double memory = 0;
  for (size_t l = 0; l < t.bytes_by_level.size() && l < roofs.bandwidth.size(); ++l)
    if (t.bytes_by_level[l] > 0) memory = std::max(memory, t.bytes_by_level[l] / roofs.bandwidth[l]);
  return std::max(t.flops * t.seconds_per_flop, memory) + t.link_s + t.kernels * kernel_s;
}

// The terms against raised peaks.
std::vector<Terms> against(const std::vector<Terms>& terms, const Roofs& roofs) {
  std::vector<Terms> out = terms;
  for (Terms& t : out) {
    auto it = roofs.peak_scale.find(t.dtype);
    if (it != roofs.peak_scale.end()) t.seconds_per_flop /= it->second;
  }
  return out;
}

}  // namespace

namespace {

// The algorithms that may run the row, each with the class that times it: a
// convolution's eligible ones where the descriptor has [conv_algorithms], the fastest at
// the pure roofline first; else one, the op class's (or its [library]'s) own kernels at the
// dtype's peak.
struct RowAlgorithm {
  ClassKey key;
  double multiplies = 1;
  double peak_flops = 0;
};

std::vector<RowAlgorithm> row_algorithms(const MeasuredLayer& row, const HardwareSpec& hw) {
  const double peak = hw.peak(row.dtype).value_or(0);
  std::vector<ConvAlgorithm> eligible =
      hw.conv_algorithms ? eligible_conv_algorithms(row.work, row.dtype, peak, *hw.conv_algorithms) : std::vector<ConvAlgorithm>{};
  if (eligible.empty())
    return {{{row.work.op_class, row.dtype, hw.library ? library_of(row.work, *hw.library) : std::string()}, 1.0, peak}};
  std::stable_sort(eligible.begin(), eligible.end(), [](const ConvAlgorithm& a, const ConvAlgorithm& b) {
    return a.multiplies / a.peak_flops < b.multiplies / b.peak_flops;
  });
  std::vector<RowAlgorithm> out;
  for (const ConvAlgorithm& a : eligible)
    out.push_back({algorithm_class(row.work, row.dtype, a, hw), a.multiplies, a.peak_flops});
  return out;
}

}  // namespace

ClassKey row_class(const MeasuredLayer& row, const HardwareSpec& hw) { return row_algorithms(row, hw).front().key; }

CalibrationResult fit_calibration(const std::vector<MeasuredLayer>& rows, const HardwareSpec& hw,
                                  const HardwareModel& model, const CalibrationOptions& options) {
  // Unit parameters for every class present give the terms the parameters scale.
  HardwareSpec pure = hw;
  pure.drop_calibration();  // the descriptor's own roofs
  HardwareSpec unit = pure;
  unit.calibration = Calibration{};
  unit.calibration->cache_rule = true;
  std::map<Key, std::vector<size_t>> members;
  std::map<Key, SourceLoc> first_row;
  for (size_t i = 0; i < rows.size(); ++i) {
    const MeasuredLayer& r = rows[i];
    if (!hw.peak(r.dtype))
      throw InputError(r.loc, hw.id + " has no " + std::string(dtype_name(r.dtype)) + " peak to calibrate against",
                       "add it to the descriptor's [compute] or drop these rows");
    Key key = row_class(r, hw);
    members[key].push_back(i);
    first_row.emplace(key, r.loc);
    unit.calibration->classes[key] = ClassEfficiency{};
  }
  for (const auto& [key, idx] : members)
    if (idx.size() < kParametersPerClass)
      throw InputError(first_row[key], group_name(key) + " has " + std::to_string(idx.size()) +
                                           " measured row(s); fitting its " + std::to_string(kParametersPerClass) +
                                           " efficiency parameters needs at least " + std::to_string(kParametersPerClass),
                       "measure more layers of this class, or drop its rows to leave it uncalibrated");

  CalibrationResult result;
  result.rows.resize(rows.size());
  std::vector<double> bandwidth;
  for (const MemoryLevel& m : pure.memory) bandwidth.push_back(m.bandwidth_Bps);
  std::vector<Terms> terms(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const MeasuredLayer& r = rows[i];
    LayerTiming u = model.time_layer(r.work, unit, r.dtype);
    Terms& t = terms[i];
    t.dtype = r.dtype;
    t.positions = r.work.gemm_positions;
    t.reduction = r.work.gemm_reduction;
    // Each algorithm's multiplications at its units' peak (the shape terms are 1 at unit halves).
    const std::vector<RowAlgorithm> algorithms = row_algorithms(r, pure);
    for (size_t a = 0; a < algorithms.size(); ++a) {
      const RowAlgorithm& alg = algorithms[a];
      const double flops = alg.multiplies * r.work.flops;
      const double spf = flops > 0 && alg.peak_flops > 0 ? 1 / alg.peak_flops : 0;
      if (a == 0) {
        t.flops = flops;
        t.seconds_per_flop = spf;
      } else {
        t.alternatives.push_back({alg.key, flops, spf});
      }
    }
    if (u.memory_s > 0) {
      t.level = static_cast<int>(std::max_element(u.level_s.begin(), u.level_s.end()) - u.level_s.begin());
      t.level_bytes = u.memory_s * bandwidth[static_cast<size_t>(t.level)];
    }
    t.bytes_by_level = u.level_bytes;
    t.link_s = u.link_s;
    t.kernels = static_cast<double>(r.work.kernels);
    t.log_measured = std::log(r.seconds);
    result.rows[i].pure_s = model.time_layer(r.work, pure, r.dtype).time_s;
  }

  std::vector<size_t> every(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) every[i] = i;
  const double launch = pure.kernel_launch_s;
  const Roofs roofs = fitted_roofs(terms, every, bandwidth, options.fit_peaks, launch);
  const std::vector<Terms> fitted_terms = against(terms, roofs);
  std::map<Key, ClassFit> all = fit_all(members, fitted_terms, roofs.bandwidth, launch, options.shared);
  Calibration& cal = result.calibration;
  for (const auto& [dtype, scale] : roofs.peak_scale)
    if (scale > 1) cal.peaks[dtype] = *pure.peak(dtype) * scale;
  for (size_t l = 0; l < bandwidth.size(); ++l)
    if (roofs.bandwidth[l] > bandwidth[l]) cal.bandwidths[pure.memory[l].name] = roofs.bandwidth[l];
  cal.cache_rule = true;
  cal.data = options.data;
  cal.date = options.date;
  cal.conditions = options.conditions;
  cal.method = std::string(options.shared ? "shared terms (one time per kernel for the device, a bandwidth fraction and a "
                                            "half-performance size per dtype, a compute fraction per class and dtype); "
                                          : "") +
               "Levenberg-Marquardt on log time, Huber weights (delta " + std::to_string(kHuberDelta).substr(0, 3) +
               "); held-out error by leaving out each '" + options.cv_column + "' in turn";
  if (options.shared && !all.empty()) cal.kernel_time_s = all.begin()->second.parameters.kernel_s;
  for (const auto& [key, idx] : members) {
    const ClassFit& fit = all.at(key);
    ClassEfficiency c = to_efficiency(fit, hw);
    std::vector<double> before, after;
    for (size_t i : idx) {
      result.rows[i].fitted_s = *predict_fastest(fitted_terms[i], key, all);
      before.push_back(result.rows[i].pure_s / rows[i].seconds - 1);
      after.push_back(result.rows[i].fitted_s / rows[i].seconds - 1);
    }
    c.rows = static_cast<int64_t>(idx.size());
    c.median_error_before = median_abs_error(before);
    c.median_error_after = median_abs_error(after);
    cal.classes[key] = c;
  }

  // Cross-validation: leave out each value of the column in turn.
  std::map<std::string, std::vector<size_t>> folds;
  for (size_t i = 0; i < rows.size(); ++i) {
    auto it = rows[i].extra.find(options.cv_column);
    if (it == rows[i].extra.end())
      throw InputError({rows[i].loc.file}, "no column '" + options.cv_column + "' to cross-validate by",
                       "--cv-by names a column of the CSV (default: model)");
    folds[it->second].push_back(i);
  }
  for (const auto& [value, held] : folds) {
    std::set<size_t> out(held.begin(), held.end());
    std::map<Key, std::vector<size_t>> train;
    std::vector<size_t> training;
    for (const auto& [key, idx] : members)
      for (size_t i : idx)
        if (!out.count(i)) train[key].push_back(i), training.push_back(i);
    const Roofs fold_roofs = fitted_roofs(terms, training, bandwidth, options.fit_peaks, launch);
    const std::vector<Terms> fold_terms = against(terms, fold_roofs);
    std::map<Key, ClassFit> fit = fit_all(train, fold_terms, fold_roofs.bandwidth, launch, options.shared);
    for (size_t i : held) {
      const std::optional<double> s = predict_fastest(fold_terms[i], row_class(rows[i], hw), fit);
      result.rows[i].held_out_calibrated = s.has_value();
      result.rows[i].held_out_s = s.value_or(result.rows[i].pure_s);
      result.rows[i].held_out_roofline_s =
          options.fit_peaks ? roofline_seconds(fold_terms[i], fold_roofs, launch) : result.rows[i].pure_s;
    }
  }
  for (const auto& [key, idx] : members) {
    std::vector<double> pure, held;
    for (size_t i : idx) {
      pure.push_back(result.rows[i].pure_s / rows[i].seconds - 1);
      held.push_back(result.rows[i].held_out_s / rows[i].seconds - 1);
    }
    cal.classes.at(key).median_error_held_out = median_abs_error(held);
    if (median_abs_error(held) >= median_abs_error(pure)) {
      result.dropped[key] = cal.classes.at(key);
      cal.classes.erase(key);
    }
  }
  return result;
}

}  // namespace ridge
