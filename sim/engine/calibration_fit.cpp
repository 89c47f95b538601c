// Robust least-squares fit of per-class efficiencies (see calibration_fit.hpp).
#include "sim/engine/calibration_fit.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <Eigen/Dense>

namespace ridge {

namespace {

using Key = std::pair<OpClass, DType>;

// A row reduced to what the parameters act on: time = max(c0 (1 + h / flops) / e, m0 / m) + fixed.
struct Terms {
  double flops = 0;
  double c0 = 0;     // flops / peak
  double m0 = 0;     // memory time at the serving level's full bandwidth
  double fixed = 0;  // link + launch
  double log_measured = 0;
};

double predict(const Terms& t, const Eigen::Vector3d& p) {
  const double e = std::exp(p[0]), h = std::exp(p[1]), m = std::exp(p[2]);
  const double compute = t.flops > 0 ? t.c0 * (1 + h / t.flops) / e : 0;
  return std::max(compute, t.m0 / m) + t.fixed;
}

constexpr double kHuberDelta = 0.1;  // |log error| beyond ~10 % is down-weighted
constexpr double kMinLogH = 0;       // n_half >= 1 FLOP
constexpr double kMaxLogH = 40;      // ~2e17 FLOP

void clamp(Eigen::Vector3d& p) {
  p[0] = std::clamp(p[0], std::log(1e-4), 0.0);
  p[1] = std::clamp(p[1], kMinLogH, kMaxLogH);
  p[2] = std::clamp(p[2], std::log(1e-4), 0.0);
}

double robust_cost(const std::vector<Terms>& rows, const Eigen::Vector3d& p) {
  double cost = 0;
  for (const Terms& t : rows) {
    double r = std::abs(std::log(predict(t, p)) - t.log_measured);
    cost += r <= kHuberDelta ? 0.5 * r * r : kHuberDelta * (r - 0.5 * kHuberDelta);
  }
  return cost;
}

// Levenberg-Marquardt with iteratively reweighted (Huber) residuals, from one start.
Eigen::Vector3d fit_from(const std::vector<Terms>& rows, Eigen::Vector3d p) {
  clamp(p);
  double cost = robust_cost(rows, p), lambda = 1e-2;
  for (int iter = 0; iter < 100; ++iter) {
    Eigen::Matrix3d jtj = Eigen::Matrix3d::Zero();
    Eigen::Vector3d jtr = Eigen::Vector3d::Zero();
    const double e = std::exp(p[0]), h = std::exp(p[1]), m = std::exp(p[2]);
    for (const Terms& t : rows) {
      const double compute = t.flops > 0 ? t.c0 * (1 + h / t.flops) / e : 0, memory = t.m0 / m;
      const double total = std::max(compute, memory) + t.fixed;
      const double r = std::log(total) - t.log_measured;
      const double w = std::abs(r) <= kHuberDelta ? 1.0 : kHuberDelta / std::abs(r);
      Eigen::Vector3d j = Eigen::Vector3d::Zero();  // d log(total) / d (log e, log h, log m)
      if (compute >= memory) {
        j[0] = -compute / total;
        if (t.flops > 0) j[1] = t.c0 * (h / t.flops) / e / total;
      } else {
        j[2] = -memory / total;
      }
      jtj += w * j * j.transpose();
      jtr += w * j * r;
    }
    bool improved = false;
    for (int tries = 0; tries < 10 && !improved; ++tries) {
      Eigen::Matrix3d a = jtj;
      a.diagonal() += lambda * (jtj.diagonal().array() + 1e-9).matrix();
      Eigen::Vector3d next = p - a.ldlt().solve(jtr);
      clamp(next);
      double c = robust_cost(rows, next);
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

// The best of a few starts (the max() makes the cost non-convex).
Eigen::Vector3d fit_group(const std::vector<Terms>& rows) {
  std::vector<double> flops;
  for (const Terms& t : rows) flops.push_back(std::max(t.flops, 1.0));
  std::nth_element(flops.begin(), flops.begin() + flops.size() / 2, flops.end());
  const double median_flops = flops[flops.size() / 2];
  Eigen::Vector3d best(0, 0, 0);
  double best_cost = robust_cost(rows, best);
  // Efficiencies span decades (a generic BLAS on a wide-vector CPU attains ~1 % of peak).
  for (double e : {1.0, 0.1, 0.01})
    for (double h : {1.0, 0.3 * median_flops})
      for (double m : {1.0, 0.1}) {
        Eigen::Vector3d p = fit_from(rows, Eigen::Vector3d(std::log(e), std::log(std::max(h, 1.0)), std::log(m)));
        double c = robust_cost(rows, p);
        if (c < best_cost) best_cost = c, best = p;
      }
  return best;
}

double median_abs_error(std::vector<double> errors) {
  if (errors.empty()) return 0;
  for (double& e : errors) e = std::abs(e);
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  return errors[errors.size() / 2];
}

ClassEfficiency to_efficiency(const Eigen::Vector3d& p) {
  ClassEfficiency c;
  c.compute = std::exp(p[0]);
  c.n_half_flops = std::exp(p[1]) <= 1.0 ? 0.0 : std::exp(p[1]);
  c.memory = std::exp(p[2]);
  return c;
}

std::string group_name(const Key& k) {
  return "op class '" + std::string(op_class_name(k.first)) + "' (" + std::string(dtype_name(k.second)) + ")";
}

// Fits every group in `members` (indices into terms); groups smaller than the
// parameter count are left out of the result.
std::map<Key, Eigen::Vector3d> fit_all(const std::map<Key, std::vector<size_t>>& members, const std::vector<Terms>& terms) {
  std::map<Key, Eigen::Vector3d> out;
  for (const auto& [key, idx] : members) {
    if (idx.size() < kParametersPerClass) continue;
    std::vector<Terms> rows;
    for (size_t i : idx) rows.push_back(terms[i]);
    out[key] = fit_group(rows);
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
  std::vector<Terms> terms(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const MeasuredLayer& r = rows[i];
    LayerTiming u = model.time_layer(r.work, unit, r.dtype);
    Terms& t = terms[i];
    t.flops = r.work.flops;
    t.c0 = u.compute_s;
    t.m0 = u.memory_s;
    t.fixed = u.link_s + u.overhead_s;
    t.log_measured = std::log(r.seconds);
    result.rows[i].pure_s = model.time_layer(r.work, pure, r.dtype).time_s;
  }

  std::map<Key, Eigen::Vector3d> all = fit_all(members, terms);
  Calibration& cal = result.calibration;
  cal.cache_rule = true;
  cal.data = options.data;
  cal.date = options.date;
  cal.method = "Levenberg-Marquardt on log time, Huber weights (delta " + std::to_string(kHuberDelta).substr(0, 3) +
               "); held-out error by leaving out each '" + options.cv_column + "' in turn";
  for (const auto& [key, idx] : members) {
    const Eigen::Vector3d& p = all.at(key);
    ClassEfficiency c = to_efficiency(p);
    std::vector<double> before, after;
    for (size_t i : idx) {
      result.rows[i].fitted_s = predict(terms[i], p);
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
    std::map<Key, Eigen::Vector3d> fit = fit_all(train, terms);
    for (size_t i : held) {
      auto it = fit.find({rows[i].work.op_class, rows[i].dtype});
      result.rows[i].held_out_calibrated = it != fit.end();
      result.rows[i].held_out_s = it != fit.end() ? predict(terms[i], it->second) : result.rows[i].pure_s;
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
