// evaluate_layer (stacked_layer.hpp): one op, or one op over N stacked items, or run T times.
#include "sim/workload/stacked_layer.hpp"

#include <optional>
#include <string>

#include "sim/base/checked_math.hpp"

namespace ridge {

namespace {

// Every count that is work done per item (or per run): all but the parameters.
void scale_work(OpResult& r, int64_t times) {
  LayerCounts& n = r.counts;
  for (int64_t* per_item : {&n.gathered_weight_elems, &n.macs, &n.flops, &n.epilogue_flops, &n.input_elems,
                            &n.unread_input_elems, &n.output_elems, &n.bwd_input_macs, &n.bwd_weight_macs, &n.bwd_input_other_flops,
                            &n.bwd_weight_other_flops, &n.saved_aux_bytes, &n.saved_aux_elems, &n.gemm_positions})
    *per_item = checked_mul(*per_item, times);
}

// The op over `images` stacked items, or as it is.
OpResult evaluate_items(const OpInfo& op, TomlFields& attrs, const std::vector<Shape>& inputs) {
  const std::optional<int64_t> images = attrs.optional_integer("images");
  if (!images) return op.evaluate(attrs, inputs);
  const int64_t items = *images;
  if (items < 1) attrs.fail("images", "must be at least 1 (got " + std::to_string(items) + ")");
  std::vector<Shape> one;
  for (const Shape& s : inputs) {
    if (s.empty() || s[0] != items)
      throw ShapeMismatch("images = " + std::to_string(items) + " needs every input to lead with " +
                          std::to_string(items) + " stacked items, got " + shape_to_string(s));
    one.emplace_back(s.begin() + 1, s.end());
  }
  OpResult r = op.evaluate(attrs, one);
  if (r.counts.attention.heads > 0 || r.counts.experts.experts > 0)
    throw ShapeMismatch("images is for layers whose work is per item; attention and experts count their own tokens");
  scale_work(r, items);
  r.output.insert(r.output.begin(), items);
  return r;
}

}  // namespace

OpResult evaluate_layer(const OpInfo& op, TomlFields& attrs, const std::vector<Shape>& inputs) {
  const std::optional<int64_t> trips = attrs.optional_integer("trips");
  OpResult r = evaluate_items(op, attrs, inputs);
  if (!trips) return r;
  if (*trips < 1) attrs.fail("trips", "must be at least 1 (got " + std::to_string(*trips) + ")");
  if (r.counts.attention.heads > 0 || r.counts.experts.experts > 0)
    throw ShapeMismatch("trips is for layers whose work is per run; attention and experts count their own tokens");
  scale_work(r, *trips);
  return r;
}

}  // namespace ridge
