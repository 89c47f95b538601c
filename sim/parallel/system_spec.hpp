// A system: many copies of one device joined by a scale-up network inside each domain
// (NVLink / NVSwitch, Infinity Fabric, PCIe) and a scale-out network between domains
// (InfiniBand / Ethernet NICs). Read from configs/systems/*.toml (system_reader.hpp);
// collectives (collectives.hpp) are timed on its levels.
#pragma once

#include <cstdint>
#include <string>

#include "hw/hardware_spec.hpp"
#include "sim/parallel/nccl_protocols.hpp"

namespace ridge {

// One network level as a collective sees it from one device.
struct NetworkLevel {
  std::string name;
  double bandwidth_Bps = 0;  // per device, each direction (scale-out: the node's NICs shared by its devices)
  double latency_s = 0;      // one step of a ring or tree (alpha)
  double efficiency = 1;     // achievable fraction of bandwidth_Bps in a large collective
  // With a transport, ring collectives follow NCCL's protocol model (nccl_protocols.hpp)
  // instead of steps x latency_s, plus call_overhead_s per collective.
  NcclTransport nccl = NcclTransport::none;
  double call_overhead_s = 0;
  double achievable_Bps() const { return bandwidth_Bps * efficiency; }
};

struct SystemSpec {
  std::string id;      // shipped name or path
  std::string file;
  std::string name;
  std::string source;
  std::string device_id;  // a shipped configs/hw name
  HardwareSpec device;
  int64_t devices_per_domain = 1;  // a scale-up domain (one node for the shipped systems)
  int64_t domains = 1;
  NetworkLevel scale_up;
  bool in_switch_reduction = false;  // NVLink SHARP: the switch adds, each device sends and receives once
  double in_switch_efficiency = 1;   // achievable fraction of the scale-up bandwidth an in-switch all-reduce reaches
  int64_t nics_per_domain = 0;
  double nic_Bps = 0;                // one NIC, each direction
  double oversubscription = 1;       // fabric taper: >= 1
  NetworkLevel scale_out;            // per device: nics x nic / devices / oversubscription
  NcclHost nccl_host = NcclHost::other;  // the node's CPU as NCCL's tuner sees it ([scale_out] nccl_host)
  NcclGpu nccl_gpu = NcclGpu::unknown;   // picks NCCL's per-channel caps ([scale_out] nccl_gpu)
  std::string efficiency_source;     // where the device's [efficiency] factors come from (empty: none)

  int64_t total_devices() const { return devices_per_domain * domains; }
};

}  // namespace ridge
