// Reading a descriptor's [power] and [price] tables (see power_price.hpp).
#include "hw/power_price.hpp"

#include "sim/base/format_units.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/base/units.hpp"

namespace ridge {

namespace {

std::optional<double> read_power_w(TomlFields& f, std::string_view key) {
  std::optional<double> w = read_optional_quantity(f, key, Quantity::power, key == "idle");
  if (w && *w > kMaxDevicePowerW)
    f.fail(key, "is " + format_raw(*w) + " W, above the " + format_raw(kMaxDevicePowerW) + " W any one device draws",
           "write the power of one device in W (\"250 W\"), or in kW with its decimal point (\"0.7 kW\")");
  return w;
}

std::optional<double> read_usd(TomlFields& f, std::string_view key) {
  std::optional<double> usd = f.optional_number(key);
  if (usd && !(*usd > 0)) f.fail(key, "must be a price greater than zero in US dollars (got " + format_raw(*usd) + ")");
  return usd;
}

}  // namespace

DevicePower read_power(const toml::table& t, const std::string& file, const std::string& kind) {
  TomlFields f(t, file, "power");
  for (const char* k : {"board", "idle", "cpu", "dram", "process_nm"}) f.accept(k);
  f.reject_unknown_keys();
  DevicePower p;
  p.board_w = read_power_w(f, "board");
  p.idle_w = read_power_w(f, "idle");
  p.cpu_w = read_power_w(f, "cpu");
  p.dram_w = read_power_w(f, "dram");
  if ((p.cpu_w || p.dram_w) && kind != "cpu")
    f.fail(p.cpu_w ? "cpu" : "dram", "is a host's figure, and this descriptor is a " + kind,
           "give a GPU's board power as 'board'");
  if (p.idle_w && p.max_w() && *p.idle_w > *p.max_w())
    f.fail("idle", "(" + format_raw(*p.idle_w) + " W) is above the most the device draws (" + format_raw(*p.max_w()) + " W)");
  p.process_nm = f.optional_number("process_nm");
  if (p.process_nm && !(*p.process_nm >= 1 && *p.process_nm <= 1000))
    f.fail("process_nm", "must be a process node in nm between 1 and 1000 (got " + format_raw(*p.process_nm) + ")",
           "e.g. process_nm = 7 for TSMC N7");
  return p;
}

DevicePrice read_price(const toml::table& t, const std::string& file) {
  TomlFields f(t, file, "price");
  for (const char* k : {"launch_usd", "cloud_usd_per_hour", "cloud_offer"}) f.accept(k);
  f.reject_unknown_keys();
  DevicePrice p;
  p.launch_usd = read_usd(f, "launch_usd");
  p.cloud_usd_per_hour = read_usd(f, "cloud_usd_per_hour");
  p.cloud_offer = f.optional_string("cloud_offer").value_or("");
  if (p.cloud_usd_per_hour && p.cloud_offer.empty())
    f.fail("cloud_usd_per_hour", "needs a 'cloud_offer' saying whose price it is",
           "e.g. cloud_offer = \"AWS p3.2xlarge, us-east-1, on demand, 2024-06\"");
  return p;
}

}  // namespace ridge
