// Scaling per-sample counts to a run (see cost_analysis.hpp).
#include "sim/cost_analysis.hpp"

#include "sim/checked_math.hpp"
#include "sim/error.hpp"

namespace ridge {

double LayerCost::arithmetic_intensity() const {
  int64_t b = bytes();
  return b > 0 ? static_cast<double>(flops) / static_cast<double>(b) : 0.0;
}

bool reads_only_model_input(const Layer& layer) {
  for (int in : layer.inputs)
    if (in != kModelInput) return false;
  return true;
}

namespace {

LayerCost layer_cost(const Layer& layer, const RunSettings& s) {
  const LayerCounts& c = layer.counts;
  LayerCost r;
  r.params = c.params;
  bool skipped = s.phase == Phase::inference && c.identity_at_inference;
  if (skipped || c.is_view) return r;  // no arithmetic and no data moved
  int64_t b = s.batch;
  int64_t size = dtype_bytes(s.dtype);
  r.macs = checked_mul(c.macs, b);
  r.flops = checked_mul(c.flops, b);
  r.input_bytes = checked_product({c.input_elems, b, size});
  r.output_bytes = checked_product({c.output_elems, b, size});
  // Dense weights are read once per pass; gathered rows (embeddings) once per sample.
  r.weight_bytes = checked_mul(checked_add(c.weight_elems, checked_mul(c.gathered_weight_elems, b)), size);
  if (s.phase == Phase::training) {
    bool input_grad = !reads_only_model_input(layer);
    int64_t macs = checked_add(input_grad ? c.bwd_input_macs : 0, c.bwd_weight_macs);
    int64_t other = checked_add(input_grad ? c.bwd_input_other_flops : 0, c.bwd_weight_other_flops);
    r.backward_macs = checked_mul(macs, b);
    r.backward_flops = checked_mul(checked_add(checked_mul(2, macs), other), b);
  }
  return r;
}

void accumulate(LayerCost& total, const LayerCost& l) {
  total.params = checked_add(total.params, l.params);
  total.macs = checked_add(total.macs, l.macs);
  total.flops = checked_add(total.flops, l.flops);
  total.input_bytes = checked_add(total.input_bytes, l.input_bytes);
  total.output_bytes = checked_add(total.output_bytes, l.output_bytes);
  total.weight_bytes = checked_add(total.weight_bytes, l.weight_bytes);
  total.backward_macs = checked_add(total.backward_macs, l.backward_macs);
  total.backward_flops = checked_add(total.backward_flops, l.backward_flops);
}

}  // namespace

CostAnalysis analyze_costs(const Model& model, const RunSettings& settings) {
  CostAnalysis a;
  a.settings = settings;
  a.layers.reserve(model.layers.size());
  for (const Layer& layer : model.layers) {
    try {
      a.layers.push_back(layer_cost(layer, settings));
      accumulate(a.totals, a.layers.back());
    } catch (const CountOverflow&) {
      throw InputError(layer.loc, "layer '" + layer.name + "': at batch " + std::to_string(settings.batch) +
                                      " its counts overflow 64 bits",
                       "use a smaller --batch");
    }
  }
  return a;
}

}  // namespace ridge
