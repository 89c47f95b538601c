// NCCL's protocol model (see nccl_protocols.hpp for the constants and their source).
#include "sim/parallel/nccl_protocols.hpp"

#include <algorithm>

namespace ridge {

namespace {

struct Protocol {
  const char* name;
  double base_us;
  double hop_us[3];  // NVLink, PCIe, network
  double share;      // of the level's bandwidth
};

constexpr Protocol kProtocols[] = {
    {"LL", 6.6, {0.6, 1.0, 2.7}, 0.5},
    {"LL128", 14.0, {1.9, 2.5, 4.0}, 0.92},
    {"Simple", 8.4, {3.4, 5.7, 14.0}, 1.0},
};

constexpr Protocol kTreeProtocols[] = {
    {"LL", 6.8, {0.6, 1.0, 5.0}, 0.92 / 3.8},
    {"LL128", 14.0, {1.25, 1.9, 8.5}, 0.92 * 120 / 128},
    {"Simple", 8.4, {4.0, 4.0, 14.0}, 0.92},
};

int hw_index(NcclTransport transport) {
  return transport == NcclTransport::pcie ? 1 : transport == NcclTransport::network ? 2 : 0;
}

// NCCL's floor of log2 (log2i in its sources).
double floor_log2(double n) {
  double l = 0;
  for (auto v = static_cast<long long>(n); v > 1; v >>= 1) ++l;
  return l;
}

}  // namespace

NcclTransport nccl_transport_named(std::string_view name) {
  if (name == "nvlink") return NcclTransport::nvlink;
  if (name == "pcie") return NcclTransport::pcie;
  if (name == "network") return NcclTransport::network;
  return NcclTransport::none;
}

ProtocolTime nccl_ring_time(NcclTransport transport, double steps, double bus_bytes, double bandwidth_Bps,
                            double call_overhead_s, double inter_steps) {
  int hw = hw_index(transport);
  ProtocolTime best{-1, ""};
  for (const Protocol& p : kProtocols) {
    double post_us = inter_steps > 0 ? kNetPostOverhead_s * 1e6 * (std::string_view(p.name) == "Simple" ? 3 : 1) : 0;
    double hops_us = (steps - inter_steps) * std::max(p.hop_us[hw], post_us) + inter_steps * p.hop_us[2];
    double t = call_overhead_s + (p.base_us + hops_us) * 1e-6 + bus_bytes / (bandwidth_Bps * p.share);
    if (best.time_s < 0 || t < best.time_s) best = {t, p.name};
  }
  return best;
}

ProtocolTime nccl_tree_all_reduce_time(TreeShape shape, double bytes, double bandwidth_Bps, double call_overhead_s) {
  double depth = floor_log2(shape.nodes);
  int intra = hw_index(shape.intra);
  ProtocolTime best{-1, ""};
  for (const Protocol& p : kTreeProtocols) {
    double hops_us = 2 * ((shape.per_node - 1) * p.hop_us[intra] + depth * p.hop_us[2]);
    double t = call_overhead_s + (p.base_us + hops_us) * 1e-6 + 2 * bytes / (bandwidth_Bps * p.share);
    if (best.time_s < 0 || t < best.time_s) best = {t, p.name};
  }
  return best;
}

}  // namespace ridge
