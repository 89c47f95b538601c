// parameter: a learned tensor used as an activation (ViT's class token and position
// embedding, a layer scale): `shape = [...]` per sample. It owns and reads its
// elements as weights (params = weight elements = its element count); its output is
// that tensor itself (a view, no data moved, no arithmetic). It takes no inputs.
// `learned = K` says it is computed from K learned elements instead (Swin's relative
// position bias, gathered from a smaller table: params = K; 0 for a constant such as
// an attention mask); it still reads all its elements.
#include "sim/workload/ops/ops.hpp"

namespace ridge::ops {

OpResult parameter(TomlFields& a, const std::vector<Shape>&) {
  OpResult r;
  r.output = a.integer_list("shape");
  if (r.output.empty()) a.fail("shape", "must have at least one dimension");
  LayerCounts& n = r.counts;
  n.weight_elems = element_count(r.output);
  n.params = a.optional_integer("learned").value_or(n.weight_elems);
  if (n.params < 0) a.fail("learned", "must not be negative");
  n.is_view = true;
  return r;
}

}  // namespace ridge::ops
