// The options compare and plot compare share (see compare_options.hpp).
#include "sim/cli/compare_options.hpp"

#include "sim/base/error.hpp"
#include "sim/base/format_units.hpp"
#include "sim/workload/cost_analysis.hpp"

namespace ridge::cli {

po::options_description cost_option_group(CostOptionValues& v) {
  po::options_description g("Cost options");
  g.add_options()
      ("price-basis", po::value(&v.basis)->default_value(v.basis), "purchase (launch price over --years + electricity) | cloud (on-demand $/h)")
      ("years", po::value(&v.years)->default_value(v.years), "purchase: years of full use the launch price is spread over")
      ("usd-per-kwh", po::value(&v.usd_per_kwh)->default_value(v.usd_per_kwh), "purchase: electricity price, US dollars per kWh");
  return g;
}

CostBasis to_cost_basis(const CostOptionValues& v) {
  CostBasis b;
  std::optional<CostBasis::Kind> kind = parse_cost_basis_kind(v.basis);
  if (!kind) throw InputError({}, "--price-basis: unknown basis '" + v.basis + "'", "use purchase (launch price + electricity) or cloud");
  b.kind = *kind;
  if (!valid_years(v.years)) throw InputError({}, "--years must be in (0, 100] (got " + format_raw(v.years) + ")");
  if (!valid_usd_per_kwh(v.usd_per_kwh))
    throw InputError({}, "--usd-per-kwh must be in [0, 100] (got " + format_raw(v.usd_per_kwh) + ")", "e.g. 0.13");
  b.years = v.years;
  b.usd_per_kwh = v.usd_per_kwh;
  return b;
}

ComparisonResult compare_on_hardware(const Model& model, const RunSettings& settings, const HardwareOptionValues& hwo,
                                     const CostBasis& basis, const std::optional<TrainingRun>& training_run) {
  CostAnalysis costs = analyze_costs(model, settings);
  std::vector<SelectedHardware> hardware = to_hardware_list(hwo);
  std::vector<DeviceUnderTest> devices;
  for (const SelectedHardware& h : hardware) devices.push_back({&h.spec, h.model});
  return compare_devices(model, costs, devices, basis, training_run);
}

}  // namespace ridge::cli
