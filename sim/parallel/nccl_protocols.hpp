// NCCL's three protocols for a ring collective on one network level, and the choice
// between them by time, as NCCL's tuner makes it (NVIDIA/nccl src/graph/tuning.cc,
// NCCL 2.18-2.19: ncclTopoTuneModel and ncclTopoGetAlgoTime):
//   time = call overhead + base[p] + steps x hop[transport][p] + bus bytes / (bw x share[p])
// per protocol p, the least taken:
//   LL      base 6.6 us, hop NVLink 0.6 / PCIe 1.0 / network 2.7 us; half the bandwidth
//           (each 8-byte line carries a 4-byte flag)
//   LL128   base 14.0 us, hop 1.9 / 2.5 / 4.0 us; 0.92 of the bandwidth (120 of 128 bytes)
//   Simple  base 8.4 us, hop 3.4 / 5.7 / 14.0 us; all of it (NCCL 2.19 to 2.30 keep these
//           ring values; older tuning.cc has a 9.6 us network hop)
// `steps` is the ring's: 2(n-1) for all-reduce, n-1 for reduce-scatter and all-gather.
// `bus bytes` is the buffer x the nccl-tests bus factor (collectives.hpp), `bw` the
// level's achievable bandwidth. The call overhead (launch and completion, which NCCL's
// tuner leaves out because it is the same for every choice) comes from the descriptor.
//
// A ring that spans nodes (NCCL runs one ring, per channel, through every GPU of every
// node; tuning.cc of NCCL 2.30, ncclTopoTuneModel, ring latency): of its `steps` steps,
// `inter_steps` cross the network (all-reduce 2(nodes-1), reduce-scatter and all-gather
// nodes-1) at the network hop above; the others at the intra-node hop, but no faster than
// NCCL's network post overhead (getNetOverhead: 1 us, x3 for Simple):
//   time = call overhead + base[p] + (steps - inter) x max(hop[intra][p], post[p])
//          + inter x hop[network][p] + bus bytes / (bw x share[p])
//
// Across nodes NCCL also runs all-reduce as a double binary tree between nodes, a chain
// inside each (tuning.cc of NCCL 2.30: the tree rows of baseLat / hwLat and the tree
// refinements of ncclTopoTuneModel):
//   time = call overhead + base[p] + 2 ((per node - 1) x hop[intra][p] + floor(log2 nodes) x hop[network][p])
//          + 2 x bytes / (bw x share[p])
//   LL      base 6.8 us, hop NVLink 0.6 / PCIe 1.0 / network 5.0 us; 0.92 / 3.8 of the bandwidth
//   LL128   base 14.0 us, hop 1.25 / 1.9 / 8.5 us; 0.92 x 120/128
//   Simple  base 8.4 us, hop 4.0 / 4.0 / 14.0 us; 0.92
// (a tree all-reduce sends and receives the whole buffer once each way: algorithm
// bandwidth = bus bandwidth / 2). Per-channel caps and the per-size tree correction
// factors are left out.
//
// In-switch reduction (NVLS) costs the call overhead plus NVLS's 23 us NVLink latency
// (same table) before its bytes.
#pragma once

#include <string_view>

namespace ridge {

constexpr double kNvlsLatency_s = 23e-6;  // NVLS on NVLink (tuning.cc hwLat)
constexpr double kNetPostOverhead_s = 1e-6;  // getNetOverhead (tuning.cc): 1 us (Intel hosts; NCCL takes 2 us on AMD)

enum class NcclTransport { none, nvlink, pcie, network };

// "nvlink", "pcie", "network"; nullopt-like none for anything else.
NcclTransport nccl_transport_named(std::string_view name);

struct ProtocolTime {
  double time_s = 0;
  const char* protocol = "";  // "LL", "LL128", "Simple"
};

// A ring on one level (`inter_steps` 0), or one spanning nodes whose members inside a node
// talk over `transport` and whose `inter_steps` steps cross the network.
ProtocolTime nccl_ring_time(NcclTransport transport, double steps, double bus_bytes, double bandwidth_Bps,
                            double call_overhead_s, double inter_steps = 0);

// A tree all-reduce of `bytes` over `nodes` nodes with `per_node` members each, chained
// inside a node over `intra` (unused when per_node is 1).
struct TreeShape {
  double nodes = 1;
  double per_node = 1;
  NcclTransport intra = NcclTransport::nvlink;
};
ProtocolTime nccl_tree_all_reduce_time(TreeShape shape, double bytes, double bandwidth_Bps, double call_overhead_s);

}  // namespace ridge
