// What the translator knows of an activation's values where they bound a size that
// depends on the data (tensor.hpp: prob_row, true_at_most, integers, one_of), and the
// NonZero sizes that follow:
//   - Greater(p, t) of softmax probabilities p (rows summing to at most 1) and a
//     threshold t > 0 (R-CNN's box_score_thresh, 0.05): fewer than 1 / t entries of a
//     row exceed t, so at most rows x min(row, ceil(1 / t) - 1) are true (19 of each
//     RoI's 90 classes at 0.05). A bound that holds for any weights.
//   - Equal(level, k) of an integer activation clipped to [lo, hi] (MultiScaleRoIAlign's
//     FPN level of each RoI, torchvision's LevelMapper): the RoIs of one of hi - lo + 1
//     levels. Which level a RoI goes to depends on its size; ridge assumes they spread
//     evenly (ceil(R / levels) each), so the levels' RoIAlign and scatter count the R
//     RoIs once in all. The pooling's FLOPs per RoI are the same at every level, so its
//     FLOPs are exact for any split; the feature maps read are each level's own. A level
//     outside [lo, hi] takes no RoI, which ridge cannot size (0): it is counted at its
//     upper bound, every RoI, and a note says so.
// Each bound or assumption taken is a note in the report's header.
#include "sim/workload/onnx/translator.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/base/checked_math.hpp"

namespace ridge::onnx_import {

namespace {
std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
bool integral(double v) { return std::isfinite(v) && v == std::floor(v); }
}  // namespace

// After node `n` of activation x and a one-element constant c (x op c) made its output.
void Translator::bound_by_constant(const onnx::NodeProto& n, const Tensor& x, double c) {
  Tensor& out = tensors_[n.output(0)];
  const std::string& op = n.op_type();
  if (op == "Greater" && x.prob_row > 0 && c > 0 && c <= 1) {
    const int64_t per_row = std::min<int64_t>(x.prob_row, static_cast<int64_t>(std::ceil(1 / c)) - 1);
    const int64_t rows = element_count(x.shape) / x.prob_row;
    out.true_at_most = checked_mul(rows, per_row);
    bounds_.insert("bound: probabilities above the threshold " + number(c) + " are at most " +
                   std::to_string(per_row) + " of each row of " + std::to_string(x.prob_row) +
                   " (each row sums to 1): " + std::to_string(out.true_at_most) + " of " +
                   std::to_string(element_count(x.shape)) + " pass");
  } else if ((op == "Add" || op == "Sub") && x.integers && integral(c)) {
    const double shift = op == "Add" ? c : -c;
    out.integers = ValueRange{x.integers->lo + shift, x.integers->hi + shift};
  } else if (op == "Equal" && x.integers && integral(x.integers->lo) && integral(x.integers->hi)) {
    if (c >= x.integers->lo && c <= x.integers->hi) {
      out.one_of = static_cast<int64_t>(x.integers->hi - x.integers->lo) + 1;
    } else {  // (a size of 0 is not modelled: the level is counted at its upper bound)
      bounds_.insert("bound: node '" + n.name() + "' selects level " + number(c) + ", outside the levels " +
                     number(x.integers->lo) + " to " + number(x.integers->hi) +
                     " the graph clips to, so it takes no RoI; ridge counts it at its upper bound, every RoI");
    }
  }
}

// The elements a NonZero of mask x keeps, at most (every element when nothing bounds it).
int64_t Translator::nonzero_bound(const Tensor& x) {
  const int64_t all = element_count(x.shape);
  if (x.true_at_most > 0) return std::min(all, x.true_at_most);
  if (x.one_of > 1) {
    const int64_t each = (all + x.one_of - 1) / x.one_of;
    bounds_.insert("assumption: the " + std::to_string(all) + " RoIs spread evenly over MultiScaleRoIAlign's " +
                   std::to_string(x.one_of) + " levels, " + std::to_string(each) +
                   " each (the pooling's FLOPs are the same for any split)");
    return each;
  }
  return all;
}

}  // namespace ridge::onnx_import
