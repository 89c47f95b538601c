// What a device draws and costs: the optional [power] and [price] tables of a hardware
// descriptor (board power, idle power, a host's CPU and DRAM power, the process node the
// energy model scales per-operation energies to; launch price and a cloud on-demand
// price per hour). Parsed strictly: a negative price, a power above kMaxDevicePowerW or
// an idle power above the board's is an input error at the value.
#pragma once

#include <optional>
#include <string>

#include <toml++/toml.h>

namespace ridge {

// No single accelerator board or two-socket host draws more (an H100 SXM is 700 W, a
// GB200 superchip about 2.7 kW): a larger figure is a typo (a missing decimal point or
// kW for W).
constexpr double kMaxDevicePowerW = 3000;

struct DevicePower {
  std::optional<double> board_w;     // board power / TDP: the most the device draws
  std::optional<double> idle_w;      // drawn while it waits (static power)
  std::optional<double> cpu_w;       // a host's CPU package power (all sockets)
  std::optional<double> dram_w;      // a host's DRAM power at full bandwidth
  std::optional<double> process_nm;  // the logic process node, for scaling per-op energies

  // The most the device draws: its board power, or a host's CPU + DRAM power.
  std::optional<double> max_w() const {
    if (board_w) return board_w;
    if (cpu_w && dram_w) return *cpu_w + *dram_w;
    return std::nullopt;
  }
};

struct DevicePrice {
  std::optional<double> launch_usd;          // launch / list price of one device
  std::optional<double> cloud_usd_per_hour;  // on-demand price of one device-hour
  std::string cloud_offer;                   // which provider, instance and date the hourly price is
};

// Reads [power] / [price]; `kind` is the descriptor's ("gpu" or "cpu").
DevicePower read_power(const toml::table& t, const std::string& file, const std::string& kind);
DevicePrice read_price(const toml::table& t, const std::string& file);

}  // namespace ridge
