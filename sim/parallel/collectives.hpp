// Collectives as costed work on a system's network levels (system_spec.hpp).
//
// Time of one collective on one level with n devices (alpha-beta model):
//   time = steps x latency + bytes x factor / achievable bandwidth
// with the bus-bandwidth factors of nccl-tests (doc/PERFORMANCE.md): all-reduce
// 2(n-1)/n, reduce-scatter and all-gather (n-1)/n, all-to-all (n-1)/n; broadcast and
// send/recv 1. `bytes` is the buffer one device holds: all-reduce its whole buffer,
// all-gather its output, reduce-scatter its input, all-to-all what it sends in all,
// broadcast and send/recv the message.
// Algorithms (the cheapest is taken, as NCCL's tuner picks per size):
//   ring       steps: all-reduce 2(n-1), others (n-1), send/recv 1; on a level with an
//              nccl_transport, all-reduce, reduce-scatter and all-gather rings follow
//              NCCL's LL / LL128 / Simple protocol model instead (nccl_protocols.hpp,
//              algorithm "ring/LL", ...), and the tree is not offered (inside one
//              NVSwitch node NCCL's tree is a chain and its tuner runs rings); on a
//              network level NCCL's tree all-reduce is offered in its protocol model
//              ("tree/LL", ...)
//   tree       all-reduce and broadcast: steps 2 ceil(log2 n) (broadcast ceil(log2 n)),
//              bandwidth factor 2 (all-reduce: each device sends and receives the buffer
//              up and down the double binary tree once), broadcast 1
//   in-switch  all-reduce on a scale-up level with in-switch reduction (NVLink SHARP):
//              2 steps, factor 1 (each device sends its buffer once and receives the sum
//              once), at the level's in_switch_efficiency of its bandwidth; with an
//              nccl_transport its start is the call overhead + NVLS's 23 us latency
// A group that spans domains runs as NCCL runs it, not phase after phase: all-reduce,
// reduce-scatter and all-gather as rings through every member of every domain
// (pipelined: bus bytes at min(scale-up per device, g x scale-out per device), g the
// group's members in a domain, whose rings share the domain's NICs), with the latency of
// NCCL's spanning ring (nccl_protocols.hpp: 2(domains-1) of the all-reduce's steps cross
// the network); all-reduce also as NCCL's tree (a chain inside, a double binary tree
// across); all-to-all sends (g-1)/n of its bytes inside and (n-g)/n out, both at once.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/parallel/system_spec.hpp"

namespace ridge {

enum class CollectiveOp { all_reduce, reduce_scatter, all_gather, all_to_all, send_recv, broadcast };
std::string_view collective_op_name(CollectiveOp op);  // "all_reduce", ...

// A group of `size` devices whose ranks are `stride` apart (tensor-parallel ranks are
// adjacent: stride 1), placed on the fastest level first: `per_domain` members share a
// scale-up domain, spread over `domains` domains.
struct GroupPlacement {
  int64_t size = 1;
  int64_t per_domain = 1;
  int64_t domains = 1;
};
GroupPlacement place_group(const SystemSpec& system, int64_t size, int64_t stride);

struct CollectiveCost {
  CollectiveOp op = CollectiveOp::all_reduce;
  std::string algorithm;  // "ring", "ring/Simple", "tree/LL", "in-switch", "hierarchical" (all-to-all), "-"
  std::string link;       // "scale_up", "scale_out", "scale_up+scale_out", "-" (a group of one)
  double bytes = 0;
  int64_t group_size = 1;
  double time_s = 0;
  double latency_s = 0;  // what the same collective of 0 bytes takes; time_s - latency_s moves the bytes
};

CollectiveCost collective_cost(const SystemSpec& system, CollectiveOp op, double bytes, const GroupPlacement& group);

}  // namespace ridge
