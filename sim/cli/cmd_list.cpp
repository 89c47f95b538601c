// `ridge list models|hardware|hw-models`: the zoo, the shipped descriptors and the
// hardware models, a line each.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/engine/result.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/base/close_names.hpp"
#include "sim/workload/cost_analysis.hpp"
#include "sim/base/error.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/field.hpp"
#include "sim/views/hardware_view.hpp"
#include "sim/base/format_units.hpp"
#include "sim/base/output_file.hpp"
#include "sim/parallel/system_reader.hpp"

namespace ridge::cli {

namespace {

// 4 significant digits: 15.7, 989.4, 1979, 0.47.
std::string short_number(double v) { return human_text(v, Unit::number); }

ColumnTable list_models() {
  ColumnTable t;
  t.columns = {{"model", "model", false}, {"params", "params"}, {"MACs@1", "macs_batch1"}, {"source", "source", false, true}};
  for (const std::string& name : zoo_names()) {
    Model m = load_model(name);
    CostAnalysis c = analyze_costs(m, RunSettings{});
    t.rows.push_back({text_cell(name), {format_count(static_cast<double>(c.totals.params)), format_raw(c.totals.params)},
                      {format_count(static_cast<double>(c.totals.macs)), format_raw(c.totals.macs)},
                      text_cell(m.source)});
  }
  return t;
}

ColumnTable list_hw_models() {
  ColumnTable t;
  t.columns = {{"hw-model", "hw_model", false}, {"what it computes", "summary", false, true}};
  for (const HardwareModel* m : hardware_models())
    t.rows.push_back({text_cell(std::string(m->name())), text_cell(std::string(m->summary()))});
  return t;
}


ColumnTable list_hardware() {
  ColumnTable t;
  t.preamble = {"dense peaks in TFLOP/s (int8: TOP/s), '-' = not supported; ridge point = achievable peak / achievable DRAM bandwidth (FLOP/B)"};
  t.columns = {{"id", "id", false}, {"name", "name", false}};
  for (DType d : kAllDTypes) t.columns.push_back({std::string(dtype_name(d)), std::string(dtype_name(d)) + "_tflops"});
  t.columns.insert(t.columns.end(), {{"DRAM", "dram", false},
                                     {"bandwidth", "dram_bandwidth_Bps"},
                                     {"capacity", "dram_capacity_bytes"},
                                     {"ridge fp32", "ridge_fp32"},
                                     {"ridge best", "ridge_best"},
                                     {"at", "ridge_best_dtype", false}});
  for (const std::string& id : shipped_hardware_names()) {
    HardwareSpec s = load_hardware(id);
    const MemoryLevel& dram = s.dram();
    std::vector<Cell> row = {text_cell(id), text_cell(s.name)};
    for (DType d : kAllDTypes) {
      auto peak = s.peak(d);
      row.push_back(peak ? Cell{short_number(*peak / 1e12), format_raw(*peak / 1e12)} : Cell{"-", ""});
    }
    auto best = std::max_element(s.peak_flops.begin(), s.peak_flops.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    auto fp32 = s.peak(DType::fp32);
    row.insert(row.end(), {text_cell(dram.name), {format_rate(dram.bandwidth_Bps, "B/s"), format_raw(dram.bandwidth_Bps)},
                           {capacity_text(dram.capacity_bytes), format_raw(dram.capacity_bytes)},
                           fp32 ? Cell{format_fixed(ridge_point(s, DType::fp32, 0), 1), format_raw(ridge_point(s, DType::fp32, 0))}
                                : Cell{"-", ""},
                           {format_fixed(ridge_point(s, best->first, 0), 1), format_raw(ridge_point(s, best->first, 0))},
                           text_cell(std::string(dtype_name(best->first)))});
    t.rows.push_back(std::move(row));
    for (const std::string& d : s.derivations) t.footer.push_back("  " + id + ": " + d);
    if (s.calibration && !s.calibration->conditions.empty())
      t.footer.push_back("  " + id + ": calibrated on " + s.calibration->data + ", measured under " +
                         conditions_text(s.calibration->conditions));
  }
  if (!t.footer.empty()) t.footer.insert(t.footer.begin(), "\nderived:");
  return t;
}

ColumnTable list_systems() {
  ColumnTable t;
  t.columns = {{"id", "id", false},        {"device", "device", false},  {"per domain", "devices_per_domain"},
               {"domains", "domains"},     {"devices", "devices"},       {"scale-up", "scale_up", false},
               {"up B/s", "scale_up_Bps"}, {"in-switch", "in_switch_reduction", false},
               {"scale-out", "scale_out", false}, {"out B/s per device", "scale_out_Bps"}};
  for (const std::string& id : shipped_system_names()) {
    SystemSpec s = load_system(id);
    t.rows.push_back({text_cell(id), text_cell(s.device_id), text_cell(std::to_string(s.devices_per_domain)),
                      text_cell(std::to_string(s.domains)), text_cell(std::to_string(s.total_devices())),
                      text_cell(s.scale_up.name), {format_rate(s.scale_up.bandwidth_Bps, "B/s"), format_raw(s.scale_up.bandwidth_Bps)},
                      text_cell(s.in_switch_reduction ? "yes" : "no"), text_cell(s.scale_out.name),
                      {format_rate(s.scale_out.bandwidth_Bps, "B/s"), format_raw(s.scale_out.bandwidth_Bps)}});
  }
  return t;
}

}  // namespace

int run_list(const Args& args) {
  std::string what;
  OutputOptionValues out;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("what", po::value(&what), "models | hardware | hw-models | systems");
  const std::vector<OutputFormat> formats = {OutputFormat::table, OutputFormat::csv};
  general.add(output_option_group(out, formats, false, false));
  po::positional_options_description pos;
  pos.add("what", 1);
  po::variables_map vm;
  const CommandHelp help = {"ridge list models|hardware|hw-models|systems",
                            "Lists the zoo (parameters and MACs at batch 1, with each model's source), the shipped hardware\n"
                            "descriptors (dense peaks per dtype, DRAM, ridge points, and how derived figures were computed) or\n"
                            "the hardware models, or the shipped multi-device systems (devices, domains, scale-up and scale-out\n"
                            "bandwidth). --format csv writes the same columns, numbers in full precision (bytes, B/s, TFLOP/s).",
                            {"ridge list models", "ridge list hardware", "ridge list hardware --format csv --output hardware.csv"}};
  if (!parse_command_line(args, general, pos, vm, help)) return 0;
  OutputFormat format = to_output_format(out, formats);
  const std::vector<std::pair<std::string, ColumnTable (*)()>> lists = {
      {"models", list_models}, {"hardware", list_hardware}, {"hw-models", list_hw_models}, {"systems", list_systems}};
  std::vector<std::string> known;
  for (const auto& [name, make] : lists) {
    known.push_back(name);
    if (name != what) continue;
    ColumnTable t = make();
    write_output(out.output, [&](std::ostream& os) {
      if (format == OutputFormat::csv) write_csv(t, os);
      else write_text_table(t, os);
    });
    return 0;
  }
  throw InputError({}, "list: unknown list '" + what + "'", suggestion_hint(what, known));
}

}  // namespace ridge::cli
