// Collectives' link bytes and FLOPs (see collective_intensity.hpp).
#include "sim/parallel/collective_intensity.hpp"

namespace ridge {

double collective_link_bytes(const CollectiveCost& c) {
  const double n = static_cast<double>(c.group_size);
  if (c.group_size <= 1 && c.op != CollectiveOp::send_recv) return 0;
  switch (c.op) {
    case CollectiveOp::all_reduce: return c.bytes * 2 * (n - 1) / n;
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather:
    case CollectiveOp::all_to_all: return c.bytes * (n - 1) / n;
    case CollectiveOp::broadcast:
    case CollectiveOp::send_recv: return c.bytes;
  }
  return 0;
}

double collective_flops(const CollectiveCost& c, double element_bytes) {
  const double n = static_cast<double>(c.group_size);
  if (c.group_size <= 1 || element_bytes <= 0) return 0;
  if (c.op != CollectiveOp::all_reduce && c.op != CollectiveOp::reduce_scatter) return 0;
  return c.bytes / element_bytes * (n - 1) / n;
}

}  // namespace ridge
