// NCCL's protocol model (see nccl_protocols.hpp for the constants and their source).
#include "sim/parallel/nccl_protocols.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridge {

namespace {

struct Protocol {
  const char* name;
  double base_us;
  double hop_us[3];  // NVLink, PCIe, network
  double threads;    // NCCL_*_MAX_NTHREADS (device.h)
  double threshold;  // NCCL_*_THREAD_THRESHOLD (comm.h), bytes a thread
};

enum { kLL, kLL128, kSimple };

// A ring's share of the level's bandwidth on one level: LL half (each 8-byte line carries
// a 4-byte flag), LL128 0.92 (120 of 128 bytes), Simple all of it.
constexpr double kRingShare[3] = {0.5, 0.92, 1.0};

constexpr Protocol kProtocols[] = {
    {"LL", 6.6, {0.6, 1.0, 2.7}, 512, 8},
    {"LL128", 14.0, {1.9, 2.5, 4.0}, 640, 8},
    {"Simple", 8.4, {3.4, 5.7, 14.0}, 512, 64},
};

constexpr Protocol kTreeProtocols[] = {
    {"LL", 6.8, {0.6, 1.0, 5.0}, 512, 8},
    {"LL128", 14.0, {1.25, 1.9, 8.5}, 640, 8},
    {"Simple", 8.4, {4.0, 4.0, 14.0}, 512, 64},
};

// treeCorrectionFactor (tuning.cc), by protocol and floor(log2(bytes / 64)), 64 B to 256 MiB.
constexpr double kTreeCorrection[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};

int hw_index(NcclTransport transport) {
  return transport == NcclTransport::pcie ? 1 : transport == NcclTransport::network ? 2 : 0;
}

// NCCL's floor of log2 (log2i in its sources).
double floor_log2(double n) {
  double l = 0;
  for (auto v = static_cast<long long>(n); v > 1; v >>= 1) ++l;
  return l;
}

constexpr double kNone = std::numeric_limits<double>::infinity();

// llMaxBws (tuning.cc): LL's bus bandwidth across nodes, by host CPU and 2 nodes / more.
double ll_max_Bps(const NcclNetwork& net) {
  if (net.nodes <= 1) return kNone;
  bool two = net.nodes <= 2;
  return (net.host == NcclHost::amd ? (two ? 22.5 : 19.0) : (two ? 39.0 : 20.4)) * 1e9;
}

// perChMax{RingLL128,Tree,TreeLL128}Bws (tuning.cc) for 2 nodes / more, GB/s a channel.
struct ChannelCaps {
  double ring_ll128, tree, tree_ll128;
};
// G channels at `per_channel` GB/s each; none where the generation or the NICs are unknown.
double cap_Bps(const NcclNetwork& net, double per_channel) { return net.nics > 0 ? net.nics * per_channel * 1e9 : kNone; }

ChannelCaps channel_caps(const NcclNetwork& net) {
  bool two = net.nodes <= 2;
  switch (net.gpu) {
    case NcclGpu::volta: return {20.0, two ? 18.5 : 10.0, 20.0};
    case NcclGpu::ampere: return {20.0, two ? 23.6 : 17.8, 20.0};
    case NcclGpu::hopper: return {36.7, two ? 41.4 : 36.0, two ? 36.7 : 29.0};
    case NcclGpu::unknown: break;
  }
  return {kNone, kNone, kNone};
}

// The share of the communicator's channels a call of `bytes` runs on (enqueue.cc).
double channel_share(const NcclNetwork& net, const Protocol& p, double threshold, double bytes) {
  double channels = 2 * net.nics;
  if (channels < 1) return 1;
  double nc = std::clamp(std::floor(bytes / (p.threads * threshold)), 1.0, channels);
  return nc / channels;
}

ProtocolTime fastest(const double (&times)[3]) {
  int best = static_cast<int>(std::min_element(std::begin(times), std::end(times)) - std::begin(times));
  return {times[best], kProtocols[best].name};
}

}  // namespace

NcclTransport nccl_transport_named(std::string_view name) {
  if (name == "nvlink") return NcclTransport::nvlink;
  if (name == "pcie") return NcclTransport::pcie;
  if (name == "network") return NcclTransport::network;
  return NcclTransport::none;
}

bool nccl_host_named(std::string_view name, NcclHost& out) {
  if (name == "amd") out = NcclHost::amd;
  else if (name == "intel" || name == "other") out = NcclHost::other;
  else return false;
  return true;
}

bool nccl_gpu_named(std::string_view name, NcclGpu& out) {
  if (name == "volta") out = NcclGpu::volta;
  else if (name == "ampere") out = NcclGpu::ampere;
  else if (name == "hopper") out = NcclGpu::hopper;
  else return false;
  return true;
}

ProtocolTime nccl_ring_time(NcclTransport transport, double steps, double bus_bytes, double bandwidth_Bps,
                            double call_overhead_s) {
  int hw = hw_index(transport);
  double times[3];
  for (int i = 0; i < 3; ++i) {
    const Protocol& p = kProtocols[i];
    times[i] = call_overhead_s + (p.base_us + steps * p.hop_us[hw]) * 1e-6 + bus_bytes / (bandwidth_Bps * kRingShare[i]);
  }
  return fastest(times);
}

ProtocolTime nccl_spanning_ring_time(const NcclNetwork& net, bool all_reduce, double bytes, double bandwidth_Bps,
                                     double call_overhead_s) {
  double n = net.nodes * net.per_node;
  double steps = all_reduce ? 2 * (n - 1) : n - 1;
  double inter = all_reduce ? 2 * (net.nodes - 1) : net.nodes - 1;
  double bus_bytes = bytes * steps / n;
  int intra = hw_index(net.intra);
  ChannelCaps caps = channel_caps(net);
  double ll_max = ll_max_Bps(net);
  double post_us = net.host == NcclHost::amd ? 2.0 : 1.0;
  double bus[3] = {std::min(bandwidth_Bps * 0.5, ll_max), std::min(bandwidth_Bps * 0.92, cap_Bps(net, caps.ring_ll128)),
                   bandwidth_Bps};
  double times[3];
  for (int i = 0; i < 3; ++i) {
    const Protocol& p = kProtocols[i];
    bool simple = i == kSimple;
    // With one member a node every step crosses the network, at the tree's network hop (tuning.cc).
    double net_hop_us = (net.per_node <= 1 ? kTreeProtocols[i].hop_us[2] : p.hop_us[2]) +
                        net.net_latency_s * 1e6 * (simple ? 2 : 1);
    double intra_us = std::max(p.hop_us[intra], post_us * (simple ? 3 : 1));
    double lat_us = p.base_us + (steps - inter) * intra_us + inter * net_hop_us;
    if (simple && all_reduce && net.nodes > 1 && bytes / (2 * std::max(net.nics, 1.0) * n) >= 64)
      lat_us *= net.gpu == NcclGpu::volta ? 1.9 : 1.4;
    double threshold = i == kLL ? p.threshold * n : p.threshold;
    times[i] = call_overhead_s + lat_us * 1e-6 + bus_bytes / (bus[i] * channel_share(net, p, threshold, bytes));
  }
  return fastest(times);
}

ProtocolTime nccl_tree_all_reduce_time(const NcclNetwork& net, double bytes, double bandwidth_Bps, double call_overhead_s) {
  double depth = floor_log2(net.nodes);
  int intra = hw_index(net.intra);
  ChannelCaps caps = channel_caps(net);
  double tree = std::min(bandwidth_Bps * 0.92, cap_Bps(net, caps.tree));
  double bus[3] = {std::min(tree / 3.8, ll_max_Bps(net)), std::min(tree * 120 / 128, cap_Bps(net, caps.tree_ll128)), tree};
  double size_index = floor_log2(bytes / 64);
  double times[3];
  for (int i = 0; i < 3; ++i) {
    const Protocol& p = kTreeProtocols[i];
    double net_hop_us = p.hop_us[2] + net.net_latency_s * 1e6 * (i == kSimple ? 2 : 1);
    double lat_us = p.base_us + 2 * ((net.per_node - 1) * p.hop_us[intra] + depth * net_hop_us);
    double correction = bytes >= 64 && size_index < 23 ? kTreeCorrection[i][static_cast<int>(size_index)] : 1.0;
    times[i] = call_overhead_s + lat_us * 1e-6 +
               2 * bytes / (bus[i] * correction * channel_share(net, p, p.threshold, bytes));
  }
  return fastest(times);
}

}  // namespace ridge
