// `ridge import model.onnx -o model.toml`: writes the ridge model file an ONNX graph
// translates to (the very table `ridge analyze model.onnx` reads, with its repeated
// instances folded into `repeat` blocks that expand back to it, so both give the same
// numbers), after checking that it reads back as a model.
#include <iostream>
#include <sstream>

#include "sim/base/error.hpp"
#include "sim/base/output_file.hpp"
#include "sim/base/toml_text.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/run_options.hpp"
#include "sim/workload/model_reader.hpp"
#include "sim/workload/onnx/onnx_reader.hpp"
#include "sim/workload/onnx/symbolic_params.hpp"
#include "sim/workload/repeat_blocks.hpp"

namespace ridge::cli {

namespace {
const CommandHelp kHelp = {
    "ridge import MODEL.onnx [-o MODEL.toml] [options]",
    "Writes the ridge model file an ONNX graph translates to: the layer table `ridge analyze MODEL.onnx`\n"
    "reads, so the file analyses to the same numbers. Shapes are per sample (the graph's batch axis is\n"
    "--batch); initializers become parameters by shape; layer names are the node names.",
    {"ridge import resnet50.onnx -o resnet50.toml", "ridge import bert.onnx --input input_ids=1x128 -o bert.toml",
     "ridge import gpt.onnx --set model.seq=128 -o gpt.toml"}};
}  // namespace

int run_import(const Args& args) {
  std::string onnx_path, output;
  RunOptionValues run;
  HardwareOptionValues sets;
  po::options_description general("General");
  general.add_options()("help,h", "show this help")("model", po::value(&onnx_path), "ONNX file")(
      "output,o", po::value(&output), "write the model file here (atomically) instead of stdout");
  po::options_description onnx("ONNX options");
  onnx.add_options()("input", po::value(&run.inputs)->composing(),
                     "NAME=1x3x224x224: the full shape of an input with dynamic dimensions")(
      "allow-unknown", po::bool_switch(&run.allow_unknown), "write a node ridge does not model as an 'unmodelled' layer")(
      "set", po::value(&sets.sets)->composing(),
      "model.NAME=N: the size of the input's symbolic dimension NAME, kept in the file as its [params] NAME; "
      "onnx.max_detections=N: the boxes each NonMaxSuppression keeps; "
      "onnx.proposals=N: the proposals an R-CNN's RPN keeps per image");
  po::options_description visible;
  visible.add(general).add(onnx);
  po::positional_options_description pos;
  pos.add("model", 1);
  po::variables_map vm;
  if (!parse_command_line(args, visible, pos, vm, kHelp)) return 0;
  if (onnx_path.empty()) throw InputError({}, "import: which ONNX file?", "ridge import model.onnx -o model.toml");
  if (!is_onnx_path(onnx_path)) throw InputError({onnx_path}, "is not an .onnx file", "ridge import reads ONNX models");

  OnnxOptions options = to_onnx_options(run);
  for (const std::string& set : sets.sets)
    if (!set.starts_with("model.") && !set.starts_with("onnx."))
      throw InputError({}, "import: --set " + set + " names no model dimension",
                       "ridge import takes --set model.NAME=N, onnx.max_detections=N and onnx.proposals=N");
  for (const ParamOverride& o : model_overrides(sets))
    if (o.name.starts_with("onnx.")) set_onnx_option(options, onnx_path, o.name, o.value);
    else options.dims.emplace_back(o.name, o.value);
  toml::table table = onnx_import_table(onnx_path, options);
  table.insert_or_assign("layer", fold_repeats(*table.get_as<toml::array>("layer")));
  Model model = read_model_table(table, onnx_path);  // it must read back before it is written
  write_output(output, [&](std::ostream& os) {
    os << "# Imported by `ridge import " << toml_comment_text(onnx_path) << "`: " << model.layers.size()
       << " layers; shapes are per sample (the ONNX batch axis is --batch).\n";
    os << toml::toml_formatter(table) << '\n';
  });
  return 0;
}

}  // namespace ridge::cli
