// Robust least-squares fit of per-class efficiencies (see calibration_fit.hpp).
#include "sim/engine/calibration_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

#include <Eigen/Dense>

#include "hw/attainable_rates.hpp"

namespace ridge {

namespace {

using Key = std::pair<OpClass, DType>;

// A row reduced to what the parameters act on:
//   time = max((flops + h) x seconds_per_flop / e, memory at its level) + fixed.
struct Terms {
  double flops = 0;
  double seconds_per_flop = 0;  // 1 / peak (0 for a row without FLOPs)
  int level = -1;          // the serving level (cache rule); -1 without traffic
  double level_bytes = 0;  // bytes it streams there
  double fixed = 0;        // link + launch
  double log_measured = 0;
};

// Which parameter gives each memory level's fraction for one class: p = (log e, log h,
// log m for each level with its own fraction). A level without one streams at the
// nearest such level's attained bandwidth, capped by its own (hw/attainable_rates.hpp).
struct LevelParameters {
  std::vector<int> own;      // per level: index into p, or -1
  std::vector<int> nearest;  // per level: the level whose fraction it borrows (itself if own)
  std::vector<double> bandwidth;
  int size() const { return 2 + static_cast<int>(std::count_if(own.begin(), own.end(), [](int k) { return k >= 0; })); }
};

// Levels with at least kParametersPerClass of `count` get their own fraction (the
// level with the most when none has).
LevelParameters level_parameters(const std::vector<int>& count, const std::vector<double>& bandwidth) {
  LevelParameters lp;
  lp.bandwidth = bandwidth;
  const int levels = static_cast<int>(bandwidth.size());
  lp.own.assign(static_cast<size_t>(levels), -1);
  int k = 2;
  for (int l = 0; l < levels; ++l)
    if (count[static_cast<size_t>(l)] >= kParametersPerClass) lp.own[static_cast<size_t>(l)] = k++;
  if (k == 2 && levels > 0)
    lp.own[static_cast<size_t>(std::max_element(count.begin(), count.end()) - count.begin())] = k++;
  std::vector<bool> has_fraction;
  for (int k : lp.own) has_fraction.push_back(k >= 0);
  for (int l = 0; l < levels; ++l) lp.nearest.push_back(fraction_level(has_fraction, l));
  return lp;
}

// The functions below take x = exp(p): the efficiencies and n_half themselves.

// The row's memory time and the parameter that sets it (-1: its level's full bandwidth).
std::pair<double, int> memory_time(const Terms& t, const Eigen::VectorXd& x, const LevelParameters& lp) {
  if (t.level < 0) return {0.0, -1};
  const size_t l = static_cast<size_t>(t.level);
  const int k = lp.own[static_cast<size_t>(lp.nearest[l])];
  const double borrowed = t.level_bytes / (lp.bandwidth[static_cast<size_t>(lp.nearest[l])] * x[k]);
  const double full = t.level_bytes / lp.bandwidth[l];
  if (lp.own[l] >= 0 || borrowed >= full) return {borrowed, k};
  return {full, -1};
}

// (flops + n_half) / (peak x e): finite for any FLOP count, however small.
double compute_time(const Terms& t, const Eigen::VectorXd& x) {
  return t.flops > 0 ? (t.flops + x[1]) * t.seconds_per_flop / x[0] : 0;
}

double predict(const Terms& t, const Eigen::VectorXd& x, const LevelParameters& lp) {
  return std::max(compute_time(t, x), memory_time(t, x, lp).first) + t.fixed;
}

constexpr double kHuberDelta = 0.1;  // |log error| beyond ~10 % is down-weighted
constexpr double kMinLogH = 0;       // n_half >= 1 FLOP
constexpr double kMaxLogH = 40;      // ~2e17 FLOP

void clamp(Eigen::VectorXd& p) {
  p[0] = std::clamp(p[0], std::log(1e-4), 0.0);
  p[1] = std::clamp(p[1], kMinLogH, kMaxLogH);
  for (Eigen::Index k = 2; k < p.size(); ++k) p[k] = std::clamp(p[k], std::log(1e-4), 0.0);
}

double robust_cost(const std::vector<Terms>& rows, const Eigen::VectorXd& p, const LevelParameters& lp) {
  const Eigen::VectorXd x = p.array().exp();
  double cost = 0;
  for (const Terms& t : rows) {
    double r = std::abs(std::log(predict(t, x, lp)) - t.log_measured);
    cost += r <= kHuberDelta ? 0.5 * r * r : kHuberDelta * (r - 0.5 * kHuberDelta);
  }
  return cost;
}

// Levenberg-Marquardt with iteratively reweighted (Huber) residuals, from one start.
Eigen::VectorXd fit_from(const std::vector<Terms>& rows, Eigen::VectorXd p, const LevelParameters& lp) {
  clamp(p);
  const Eigen::Index n = p.size();
  double cost = robust_cost(rows, p, lp), lambda = 1e-2;
  for (int iter = 0; iter < 100; ++iter) {
    Eigen::MatrixXd jtj = Eigen::MatrixXd::Zero(n, n);
    Eigen::VectorXd jtr = Eigen::VectorXd::Zero(n);
    const Eigen::VectorXd x = p.array().exp();
    for (const Terms& t : rows) {
      const double compute = compute_time(t, x);
      const auto [memory, k] = memory_time(t, x, lp);
      const double total = std::max(compute, memory) + t.fixed;
      const double r = std::log(total) - t.log_measured;
      const double w = std::abs(r) <= kHuberDelta ? 1.0 : kHuberDelta / std::abs(r);
      // d log(total) / d p has at most two non-zero entries: (e, n_half) or one fraction.
      std::array<std::pair<Eigen::Index, double>, 2> j{};
      int nonzero = 0;
      if (compute >= memory) {
        j[nonzero++] = {0, -compute / total};
        if (t.flops > 0) j[nonzero++] = {1, x[1] * t.seconds_per_flop / x[0] / total};
      } else if (k >= 0) {
        j[nonzero++] = {k, -memory / total};
      }
      for (int a = 0; a < nonzero; ++a) {
        jtr[j[a].first] += w * j[a].second * r;
        for (int b = 0; b < nonzero; ++b) jtj(j[a].first, j[b].first) += w * j[a].second * j[b].second;
      }
    }
    bool improved = false;
    for (int tries = 0; tries < 10 && !improved; ++tries) {
      Eigen::MatrixXd a = jtj;
      a.diagonal() += lambda * (jtj.diagonal().array() + 1e-9).matrix();
      Eigen::VectorXd next = p - a.ldlt().solve(jtr);
      clamp(next);
      double c = robust_cost(rows, next, lp);
      if (c < cost) {
        improved = true;
        const bool converged = cost - c < 1e-12 * (1 + cost);
        p = next;
        cost = c;
        lambda = std::max(lambda / 3, 1e-9);
        if (converged) return p;
      } else {
        lambda *= 4;
      }
    }
    if (!improved) break;
  }
  return p;
}

// One class's fitted parameters and the levels they give fractions for.
struct ClassFit {
  Eigen::VectorXd p;
  LevelParameters levels;
};

// The best of a few starts (the max() makes the cost non-convex).
Eigen::VectorXd best_start(const std::vector<Terms>& rows, const LevelParameters& lp) {
  std::vector<double> flops;
  for (const Terms& t : rows) flops.push_back(std::max(t.flops, 1.0));
  std::nth_element(flops.begin(), flops.begin() + flops.size() / 2, flops.end());
  const double median_flops = flops[flops.size() / 2];
  Eigen::VectorXd best = Eigen::VectorXd::Zero(lp.size());
  double best_cost = robust_cost(rows, best, lp);
  // Efficiencies span decades (a generic BLAS on a wide-vector CPU attains ~1 % of peak).
  for (double e : {1.0, 0.1, 0.01})
    for (double h : {1.0, 0.3 * median_flops})
      for (double m : {1.0, 0.1}) {
        Eigen::VectorXd start = Eigen::VectorXd::Constant(lp.size(), std::log(m));
        start[0] = std::log(e);
        start[1] = std::log(std::max(h, 1.0));
        Eigen::VectorXd p = fit_from(rows, start, lp);
        double c = robust_cost(rows, p, lp);
        if (c < best_cost) best_cost = c, best = p;
      }
  return best;
}

// Fits a class: first with a fraction for every level serving enough rows, then with a
// fraction only for the levels whose rows bind (memory slower than compute) often
// enough, until that set repeats; the set with the lowest cost is kept. A fraction that
// then binds no row is unknown, and becomes 1 (the level's full bandwidth): that changes
// no prediction, and claims no inefficiency the data does not show.
ClassFit fit_group(const std::vector<Terms>& rows, const std::vector<double>& bandwidth) {
  std::vector<int> served(bandwidth.size(), 0);
  for (const Terms& t : rows)
    if (t.level >= 0) ++served[static_cast<size_t>(t.level)];
  ClassFit fit{Eigen::VectorXd::Zero(0), level_parameters(served, bandwidth)};
  fit.p = best_start(rows, fit.levels);
  std::vector<std::pair<double, ClassFit>> tried{{robust_cost(rows, fit.p, fit.levels), fit}};
  for (int pass = 0; pass < 4; ++pass) {
    std::vector<int> binding(bandwidth.size(), 0);
    const Eigen::VectorXd x = fit.p.array().exp();
    for (const Terms& t : rows)
      if (t.level >= 0 && memory_time(t, x, fit.levels).first > compute_time(t, x))
        ++binding[static_cast<size_t>(t.level)];
    if (std::count(binding.begin(), binding.end(), 0) == static_cast<long>(binding.size())) break;
    LevelParameters next = level_parameters(binding, bandwidth);
    if (std::any_of(tried.begin(), tried.end(), [&](const auto& t) { return t.second.levels.own == next.own; })) break;
    fit.levels = next;
    fit.p = best_start(rows, fit.levels);
    tried.emplace_back(robust_cost(rows, fit.p, fit.levels), fit);
  }
  fit = std::min_element(tried.begin(), tried.end(), [](const auto& a, const auto& b) { return a.first < b.first; })->second;
  std::vector<bool> binds(static_cast<size_t>(fit.p.size()), false);
  const Eigen::VectorXd x = fit.p.array().exp();
  for (const Terms& t : rows) {
    auto [memory, k] = memory_time(t, x, fit.levels);
    if (k >= 0 && memory > compute_time(t, x)) binds[static_cast<size_t>(k)] = true;
  }
  for (Eigen::Index k = 2; k < fit.p.size(); ++k)
    if (!binds[static_cast<size_t>(k)]) fit.p[k] = 0;
  return fit;
}

double median_abs_error(std::vector<double> errors) {
  if (errors.empty()) return 0;
  for (double& e : errors) e = std::abs(e);
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  return errors[errors.size() / 2];
}

ClassEfficiency to_efficiency(const ClassFit& fit, const HardwareSpec& hw) {
  ClassEfficiency c;
  c.compute = std::exp(fit.p[0]);
  c.n_half_flops = std::exp(fit.p[1]) <= 1.0 ? 0.0 : std::exp(fit.p[1]);
  for (size_t l = 0; l < fit.levels.own.size(); ++l)
    if (fit.levels.own[l] >= 0) c.memory_by_level[hw.memory[l].name] = std::exp(fit.p[fit.levels.own[l]]);
  return c;
}

std::string group_name(const Key& k) {
  return "op class '" + std::string(op_class_name(k.first)) + "' (" + std::string(dtype_name(k.second)) + ")";
}

// Fits every group in `members` (indices into terms); groups smaller than the
// parameter count are left out of the result.
std::map<Key, ClassFit> fit_all(const std::map<Key, std::vector<size_t>>& members, const std::vector<Terms>& terms,
                                const std::vector<double>& bandwidth) {
  std::map<Key, ClassFit> out;
  for (const auto& [key, idx] : members) {
    if (idx.size() < kParametersPerClass) continue;
    std::vector<Terms> rows;
    for (size_t i : idx) rows.push_back(terms[i]);
    out.emplace(key, fit_group(rows, bandwidth));
  }
  return out;
}

}  // namespace

CalibrationResult fit_calibration(const std::vector<MeasuredLayer>& rows, const HardwareSpec& hw,
                                  const HardwareModel& model, const CalibrationOptions& options) {
  // Unit parameters for every class present give the terms the parameters scale.
  HardwareSpec pure = hw, unit = hw;
  pure.calibration.reset();
  unit.calibration = Calibration{};
  unit.calibration->cache_rule = true;
  std::map<Key, std::vector<size_t>> members;
  std::map<Key, SourceLoc> first_row;
  for (size_t i = 0; i < rows.size(); ++i) {
    const MeasuredLayer& r = rows[i];
    if (!hw.peak(r.dtype))
      throw InputError(r.loc, hw.id + " has no " + std::string(dtype_name(r.dtype)) + " peak to calibrate against",
                       "add it to the descriptor's [compute] or drop these rows");
    Key key{r.work.op_class, r.dtype};
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
  for (const MemoryLevel& m : hw.memory) bandwidth.push_back(m.bandwidth_Bps);
  std::vector<Terms> terms(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const MeasuredLayer& r = rows[i];
    LayerTiming u = model.time_layer(r.work, unit, r.dtype);
    Terms& t = terms[i];
    t.flops = r.work.flops;
    t.seconds_per_flop = t.flops > 0 ? u.compute_s / t.flops : 0;
    if (u.memory_s > 0) {
      t.level = static_cast<int>(std::max_element(u.level_s.begin(), u.level_s.end()) - u.level_s.begin());
      t.level_bytes = u.memory_s * bandwidth[static_cast<size_t>(t.level)];
    }
    t.fixed = u.link_s + u.overhead_s;
    t.log_measured = std::log(r.seconds);
    result.rows[i].pure_s = model.time_layer(r.work, pure, r.dtype).time_s;
  }

  std::map<Key, ClassFit> all = fit_all(members, terms, bandwidth);
  Calibration& cal = result.calibration;
  cal.cache_rule = true;
  cal.data = options.data;
  cal.date = options.date;
  cal.method = "Levenberg-Marquardt on log time, Huber weights (delta " + std::to_string(kHuberDelta).substr(0, 3) +
               "); held-out error by leaving out each '" + options.cv_column + "' in turn";
  for (const auto& [key, idx] : members) {
    const ClassFit& fit = all.at(key);
    ClassEfficiency c = to_efficiency(fit, hw);
    std::vector<double> before, after;
    for (size_t i : idx) {
      result.rows[i].fitted_s = predict(terms[i], fit.p.array().exp().matrix(), fit.levels);
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
    for (const auto& [key, idx] : members)
      for (size_t i : idx)
        if (!out.count(i)) train[key].push_back(i);
    std::map<Key, ClassFit> fit = fit_all(train, terms, bandwidth);
    for (size_t i : held) {
      auto it = fit.find({rows[i].work.op_class, rows[i].dtype});
      result.rows[i].held_out_calibrated = it != fit.end();
      result.rows[i].held_out_s =
          it != fit.end() ? predict(terms[i], it->second.p.array().exp().matrix(), it->second.levels) : result.rows[i].pure_s;
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
