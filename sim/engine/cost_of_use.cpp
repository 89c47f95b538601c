// The cost of an hour of a device (see cost_of_use.hpp).
#include "sim/engine/cost_of_use.hpp"

#include "sim/base/format_units.hpp"

namespace ridge {

namespace {
constexpr double kHoursPerYear = 365 * 24;
}  // namespace

std::optional<UseCost> use_cost(const HardwareSpec& hw, const CostBasis& basis, std::optional<double> average_power_w) {
  UseCost c;
  if (basis.kind == CostBasis::Kind::cloud) {
    if (!hw.price.cloud_usd_per_hour) return std::nullopt;
    c.hardware_usd_per_hour = *hw.price.cloud_usd_per_hour;
    c.usd_per_hour = c.hardware_usd_per_hour;
    c.basis = "cloud $" + format_raw(*hw.price.cloud_usd_per_hour) + "/h (" + hw.price.cloud_offer + ")";
    return c;
  }
  if (!hw.price.launch_usd || !average_power_w) return std::nullopt;
  c.hardware_usd_per_hour = *hw.price.launch_usd / (basis.years * kHoursPerYear);
  c.electricity_usd_per_hour = *average_power_w / 1000 * basis.usd_per_kwh;
  c.usd_per_hour = c.hardware_usd_per_hour + c.electricity_usd_per_hour;
  c.basis = "launch $" + format_raw(*hw.price.launch_usd) + " over " + format_raw(basis.years) + " year" +
            (basis.years == 1 ? "" : "s") + " of full use + electricity at $" + format_raw(basis.usd_per_kwh) + "/kWh";
  return c;
}

double per_usd(double per_s, double usd_per_hour) { return usd_per_hour > 0 ? per_s * 3600 / usd_per_hour : 0; }

}  // namespace ridge
