// NCCL's protocol model (see nccl_protocols.hpp for the constants and their source).
#include "sim/parallel/nccl_protocols.hpp"

#include <cmath>

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

struct TreeProtocol {
  const char* name;
  double base_us;
  double hop_us;  // network
  double share;   // of the level's bandwidth
};

constexpr TreeProtocol kTreeProtocols[] = {
    {"LL", 6.8, 5.0, 0.92 / 3.8},
    {"LL128", 14.0, 8.5, 0.92 * 120 / 128},
    {"Simple", 0.0, 28.0, 0.92},
};

}  // namespace

NcclTransport nccl_transport_named(std::string_view name) {
  if (name == "nvlink") return NcclTransport::nvlink;
  if (name == "pcie") return NcclTransport::pcie;
  if (name == "network") return NcclTransport::network;
  return NcclTransport::none;
}

ProtocolTime nccl_ring_time(NcclTransport transport, double steps, double bus_bytes, double bandwidth_Bps,
                            double call_overhead_s) {
  int hw = transport == NcclTransport::pcie ? 1 : transport == NcclTransport::network ? 2 : 0;
  ProtocolTime best{-1, ""};
  for (const Protocol& p : kProtocols) {
    double t = call_overhead_s + (p.base_us + steps * p.hop_us[hw]) * 1e-6 + bus_bytes / (bandwidth_Bps * p.share);
    if (best.time_s < 0 || t < best.time_s) best = {t, p.name};
  }
  return best;
}

ProtocolTime nccl_tree_all_reduce_time(double nodes, double bytes, double bandwidth_Bps, double call_overhead_s) {
  double depth = std::ceil(std::log2(nodes));
  ProtocolTime best{-1, ""};
  for (const TreeProtocol& p : kTreeProtocols) {
    double t = call_overhead_s + (p.base_us + 2 * depth * p.hop_us) * 1e-6 + 2 * bytes / (bandwidth_Bps * p.share);
    if (best.time_s < 0 || t < best.time_s) best = {t, p.name};
  }
  return best;
}

}  // namespace ridge
