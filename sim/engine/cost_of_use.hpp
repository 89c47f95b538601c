// What an hour of a device costs, and so a sample, a token or a training run: either its
// cloud on-demand price per hour, or its launch price amortised over `years` of full use
// plus the electricity it draws (its average power at `usd_per_kwh`). Which basis was used
// is part of the result, so every report can say so.
#pragma once

#include <optional>
#include <string>

#include "hw/hardware_spec.hpp"

namespace ridge {

// US average commercial electricity price, about 13 cents per kWh (US EIA, Electric Power
// Monthly, 2023-2024 averages of 12.7-13.1 cents): the default of --usd-per-kwh.
inline constexpr double kDefaultUsdPerKwh = 0.13;

// The bounds a cost basis is checked against: no hardware is amortised over more than a
// century, and no grid sells a kWh for more than $100 (a larger figure is a typo).
inline constexpr double kMaxAmortisationYears = 100;
inline constexpr double kMaxUsdPerKwh = 100;

struct CostBasis {
  enum class Kind { purchase, cloud } kind = Kind::purchase;
  double years = 1;                       // purchase: amortised over this much full use
  double usd_per_kwh = kDefaultUsdPerKwh;  // purchase: electricity
};

struct UseCost {
  double usd_per_hour = 0;
  double hardware_usd_per_hour = 0;     // purchase: launch price / hours; cloud: the hourly price
  double electricity_usd_per_hour = 0;  // purchase: average power x price of a kWh; cloud: 0 (included)
  std::string basis;                    // "launch $699 over 1 year + 250 W at $0.13/kWh" / "cloud: AWS p3.2xlarge ..."
};

// "purchase" or "cloud"; nothing for another name.
std::optional<CostBasis::Kind> parse_cost_basis_kind(const std::string& name);
// Whether `years` is in (0, kMaxAmortisationYears] and `usd_per_kwh` in [0, kMaxUsdPerKwh].
bool valid_years(double years);
bool valid_usd_per_kwh(double usd_per_kwh);

// The basis in words, for reports: "launch price amortised over 1 year(s) of full use +
// electricity at $0.13/kWh of the modelled average power", or the cloud price's.
std::string cost_basis_text(const CostBasis& b);

// Nothing when the descriptor lacks the price the basis needs (or, buying, its power).
std::optional<UseCost> use_cost(const HardwareSpec& hw, const CostBasis& basis, std::optional<double> average_power_w);

// `per_s` things (samples, tokens) per second at `usd_per_hour`: things per dollar.
double per_usd(double per_s, double usd_per_hour);

}  // namespace ridge
