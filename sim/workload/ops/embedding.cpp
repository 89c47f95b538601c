// Embedding lookup (PyTorch's nn.Embedding): a table of num_embeddings x embedding_dim
// (V x D) parameters; an input of ids of any per-sample shape [...] gives [..., D].
// A lookup is a gather, no arithmetic: 0 MACs, 0 FLOPs. It reads only the rows its ids
// select, so its weight traffic is per sample (gathered_weight_elems = ids x D, scaled
// by the batch in cost analysis), not the whole V x D table. The ids are counted as
// input elements at the run's dtype (PyTorch holds them as int64; the difference is
// one element per id, beside D per id written).
// Backward: no input gradient (ids are not differentiable); the weight gradient
// scatter-adds each output gradient row into its table row: ids x D adds. It keeps the
// ids (the input).
#include "sim/base/checked_math.hpp"
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult embedding(TomlFields& a, const std::vector<Shape>& in) {
  const Shape& ids = in[0];
  int64_t v = a.positive("num_embeddings");
  int64_t d = a.positive("embedding_dim");
  if (auto p = a.optional_integer("padding_idx"); p && (*p < -v || *p >= v))
    a.fail("padding_idx", "must be a row of the table, in [-num_embeddings, num_embeddings)");
  OpResult r;
  r.output = ids;
  r.output.push_back(d);
  LayerCounts& n = r.counts;
  n.params = checked_mul(v, d);
  n.weight_rows = v;
  n.weight_cols = d;
  n.input_elems = element_count(ids);
  n.output_elems = element_count(r.output);
  n.gathered_weight_elems = n.output_elems;
  n.bwd_weight_other_flops = n.output_elems;
  n.saves_input = true;
  return r;
}

}  // namespace ridge::ops
