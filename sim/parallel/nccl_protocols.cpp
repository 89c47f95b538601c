// NCCL's protocol model (see nccl_protocols.hpp for the constants and their source).
#include "sim/parallel/nccl_protocols.hpp"

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
    {"Simple", 8.4, {3.4, 5.7, 9.6}, 1.0},
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

}  // namespace ridge
