// `ridge list models`: what the zoo holds, a line each.
#include <iostream>

#include "hw/model_registry.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/close_names.hpp"
#include "sim/cost_analysis.hpp"
#include "sim/error.hpp"
#include "sim/model_catalog.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/format_units.hpp"

namespace ridge::cli {

namespace {

int list_models() {
  ColumnTable t;
  t.columns = {{"model", "model", false}, {"params", "params"}, {"GMACs@1", "gmacs_batch1"}, {"source", "source", false}};
  for (const std::string& name : zoo_names()) {
    Model m = load_model(name);
    CostAnalysis c = analyze_costs(m, RunSettings{});
    t.rows.push_back({text_cell(name), {format_count(static_cast<double>(c.totals.params)), format_raw(c.totals.params)},
                      {format_fixed(static_cast<double>(c.totals.macs) / 1e9, 3), format_raw(c.totals.macs / 1e9)},
                      text_cell(m.source)});
  }
  write_text_table(t, std::cout);
  return 0;
}

int list_hw_models() {
  ColumnTable t;
  t.columns = {{"hw-model", "hw_model", false}, {"what it computes", "summary", false}};
  for (const HardwareModel* m : hardware_models())
    t.rows.push_back({text_cell(std::string(m->name())), text_cell(std::string(m->summary()))});
  write_text_table(t, std::cout);
  return 0;
}

}  // namespace

int run_list(const Args& args) {
  std::string what;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("what", po::value(&what), "models | hw-models");
  po::positional_options_description pos;
  pos.add("what", 1);
  po::variables_map vm;
  if (!parse_command_line(args, general, pos, vm, "ridge list models|hw-models")) return 0;
  if (what == "models") return list_models();
  if (what == "hw-models") return list_hw_models();
  const std::vector<std::string> known = {"models", "hw-models"};
  throw InputError({}, "list: unknown list '" + what + "'", suggestion_hint(what, known));
}

}  // namespace ridge::cli
