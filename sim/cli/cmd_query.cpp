// `ridge query MODEL --hw HW --layer NAME`: is this layer bandwidth-limited, where, and
// what would flip it; plain sentences or JSON.
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/base/error.hpp"
#include "sim/engine/layer_query.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/base/output_file.hpp"
#include "sim/views/query_report.hpp"

namespace ridge::cli {

int run_query(const Args& args) {
  std::string model_arg, layer;
  RunOptionValues run;
  HardwareOptionValues hwo;
  OutputOptionValues out;
  out.format = "text";
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&model_arg), "zoo name or model file")(
      "layer,l", po::value(&layer), "the layer to explain (ridge analyze MODEL lists them)");
  po::options_description visible;
  visible.add(general).add(hardware_option_group(hwo)).add(run_option_group(run)).add(output_option_group(out, "text | json"));
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  const std::string usage = "ridge query MODEL --hw HW --layer NAME [options]";
  if (!parse_command_line(args, visible, pos, vm, usage)) return 0;
  if (model_arg.empty()) throw InputError({}, "query: which model?", "ridge query alexnet --hw v100 --layer conv1");
  if (hwo.hw.empty()) throw InputError({}, "query: which hardware? (--hw)", "ridge list hardware");
  if (layer.empty()) throw InputError({}, "query: which layer? (--layer)", "ridge analyze " + model_arg + " lists them");
  if (out.format != "text" && out.format != "json")
    throw InputError({}, "--format: query writes text or json (got '" + out.format + "')");

  RunSettings settings = to_run_settings(run);
  Model model = load_cli_model(model_arg, run, hwo);
  SelectedHardware hw = *to_hardware(hwo);
  LayerQuery q = query_layer(model, settings, hw.spec, *hw.model, layer);
  write_output(out.output, [&](std::ostream& os) {
    if (out.format == "json")
      query_json(model, hw.spec, q).write(os);
    else
      os << query_text(model, hw.spec, q);
  });
  return 0;
}

}  // namespace ridge::cli
