// NCCL's three protocols for a ring collective on one network level, and the choice
// between them by time, as NCCL's tuner makes it (NVIDIA/nccl src/graph/tuning.cc,
// NCCL 2.18-2.30: ncclTopoTuneModel and ncclTopoGetAlgoTime):
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
// Across nodes (a group with several members in each of several nodes) NCCL runs one
// ring, per channel, through every GPU of every node, or for all-reduce a tree (a chain
// inside each node, a double binary tree between nodes). What changes there, each a fact
// of NCCL's sources (tuning.cc and enqueue.cc of NCCL 2.30, connect.cc, search.cc):
//  - ring latency: of `steps`, `inter` = 2(nodes-1) (all-reduce) or nodes-1 cross the
//    network, each at hop[network][p] + the network device's latency (latencyInter; twice
//    for Simple, whose receives are flushed); the others at the intra-node hop but no
//    faster than the network post overhead (getNetOverhead: 1 us, 2 us on AMD hosts; x3
//    for Simple). A multi-node Simple all-reduce ring's latency is x1.4 (x1.9 before
//    Ampere): "plateau effect of ring", once a channel's share of a rank is >= 64 bytes.
//  - tree latency: base[p] + 2 ((per node - 1) x hop[intra][p] + floor(log2 nodes) x
//    (hop[network][p] + latencyInter, twice for Simple)), with
//      LL      base 6.8 us, hop NVLink 0.6 / PCIe 1.0 / network 5.0 us
//      LL128   base 14.0 us, hop 1.25 / 1.9 / 8.5 us
//      Simple  base 8.4 us, hop 4.0 / 4.0 / 14.0 us
//    and its bytes 2 x buffer (up and down) at the tree's bus bandwidth.
//  - bus bandwidths (ncclTopoTuneModel's refinements), G = the rings' channels through
//    the network, one per NIC (search.cc finds a ring per NIC at its speed and doubles
//    channels only above 25 GB/s a channel, so HDR and NDR NICs keep one each):
//      ring  LL min(bw / 2, llMax)  LL128 min(0.92 bw, G x ll128Ch)  Simple bw
//      tree  t = min(0.92 bw, G x treeCh); LL min(t / 3.8, llMax)  LL128 min(t x 120/128,
//            G x treeLl128Ch)  Simple t; x NCCL's tree correction factor for the size
//            (treeCorrectionFactor: 0.4-1.0 from 64 KiB to 256 MiB, measured by NVIDIA)
//    llMax (llMaxBws) by host CPU and node count: Intel 39.0 GB/s on 2 nodes, 20.4 on
//    more; AMD 22.5, 19.0. Per-channel caps (perChMax*Bws) by GPU generation, 2 nodes /
//    more: ring LL128 Volta and Ampere 20.0, Hopper 36.7; tree Volta 18.5 / 10.0, Ampere
//    23.6 / 17.8, Hopper 41.4 / 36.0; tree LL128 Volta and Ampere 20.0, Hopper 36.7 / 29.0.
//  - channels per size (enqueue.cc, topoGetAlgoInfo): of the communicator's C = 2G
//    channels (connect.cc duplicates the rings' channels), a call uses the largest
//    nc <= C with bytes >= nc x threads x threshold (threads LL 512, LL128 640, Simple
//    512; threshold LL 8 bytes, x the ranks for a ring, LL128 8, Simple 64; at least 1
//    channel), and its bandwidth scales by nc / C: a 64 KiB ring in LL over 16 ranks runs
//    on one channel.
// Left out: the per-channel caps inside one node, and fewer channels for small
// messages inside one node (there the fitted call overhead absorbs them).
//
// In-switch reduction (NVLS) costs the call overhead plus NVLS's 23 us NVLink latency
// (same table) before its bytes.
#pragma once

#include <string_view>

namespace ridge {

constexpr double kNvlsLatency_s = 23e-6;  // NVLS on NVLink (tuning.cc hwLat)

enum class NcclTransport { none, nvlink, pcie, network };

// "nvlink", "pcie", "network"; nullopt-like none for anything else.
NcclTransport nccl_transport_named(std::string_view name);

// The node's host CPU as NCCL's tuner sees it: AMD, or anything else (NCCL's default).
enum class NcclHost { other, amd };
// The GPU generation that picks NCCL's per-channel bandwidth caps (unknown: none).
enum class NcclGpu { unknown, volta, ampere, hopper };
// "intel" (or "other") / "amd"; "volta" / "ampere" / "hopper". Anything else: false.
bool nccl_host_named(std::string_view name, NcclHost& out);
bool nccl_gpu_named(std::string_view name, NcclGpu& out);

struct ProtocolTime {
  double time_s = 0;
  const char* protocol = "";  // "LL", "LL128", "Simple"
};

// A ring on one level.
ProtocolTime nccl_ring_time(NcclTransport transport, double steps, double bus_bytes, double bandwidth_Bps,
                            double call_overhead_s);

// A communicator across nodes: what NCCL's tuner knows of it beyond the link bandwidth.
struct NcclNetwork {
  double nodes = 1;
  double per_node = 1;                         // members in each node
  NcclTransport intra = NcclTransport::nvlink;  // between members of a node
  double net_latency_s = 0;                    // the network device's latency (latencyInter)
  NcclHost host = NcclHost::other;
  NcclGpu gpu = NcclGpu::unknown;
  double nics = 0;                             // per node: the rings' channels through the network (0: no caps)
};

// A ring through every member of every node: all-reduce (2(n-1) steps) or reduce-scatter /
// all-gather (n-1), `bytes` the buffer.
ProtocolTime nccl_spanning_ring_time(const NcclNetwork& net, bool all_reduce, double bytes, double bandwidth_Bps,
                                     double call_overhead_s);

// NCCL's tree all-reduce of `bytes` over `net` (one member a node: per_node 1).
ProtocolTime nccl_tree_all_reduce_time(const NcclNetwork& net, double bytes, double bandwidth_Bps, double call_overhead_s);

}  // namespace ridge
