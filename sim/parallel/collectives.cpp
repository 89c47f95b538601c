// Collective costs (see collectives.hpp for the formulas and their sources).
#include "sim/parallel/collectives.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace ridge {

namespace {

struct Timed {
  double time_s;
  std::string algorithm;
};

// A ring collective of `steps` steps moving `bus_bytes` per device: NCCL's protocol
// model where the level has one, else steps x latency + bus_bytes / bandwidth.
Timed ring_time(double steps, double bus_bytes, const NetworkLevel& level) {
  if (level.nccl == NcclTransport::none)
    return {steps * level.latency_s + bus_bytes / level.achievable_Bps(), "ring"};
  ProtocolTime p = nccl_ring_time(level.nccl, steps, bus_bytes, level.achievable_Bps(), level.call_overhead_s);
  return {p.time_s, std::string("ring/") + p.protocol};
}

double log2_steps(int64_t n) { return std::ceil(std::log2(static_cast<double>(n))); }

// NCCL across nodes (nccl_protocols.hpp): its ring, or for all-reduce the faster of ring and tree.
Timed nccl_ring_or_tree(const NcclNetwork& net, bool all_reduce, double bytes, double bw, double overhead) {
  ProtocolTime ring = nccl_spanning_ring_time(net, all_reduce, bytes, bw, overhead);
  Timed best{ring.time_s, std::string("ring/") + ring.protocol};
  if (all_reduce) {
    ProtocolTime tree = nccl_tree_all_reduce_time(net, bytes, bw, overhead);
    if (tree.time_s < best.time_s) best = {tree.time_s, std::string("tree/") + tree.protocol};
  }
  return best;
}

// One collective over `n` devices of one level. `net`: the communicator across nodes where
// the level is NCCL's network with one member a node (else null).
// `in_switch`: the achievable fraction of an in-switch all-reduce, 0 where the level has none.
Timed flat(CollectiveOp op, double bytes, int64_t n, const NetworkLevel& level, double in_switch,
           const NcclNetwork* net = nullptr) {
  if (n <= 1 && op != CollectiveOp::send_recv) return {0.0, "-"};
  double nn = static_cast<double>(n);
  double bw = level.achievable_Bps();
  double a = level.latency_s;
  switch (op) {
    case CollectiveOp::all_reduce: {
      if (net) return nccl_ring_or_tree(*net, true, bytes, bw, level.call_overhead_s);
      Timed best = ring_time(2 * (nn - 1), bytes * 2 * (nn - 1) / nn, level);
      double tree = 2 * log2_steps(n) * a + bytes * 2 / bw;
      if (level.nccl == NcclTransport::none && tree < best.time_s) best = {tree, "tree"};
      if (in_switch > 0) {
        double start = level.nccl == NcclTransport::none ? 2 * a : level.call_overhead_s + kNvlsLatency_s;
        double nvls = start + bytes / (level.bandwidth_Bps * in_switch);
        if (nvls < best.time_s) best = {nvls, "in-switch"};
      }
      return best;
    }
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather:
      if (net) return nccl_ring_or_tree(*net, false, bytes, bw, level.call_overhead_s);
      return ring_time(nn - 1, bytes * (nn - 1) / nn, level);
    case CollectiveOp::all_to_all:
      return {(nn - 1) * a + bytes * (nn - 1) / nn / bw, "ring"};
    case CollectiveOp::broadcast: {
      double ring = (nn - 1) * a + bytes / bw;
      double tree = log2_steps(n) * a + bytes / bw;
      return tree < ring ? Timed{tree, "tree"} : Timed{ring, "ring"};
    }
    case CollectiveOp::send_recv:
      return {a + bytes / bw, "p2p"};
  }
  return {0.0, "-"};
}

}  // namespace

std::string_view collective_op_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::all_to_all: return "all_to_all";
    case CollectiveOp::send_recv: return "send_recv";
    case CollectiveOp::broadcast: return "broadcast";
  }
  return "?";
}

GroupPlacement place_group(const SystemSpec& system, int64_t size, int64_t stride) {
  GroupPlacement g;
  g.size = std::max<int64_t>(size, 1);
  int64_t d = system.devices_per_domain;
  g.per_domain = stride >= d ? 1 : std::min(g.size, std::max<int64_t>(d / std::max<int64_t>(stride, 1), 1));
  g.domains = (g.size + g.per_domain - 1) / g.per_domain;
  return g;
}

namespace {

CollectiveCost cost_of(const SystemSpec& s, CollectiveOp op, double bytes, const GroupPlacement& g);

// NCCL's view of a group of `per` members in each of `nodes` nodes (nccl_protocols.hpp):
// the scale-out latency is its network device latency (latencyInter), the NICs its rings'
// channels through the network.
NcclNetwork nccl_network(const SystemSpec& s, double nodes, double per, NcclTransport intra) {
  return {nodes, per, intra, s.scale_out.latency_s, s.nccl_host, s.nccl_gpu, static_cast<double>(s.nics_per_domain)};
}

// An all-reduce, reduce-scatter or all-gather over a group spanning domains, as NCCL runs
// it: rings (one per channel) through every member of every domain, pipelined, so the
// bytes go at the slowest link's share, not phase after phase. Each ring crosses each
// domain boundary once; the group's members of a domain share the domain's NICs among
// their rings, so a network hop carries the same bus bytes as an NVLink hop and the
// bus bandwidth is min(scale-up per device, members per domain x scale-out per device)
// (NCCL's tuner: busBw = nChannels x the ring's per-channel bandwidth, bwInter across
// more than two nodes). All-reduce also offers NCCL's tree: a chain inside the domain,
// a double binary tree across, the whole buffer up and down at the same bandwidth.
Timed spanning(const SystemSpec& s, CollectiveOp op, double bytes, const GroupPlacement& g) {
  double n = static_cast<double>(g.size);
  double per = static_cast<double>(g.per_domain);
  double nodes = static_cast<double>(g.domains);
  double bw = std::min(s.scale_up.achievable_Bps(), per * s.scale_out.achievable_Bps());
  bool reduce = op == CollectiveOp::all_reduce;
  double steps = reduce ? 2 * (n - 1) : n - 1;
  double inter = reduce ? 2 * (nodes - 1) : nodes - 1;
  double bus_bytes = bytes * steps / n;
  if (s.scale_up.nccl == NcclTransport::none || s.scale_out.nccl == NcclTransport::none)
    return {(steps - inter) * s.scale_up.latency_s + inter * s.scale_out.latency_s + bus_bytes / bw, "ring"};
  double overhead = std::max(s.scale_up.call_overhead_s, s.scale_out.call_overhead_s);
  return nccl_ring_or_tree(nccl_network(s, nodes, per, s.scale_up.nccl), reduce, bytes, bw, overhead);
}

}  // namespace

CollectiveCost collective_cost(const SystemSpec& s, CollectiveOp op, double bytes, const GroupPlacement& g) {
  CollectiveCost c = cost_of(s, op, bytes, g);
  c.latency_s = bytes > 0 ? cost_of(s, op, 0, g).time_s : c.time_s;
  return c;
}

namespace {

CollectiveCost cost_of(const SystemSpec& s, CollectiveOp op, double bytes, const GroupPlacement& g) {
  CollectiveCost c;
  c.op = op;
  c.bytes = bytes;
  c.group_size = g.size;
  if (g.size <= 1) {
    c.algorithm = "-";
    c.link = "-";
    return c;
  }
  if (g.domains == 1) {  // inside one scale-up domain
    Timed t = flat(op, bytes, g.size, s.scale_up, s.in_switch_reduction ? s.in_switch_efficiency : 0);
    c.time_s = t.time_s;
    c.algorithm = t.algorithm;
    c.link = "scale_up";
    return c;
  }
  if (g.per_domain == 1 || op == CollectiveOp::send_recv || op == CollectiveOp::broadcast) {
    // One member per domain, or a transfer whose slowest hop crosses domains.
    NcclNetwork net = nccl_network(s, static_cast<double>(g.size), 1, NcclTransport::network);
    bool nccl = s.scale_out.nccl == NcclTransport::network;
    Timed t = flat(op, bytes, op == CollectiveOp::send_recv ? 2 : g.size, s.scale_out, 0, nccl ? &net : nullptr);
    c.time_s = t.time_s;
    c.algorithm = t.algorithm;
    c.link = "scale_out";
    return c;
  }
  double per = static_cast<double>(g.per_domain);
  c.link = "scale_up+scale_out";
  switch (op) {
    case CollectiveOp::all_reduce:
    case CollectiveOp::reduce_scatter:
    case CollectiveOp::all_gather: {
      Timed t = spanning(s, op, bytes, g);
      c.time_s = t.time_s;
      c.algorithm = t.algorithm;
      break;
    }
    case CollectiveOp::all_to_all: {
      c.algorithm = "hierarchical";
      double n = static_cast<double>(g.size);
      double inside = (per - 1) * s.scale_up.latency_s + bytes * (per - 1) / n / s.scale_up.achievable_Bps();
      double out = static_cast<double>(g.domains - 1) * s.scale_out.latency_s +
                   bytes * (n - per) / n / s.scale_out.achievable_Bps();
      c.time_s = std::max(inside, out);
      break;
    }
    case CollectiveOp::send_recv:
    case CollectiveOp::broadcast:
      break;  // handled above
  }
  return c;
}

}  // namespace

}  // namespace ridge
