// The kernel-time model `ridge calibrate` fits, shared by its per-class fit
// (calibration_fit.cpp) and its shared-term fit (shared_calibration_fit.cpp): a measured
// row reduced to the terms the parameters act on, a class's parameter layout, and the
// predicted time. Internal to sim/engine.
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include "hw/attainable_rates.hpp"
#include "hw/calibration.hpp"
#include "hw/hardware_model.hpp"
#include "sim/workload/dtype.hpp"

namespace ridge::calibration_model {

// A row reduced to what the parameters act on:
//   compute = (flops + h) x seconds_per_flop / e x (1 + P_half / positions) x (1 + K_half / reduction),
//   time = max(compute, memory at its level) + link + kernels x kernel_s (or compute + memory
//   where they do not overlap).
struct Terms {
  DType dtype = DType::fp32;
  double flops = 0;
  double seconds_per_flop = 0;  // 1 / peak (0 for a row without FLOPs)
  double positions = 0;    // its GEMM's rows (LayerWork::gemm_positions; 0: no GEMM)
  double reduction = 0;    // and dot-product length
  int level = -1;          // the serving level (cache rule); -1 without traffic
  double level_bytes = 0;  // bytes it streams there
  std::vector<double> bytes_by_level;  // every level's bytes (a stream may be split over levels)
  double link_s = 0;       // host-link time
  double kernels = 0;      // kernel launches, each paying ClassParameters::kernel_s
  double log_measured = 0;
  // Other algorithms that may run the row (a convolution's, hw/conv_algorithms.hpp): each
  // fitted in its own class, with its own multiplications and peak. `flops` and
  // `seconds_per_flop` above are the row's own class's (its fastest at the pure roofline);
  // the row takes whichever is fastest under the fitted parameters.
  struct Alternative {
    ClassKey key;
    double flops = 0;
    double seconds_per_flop = 0;
  };
  std::vector<Alternative> alternatives;

  // The row as its alternative `a` runs it.
  Terms as(const Alternative& a) const {
    Terms t = *this;
    t.flops = a.flops;
    t.seconds_per_flop = a.seconds_per_flop;
    t.alternatives.clear();
    return t;
  }
};

// The parameters of one class, p = (log e, log h, [log P_half], [log K_half], log m for
// each level with its own fraction), and how they combine. A level without its own
// fraction streams at the nearest such level's attained bandwidth, capped by its own
// (hw/attainable_rates.hpp).
struct ClassParameters {
  int positions = -1;        // index into p of log positions_half, or -1 (no such term)
  int reduction = -1;        // of log reduction_half
  bool overlap = true;       // max(compute, memory); false: their sum
  double kernel_s = 0;       // fixed time per kernel: the descriptor's launch, or a shared fit's
  std::vector<int> own;      // per level: index into p, or -1
  std::vector<int> nearest;  // per level: the level whose fraction it borrows (itself if own)
  std::vector<double> bandwidth;
  int first_level() const { return 2 + (positions >= 0) + (reduction >= 0); }
  int size() const {
    return first_level() + static_cast<int>(std::count_if(own.begin(), own.end(), [](int k) { return k >= 0; }));
  }
};

// The functions below take x = exp(p): the efficiencies and halves themselves.

// The row's memory time and the parameter that sets it (-1: its level's full bandwidth).
inline std::pair<double, int> memory_time(const Terms& t, const Eigen::VectorXd& x, const ClassParameters& cp) {
  if (t.level < 0) return {0.0, -1};
  const size_t l = static_cast<size_t>(t.level);
  const int k = cp.own[static_cast<size_t>(cp.nearest[l])];
  const double borrowed = t.level_bytes / (cp.bandwidth[static_cast<size_t>(cp.nearest[l])] * x[k]);
  const double full = t.level_bytes / cp.bandwidth[l];
  if (cp.own[l] >= 0 || borrowed >= full) return {borrowed, k};
  return {full, -1};
}

// The shape terms' slowdowns (hw/attainable_rates.hpp): 1 for a term the class lacks or
// the row has no GEMM for.
inline std::pair<double, double> shape_slowdowns(const Terms& t, const Eigen::VectorXd& x, const ClassParameters& cp) {
  return gemm_shape_slowdowns(t.positions, t.reduction, cp.positions >= 0 ? x[cp.positions] : 0.0,
                              cp.reduction >= 0 ? x[cp.reduction] : 0.0);
}

// (flops + n_half) / (peak x e x shape): finite for any FLOP count, however small.
inline double compute_time(const Terms& t, const Eigen::VectorXd& x, const ClassParameters& cp) {
  if (t.flops <= 0) return 0;
  const auto [sp, sk] = shape_slowdowns(t, x, cp);
  return (t.flops + x[1]) * t.seconds_per_flop / x[0] * sp * sk;
}

inline double fixed_time(const Terms& t, const ClassParameters& cp) { return t.link_s + t.kernels * cp.kernel_s; }

inline double predict(const Terms& t, const Eigen::VectorXd& x, const ClassParameters& cp) {
  return kernel_time_s(compute_time(t, x, cp), memory_time(t, x, cp).first, cp.overlap) + fixed_time(t, cp);
}

constexpr double kHuberDelta = 0.1;  // |log error| beyond ~10 % is down-weighted

// The Huber loss of one log residual.
inline double huber(double r) {
  r = std::abs(r);
  return r <= kHuberDelta ? 0.5 * r * r : kHuberDelta * (r - 0.5 * kHuberDelta);
}


// The normal equations (jtj, jtr) of one Gauss-Newton step over `n` parameters, on log
// residuals reweighted as the Huber loss is (1 within kHuberDelta, kHuberDelta / |r| beyond).
struct NormalEquations {
  Eigen::MatrixXd jtj;
  Eigen::VectorXd jtr;
  explicit NormalEquations(Eigen::Index n) : jtj(Eigen::MatrixXd::Zero(n, n)), jtr(Eigen::VectorXd::Zero(n)) {}
  // Adds one row's log residual r and its `n` non-zero derivatives j (index, d log time /
  // d parameter).
  template <typename Derivatives>
  void add_row(const Derivatives& j, int n, double r) {
    const double w = std::abs(r) <= kHuberDelta ? 1.0 : kHuberDelta / std::abs(r);
    for (int a = 0; a < n; ++a) {
      jtr[j[a].first] += w * j[a].second * r;
      for (int b = 0; b < n; ++b) jtj(j[a].first, j[b].first) += w * j[a].second * j[b].second;
    }
  }
};

// The outcome of one Levenberg-Marquardt step.
enum class Step { stuck, moved, converged };

// One damped Gauss-Newton step from p on the normal equations: up to 10
// tries, the damping `lambda` x4 after each that does not lower the cost, /3 after one
// that does. `cost_of(q)` costs a parameter vector, `clamp_to(q)` keeps it in bounds.
// Moves p and `cost` on success; converged when the cost fell by under 1e-8 of itself.
template <typename Cost, typename Clamp>
Step levenberg_marquardt_step(Eigen::VectorXd& p, double& cost, double& lambda, const NormalEquations& equations,
                              Cost&& cost_of, Clamp&& clamp_to) {
  const Eigen::MatrixXd& jtj = equations.jtj;
  const Eigen::VectorXd& jtr = equations.jtr;
  for (int tries = 0; tries < 10; ++tries) {
    Eigen::MatrixXd a = jtj;
    a.diagonal() += lambda * (jtj.diagonal().array() + 1e-9).matrix();
    Eigen::VectorXd next = p - a.ldlt().solve(jtr);
    clamp_to(next);
    const double c = cost_of(next);
    if (c < cost) {
      const bool converged = cost - c < 1e-8 * (1 + cost);
      p = next;
      cost = c;
      lambda = std::max(lambda / 3, 1e-9);
      return converged ? Step::converged : Step::moved;
    }
    lambda *= 4;
  }
  return Step::stuck;
}

// One class's fitted parameters and what they mean.
struct ClassFit {
  Eigen::VectorXd p;
  ClassParameters parameters;
};

// The row's time under `fits`: the fastest of its own class `own` and its alternatives'
// classes that `fits` has (an autotuner keeps the fastest algorithm); none when it has none.
inline std::optional<double> predict_fastest(const Terms& t, const ClassKey& own, const std::map<ClassKey, ClassFit>& fits) {
  std::optional<double> best;
  auto consider = [&](const Terms& as, const ClassKey& key) {
    auto it = fits.find(key);
    if (it == fits.end()) return;
    const double s = predict(as, it->second.p.array().exp().matrix(), it->second.parameters);
    if (!best || s < *best) best = s;
  };
  consider(t, own);
  for (const Terms::Alternative& a : t.alternatives) consider(t.as(a), a.key);
  return best;
}

}  // namespace ridge::calibration_model
