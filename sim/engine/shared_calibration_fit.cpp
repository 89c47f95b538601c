// The shared-term calibration fit (see shared_calibration_fit.hpp).
#include "sim/engine/shared_calibration_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace ridge::calibration_model {

namespace {

using Key = ClassKey;

// Where each shared parameter sits in the vector q (logs): q[0] = t0, then per dtype
// e_m and n_half, then per group e_c.
struct Layout {
  std::map<DType, int> memory, n_half;
  std::map<Key, int> compute;
  int size = 1;
};

struct Row {
  const Terms* terms;
  int compute, memory, n_half;  // indices into q
};

constexpr double kMinLogT0 = -23;  // ~0.1 ns
constexpr double kMaxLogT0 = -4.6; // ~10 ms
constexpr double kMinLogH = 0, kMaxLogH = 40;
const double kMinLogFraction = std::log(1e-4);

void clamp(Eigen::VectorXd& q, const Layout& layout) {
  q[0] = std::clamp(q[0], kMinLogT0, kMaxLogT0);
  for (const auto& [d, k] : layout.n_half) q[k] = std::clamp(q[k], kMinLogH, kMaxLogH);
  for (const auto& [d, k] : layout.memory) q[k] = std::clamp(q[k], kMinLogFraction, 0.0);
  for (const auto& [g, k] : layout.compute) q[k] = std::clamp(q[k], kMinLogFraction, 0.0);
}

// The row's compute and memory time under q (as calibration_model's predict, overlapped).
std::pair<double, double> sides(const Row& r, const Eigen::VectorXd& x, const std::vector<double>& bandwidth) {
  const Terms& t = *r.terms;
  const double compute = t.flops > 0 ? (t.flops + x[r.n_half]) * t.seconds_per_flop / x[r.compute] : 0.0;
  const double memory = t.level >= 0 ? t.level_bytes / (bandwidth[static_cast<size_t>(t.level)] * x[r.memory]) : 0.0;
  return {compute, memory};
}

double cost(const std::vector<Row>& rows, const Eigen::VectorXd& q, const std::vector<double>& bandwidth) {
  const Eigen::VectorXd x = q.array().exp();
  double c = 0;
  for (const Row& r : rows) {
    const auto [compute, memory] = sides(r, x, bandwidth);
    c += huber(std::log(r.terms->link_s + r.terms->kernels * x[0] + std::max(compute, memory)) - r.terms->log_measured);
  }
  return c;
}

// Levenberg-Marquardt with Huber-reweighted residuals from one start (as the per-class fit).
Eigen::VectorXd refine(const std::vector<Row>& rows, Eigen::VectorXd q, const Layout& layout,
                       const std::vector<double>& bandwidth) {
  clamp(q, layout);
  double c = cost(rows, q, bandwidth), lambda = 1e-2;
  for (int iter = 0; iter < 200; ++iter) {
    NormalEquations equations(q.size());
    const Eigen::VectorXd x = q.array().exp();
    for (const Row& row : rows) {
      const Terms& t = *row.terms;
      const auto [compute, memory] = sides(row, x, bandwidth);
      const double total = t.link_s + t.kernels * x[0] + std::max(compute, memory);
      // d log(total) / d q: t0, and either the compute side (e_c, n_half) or the memory side (e_m).
      std::array<std::pair<Eigen::Index, double>, 3> j{};
      int nonzero = 0;
      j[nonzero++] = {0, t.kernels * x[0] / total};
      if (compute >= memory && t.flops > 0) {
        j[nonzero++] = {row.compute, -compute / total};
        j[nonzero++] = {row.n_half, x[row.n_half] * t.seconds_per_flop / x[row.compute] / total};
      } else if (t.level >= 0) {
        j[nonzero++] = {row.memory, -memory / total};
      }
      equations.add_row(j, nonzero, std::log(total) - t.log_measured);
    }
    const Step step = levenberg_marquardt_step(
        q, c, lambda, equations, [&](const Eigen::VectorXd& v) { return cost(rows, v, bandwidth); },
        [&](Eigen::VectorXd& v) { clamp(v, layout); });
    if (step != Step::moved) break;
  }
  return q;
}

}  // namespace

std::map<Key, ClassFit> fit_shared(const std::map<Key, std::vector<size_t>>& members, const std::vector<Terms>& terms,
                                   const std::vector<double>& bandwidth, double launch_s) {
  Layout layout;
  std::vector<Row> rows;
  std::vector<double> flops;
  double fastest = 0;
  for (const auto& [key, idx] : members) {
    if (idx.size() < static_cast<size_t>(kParametersPerClass)) continue;
    if (!layout.memory.count(key.dtype)) {
      layout.memory[key.dtype] = layout.size++;
      layout.n_half[key.dtype] = layout.size++;
    }
    layout.compute[key] = layout.size++;
    for (size_t i : idx) {
      rows.push_back({&terms[i], layout.compute[key], layout.memory[key.dtype], layout.n_half[key.dtype]});
      flops.push_back(std::max(terms[i].flops, 1.0));
      const double measured = std::exp(terms[i].log_measured);
      fastest = fastest > 0 ? std::min(fastest, measured) : measured;
    }
  }
  std::map<Key, ClassFit> out;
  if (rows.empty()) return out;
  std::nth_element(flops.begin(), flops.begin() + static_cast<std::ptrdiff_t>(flops.size() / 2), flops.end());
  const double median_flops = flops[flops.size() / 2];
  // Starts: t0 the descriptor's launch or half the fastest kernel measured, efficiencies
  // full or a tenth, n_half none or a third of the median FLOP count; each is refined
  // (the max() makes the cost non-convex) and the cheapest result kept.
  std::vector<std::pair<double, Eigen::VectorXd>> grid;
  for (double t0 : {std::max(launch_s, 1e-9), 0.5 * fastest})
    for (double e : {1.0, 0.1})
      for (double m : {1.0, 0.5})
        for (double h : {1.0, 0.3 * median_flops}) {
          Eigen::VectorXd q(layout.size);
          q[0] = std::log(t0);
          for (const auto& [d, k] : layout.memory) q[k] = std::log(m);
          for (const auto& [d, k] : layout.n_half) q[k] = std::log(std::max(h, 1.0));
          for (const auto& [g, k] : layout.compute) q[k] = std::log(e);
          clamp(q, layout);
          grid.emplace_back(cost(rows, q, bandwidth), q);
        }
  std::sort(grid.begin(), grid.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Eigen::VectorXd best = grid.front().second;
  double best_cost = grid.front().first;
  for (size_t i = 0; i < grid.size(); ++i) {
    const Eigen::VectorXd q = refine(rows, grid[i].second, layout, bandwidth);
    const double c = cost(rows, q, bandwidth);
    if (c < best_cost) best_cost = c, best = q;
  }

  // Each group in the per-class layout: (log e_c, log n_half, log e_m for every level).
  const int levels = static_cast<int>(bandwidth.size());
  for (const auto& [key, k] : layout.compute) {
    ClassFit fit;
    fit.parameters.kernel_s = std::exp(best[0]);
    fit.parameters.bandwidth = bandwidth;
    fit.p = Eigen::VectorXd(2 + levels);
    fit.p[0] = best[k];
    fit.p[1] = best[layout.n_half.at(key.dtype)];
    for (int l = 0; l < levels; ++l) {
      fit.parameters.own.push_back(2 + l);
      fit.parameters.nearest.push_back(l);
      fit.p[2 + l] = best[layout.memory.at(key.dtype)];
    }
    out.emplace(key, fit);
  }
  return out;
}

}  // namespace ridge::calibration_model
