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

std::optional<CostBasis::Kind> parse_cost_basis_kind(const std::string& name) {
  if (name == "purchase") return CostBasis::Kind::purchase;
  if (name == "cloud") return CostBasis::Kind::cloud;
  return std::nullopt;
}

bool valid_years(double years) { return years > 0 && years <= kMaxAmortisationYears; }
bool valid_usd_per_kwh(double usd_per_kwh) { return usd_per_kwh >= 0 && usd_per_kwh <= kMaxUsdPerKwh; }

std::string cost_basis_text(const CostBasis& b) {
  if (b.kind == CostBasis::Kind::cloud) return "each device's cloud on-demand price per hour (descriptor [price])";
  return "launch price amortised over " + format_raw(b.years) + " year(s) of full use + electricity at $" +
         format_raw(b.usd_per_kwh) + "/kWh of the modelled average power";
}

}  // namespace ridge
