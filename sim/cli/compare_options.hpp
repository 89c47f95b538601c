// What `ridge compare` and `ridge plot compare` share: the cost basis options --price-basis
// (purchase: the launch price over --years of full use plus electricity at --usd-per-kwh;
// cloud: the on-demand price per hour), checked into a CostBasis, and running the comparison
// of a model on every --hw.
#pragma once

#include <optional>
#include <string>

#include "sim/cli/commands.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/engine/cost_of_use.hpp"
#include "sim/engine/device_comparison.hpp"

namespace ridge::cli {

struct CostOptionValues {
  std::string basis = "purchase";
  double years = 1;
  double usd_per_kwh = kDefaultUsdPerKwh;
};

po::options_description cost_option_group(CostOptionValues& v);
// An unknown basis, years outside (0, 100] or an electricity price outside [0, 100] $/kWh
// is an InputError naming the option.
CostBasis to_cost_basis(const CostOptionValues& v);

// The model timed on every --hw at the run's settings, side by side.
ComparisonResult compare_on_hardware(const Model& model, const RunSettings& settings, const HardwareOptionValues& hwo,
                                     const CostBasis& basis, const std::optional<TrainingRun>& training_run = std::nullopt);

}  // namespace ridge::cli
