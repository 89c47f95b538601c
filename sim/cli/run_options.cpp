// Shared option groups (see run_options.hpp).
#include "sim/cli/run_options.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/base/close_names.hpp"
#include "sim/base/error.hpp"

namespace ridge::cli {

void weight_only_options(po::options_description& g, RunOptionValues& v) {
  g.add_options()
      ("weight-group", po::value(&v.weight_group),
       ("with --weight-dtype: weights per fp16 scale, 32 | 64 | 128 (default " + std::to_string(kDefaultWeightGroup) + ")").c_str())
      ("quantize-lm-head", po::bool_switch(&v.quantize_lm_head),
       "with --weight-dtype: quantize the logits layer (lm_head) too; by default it stays in --dtype");
}

po::options_description run_option_group(RunOptionValues& v, bool data_placement) {
  po::options_description g("Run options");
  g.add_options()
      ("batch,b", po::value(&v.batch)->default_value(v.batch), "samples per step")
      ("dtype,d", po::value(&v.dtype), "fp64 | fp32 | tf32 | fp16 | bf16 | fp8 | int8 (default fp32; fp16 for prefill and decode)")
      ("phase,p", po::value(&v.phase)->default_value(v.phase),
       "inference | training | prefill (--seq prompt tokens, writing the KV cache) | decode (one new token "
       "attending to --context cached ones)")
      ("seq", po::value(&v.seq), "prefill: prompt tokens per sequence (default: the model file's input length)")
      ("context", po::value(&v.context), "decode: tokens already in the KV cache per sequence")
      ("kv-dtype", po::value(&v.kv_dtype), "prefill / decode: the KV cache's type, fp8 | int8 | fp16 | bf16 | fp32 (default --dtype)")
      ("optimizer", po::value(&v.optimizer), "training: sgd | momentum | adam | adamw (default adam)")
      ("precision", po::value(&v.precision)->default_value(v.precision),
       "uniform (all in --dtype) | mixed (--dtype fp16|bf16 weights, activations, gradients; fp32 master weights "
       "and optimizer state)")
      ("input", po::value(&v.inputs)->composing(), "ONNX model: NAME=1x3x224x224, the full shape of an input with dynamic dimensions (its first is the batch, which --batch sets)")
      ("allow-unknown", po::bool_switch(&v.allow_unknown), "ONNX model: a node ridge does not model becomes a zero-cost 'unmodelled' layer instead of an error");
  if (data_placement)
    g.add_options()("data-on", po::value(&v.data_on)->default_value(v.data_on),
                    "device | host: where input and output live; host sends them over the link");
  g.add_options()
      ("overhead", po::value(&v.overhead)->default_value(v.overhead),
       "launch overhead: kernel (each kernel pays kernel_launch) | graph (one launch per step, as a CUDA graph) | none")
      ("weight-dtype", po::value(&v.weight_dtype),
       "weight-only quantization of linear layers: int8 | int4 | fp8, widened to --dtype in the kernel (not in training)");
  weight_only_options(g, v);
  g.add_options()("all-logits", po::bool_switch(&v.all_logits),
                  "prefill: the logits of every prompt token (scoring); default: the last token's only, as serving engines");
  return g;
}

po::options_description hardware_option_group(HardwareOptionValues& v, const std::string& repeat) {
  po::options_description g("Hardware options");
  g.add_options()
      ("hw", po::value(&v.hw)->composing(), ("shipped descriptor name (ridge list hardware) or descriptor file" + repeat).c_str())
      ("hw-model", po::value(&v.hw_model), "hardware model instead of the descriptor's default (ridge list hw-models)")
      ("set", po::value(&v.sets)->composing(), "KEY=VALUE: override a descriptor field, e.g. compute.fp32=\"120 TFLOPS\", a model parameter, "
       "e.g. model.seq=2048, or an ONNX detector's assumption, onnx.max_detections=N (boxes each NMS keeps) or "
       "onnx.proposals=N (an R-CNN's RPN proposals per image) (repeatable)")
      ("efficiency", po::value(&v.efficiency)->default_value(v.efficiency),
       "calibrated: a descriptor's [efficiency] (achievable roofs from public measurements) and [calibration] apply, "
       "a prediction; none: the datasheet roofline, a bound");
  return g;
}

po::options_description output_option_group(OutputOptionValues& v, const std::vector<OutputFormat>& formats,
                                            bool columns, bool csv_extras) {
  po::options_description g("Output options");
  g.add_options()
      ("format,f", po::value(&v.format)->default_value(v.format), format_choices(formats).c_str())
      ("output,o", po::value(&v.output), "write to FILE (atomically) instead of stdout");
  if (csv_extras && std::find(formats.begin(), formats.end(), OutputFormat::csv) != formats.end())
    g.add_options()
        ("comments", po::bool_switch(&v.csv.comments), "csv: add the settings and conventions as leading # lines")
        ("totals", po::bool_switch(&v.csv.totals), "csv: add the totals row (JSON always has the totals)");
  if (columns)
    g.add_options()("columns", po::value(&v.columns),
                    "LIST|all: the columns to show, by key (name,op,time_s,...; `all` for every one). Default: a "
                    "compact set for table, md and tex, every column for csv and json");
  return g;
}

RunSettings to_run_settings(const RunOptionValues& v) {
  RunSettings s;
  if (v.batch <= 0) throw InputError({}, "--batch must be a positive integer (got " + std::to_string(v.batch) + ")");
  s.batch = v.batch;
  auto ph = parse_phase(v.phase);
  if (!ph) throw InputError({}, "--phase: unknown phase '" + v.phase + "'", "use inference, training, prefill or decode");
  s.phase = *ph;
  // No --dtype: fp32, but fp16 for prefill and decode, as LLMs are served in half precision.
  std::string dtype = !v.dtype.empty() ? v.dtype : s.uses_kv_cache() ? "fp16" : "fp32";
  auto dt = parse_dtype(dtype);
  if (!dt) throw InputError({}, "--dtype: unknown data type '" + dtype + "'", "use one of " + dtype_names());
  s.dtype = *dt;
  if (v.seq) {
    if (s.phase != Phase::prefill) throw InputError({}, "--seq applies to --phase prefill", "use --context with decode");
    if (*v.seq <= 0) throw InputError({}, "--seq must be a positive integer (got " + std::to_string(*v.seq) + ")");
    s.seq = *v.seq;
  }
  if (v.context && *v.context < 0)
    throw InputError({}, "--context must not be negative (got " + std::to_string(*v.context) + ")", "e.g. --phase decode --context 1024");
  if (s.phase == Phase::decode) {
    if (!v.context)
      throw InputError({}, "--phase decode needs --context (tokens already in the KV cache)", "e.g. --phase decode --context 1024");
    s.context = *v.context;
  } else if (v.context) {
    throw InputError({}, "--context applies to --phase decode", "use --seq with prefill");
  }
  if (!v.kv_dtype.empty()) {
    if (!s.uses_kv_cache()) throw InputError({}, "--kv-dtype applies to --phase prefill or decode", "add --phase prefill or --phase decode --context N");
    auto kv = parse_dtype(v.kv_dtype);
    if (!kv || *kv == DType::tf32 || *kv == DType::fp64)
      throw InputError({}, "--kv-dtype: unknown KV cache type '" + v.kv_dtype + "'", "use fp8, int8, fp16, bf16 or fp32");
    s.kv_dtype = *kv;
  }
  if (!v.optimizer.empty() && s.phase != Phase::training)
    throw InputError({}, "--optimizer applies to training only (this run is " + std::string(phase_name(s.phase)) + ")",
                     "drop --optimizer, or add --phase training");
  const std::string optimizer = v.optimizer.empty() ? "adam" : v.optimizer;
  auto opt = parse_optimizer(optimizer);
  if (!opt) throw InputError({}, "--optimizer: unknown optimizer '" + optimizer + "'", "use sgd, momentum, adam or adamw");
  s.optimizer = *opt;
  auto prec = parse_precision(v.precision);
  if (!prec) throw InputError({}, "--precision: unknown recipe '" + v.precision + "'", "use uniform or mixed");
  s.precision = *prec;
  if (s.precision == Precision::mixed && s.phase != Phase::training)
    throw InputError({}, "--precision mixed applies to training only (this run is " + std::string(phase_name(s.phase)) + ")",
                     "drop --precision, or add --phase training");
  if (s.precision == Precision::mixed && s.dtype != DType::fp16 && s.dtype != DType::bf16)
    throw InputError({}, "--precision mixed needs a half-precision --dtype (got " + std::string(dtype_name(s.dtype)) + ")",
                     "use --dtype fp16 or --dtype bf16 with --precision mixed");
  auto launches = parse_launch_overhead(v.overhead);
  if (!launches) throw InputError({}, "--overhead: unknown choice '" + v.overhead + "'", "use kernel, graph or none");
  s.overhead = *launches;
  if (!v.weight_dtype.empty()) {
    auto w = parse_weight_format(v.weight_dtype);
    if (!w) throw InputError({}, "--weight-dtype: unknown weight type '" + v.weight_dtype + "'", "use int8, int4 or fp8");
    if (s.phase == Phase::training)
      throw InputError({}, "--weight-dtype quantizes weights for inference; training keeps them in --dtype",
                       "use --phase inference, prefill or decode");
    s.weight_format = *w;
    const int64_t group = v.weight_group.value_or(kDefaultWeightGroup);
    if (!is_weight_group(group)) throw InputError({}, "--weight-group must be 32, 64 or 128 (got " + std::to_string(group) + ")");
    s.weight_group = group;
    s.quantize_lm_head = v.quantize_lm_head;
  } else if (v.quantize_lm_head || v.weight_group) {
    throw InputError({}, std::string(v.quantize_lm_head ? "--quantize-lm-head" : "--weight-group") +
                             " applies with --weight-dtype", "e.g. --weight-dtype int4 --weight-group 64");
  }
  if (v.all_logits) {
    if (s.phase != Phase::prefill) throw InputError({}, "--all-logits applies to --phase prefill", "add --phase prefill");
    s.all_logits = true;
  }
  if (v.data_on == "device") s.data_on = DataPlacement::device;
  else if (v.data_on == "host") s.data_on = DataPlacement::host;
  else throw InputError({}, "--data-on: unknown placement '" + v.data_on + "'", "use device or host");
  return s;
}

OutputFormat to_output_format(const OutputOptionValues& v, const std::vector<OutputFormat>& formats) {
  return parse_output_format(v.format, formats);
}

namespace {
constexpr std::string_view kModelPrefix = "model.";
constexpr std::string_view kOnnxPrefix = "onnx.";  // an ONNX import setting, kept with its prefix
bool is_model_set(const std::string& set) { return set.starts_with(kModelPrefix) || set.starts_with(kOnnxPrefix); }
}  // namespace

std::vector<ParamOverride> model_overrides(const HardwareOptionValues& v) {
  std::vector<ParamOverride> out;
  for (const std::string& set : v.sets) {
    if (!is_model_set(set)) continue;
    const bool onnx = set.starts_with(kOnnxPrefix);
    const size_t name_at = onnx ? 0 : kModelPrefix.size();
    size_t eq = set.find('=');
    if (eq == std::string::npos || eq == kModelPrefix.size() || (onnx && eq == kOnnxPrefix.size()))
      throw InputError({}, "--set " + set + ": expected model.NAME=VALUE or onnx.NAME=VALUE", "e.g. --set model.seq=2048");
    out.push_back({set.substr(name_at, eq - name_at), set.substr(eq + 1), {}});
  }
  return out;
}

OnnxOptions to_onnx_options(const RunOptionValues& v) {
  OnnxOptions o;
  o.allow_unknown = v.allow_unknown;
  for (const std::string& in : v.inputs) {
    size_t eq = in.find('=');
    Shape shape;
    bool ok = eq != std::string::npos && eq > 0 && eq + 1 < in.size();
    for (size_t pos = eq + 1; ok && pos <= in.size();) {
      size_t x = in.find('x', pos);
      std::string part = in.substr(pos, x == std::string::npos ? std::string::npos : x - pos);
      ok = !part.empty() && part.size() < 18 && part.find_first_not_of("0123456789") == std::string::npos &&
           std::stoll(part) > 0;
      if (ok) shape.push_back(std::stoll(part));
      if (x == std::string::npos) break;
      pos = x + 1;
    }
    if (!ok) throw InputError({}, "--input: expected NAME=DIMxDIMx... of positive sizes (got '" + in + "')",
                              "e.g. --input input=1x3x224x224");
    o.inputs.emplace_back(in.substr(0, eq), shape);
  }
  return o;
}

namespace {
// A model stored in another type (an fp16 ONNX export) runs in it unless --dtype says;
// with --allow-unknown, stderr says what the totals leave out, so it is never silent.
void adopt_cli_model(const Model& m, const RunOptionValues& run, RunSettings& settings) {
  if (run.dtype.empty() && m.dtype) settings.dtype = *m.dtype;
  std::string unmodelled;
  size_t count = 0;
  for (const Layer& l : m.layers)
    if (l.op == "unmodelled" && ++count <= 8) unmodelled += (unmodelled.empty() ? "" : ", ") + l.name;
  if (count)
    std::cerr << "note: " << count << " unmodelled layer(s) counted at zero cost: " << unmodelled
              << (count > 8 ? ", ..." : "") << '\n';
}
}  // namespace

Model load_cli_model(const std::string& arg, const RunOptionValues& run, const HardwareOptionValues& hw,
                     RunSettings& settings) {
  Model m = load_model(arg, model_overrides(hw), to_onnx_options(run), settings.tokens_per_step());
  adopt_cli_model(m, run, settings);
  return m;
}

std::shared_ptr<const Model> load_cli_model(const std::string& arg, const RunOptionValues& run,
                                            const HardwareOptionValues& hw, RunSettings& settings,
                                            const Loaders& loaders) {
  std::shared_ptr<const Model> m = loaders.model(arg, model_overrides(hw), to_onnx_options(run), settings.tokens_per_step());
  adopt_cli_model(*m, run, settings);
  return m;
}

std::vector<SelectedHardware> to_hardware_list(const HardwareOptionValues& v, const Loaders& loaders) {
  std::vector<std::string> hw_sets;
  for (const std::string& set : v.sets)
    if (!is_model_set(set)) hw_sets.push_back(set);
  if (v.hw.empty()) {
    if (!v.hw_model.empty()) throw InputError({}, "--hw-model needs --hw", "ridge list hardware");
    if (!hw_sets.empty()) throw InputError({}, "--set overrides a hardware descriptor and needs --hw", "ridge list hardware");
  }
  if (v.efficiency != "calibrated" && v.efficiency != "none")
    throw InputError({}, "--efficiency: unknown value '" + v.efficiency + "'", "use calibrated or none");
  std::vector<SelectedHardware> out;
  for (const std::string& name : v.hw) {
    SelectedHardware s;
    s.spec = loaders.hardware(name, hw_sets);  // model.NAME sets go to the model, not here
    if (v.efficiency == "none") s.spec.drop_to_bound();
    s.model = &select_hardware_model(s.spec, v.hw_model);
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<SelectedHardware> to_hardware(const HardwareOptionValues& v, const Loaders& loaders) {
  if (v.hw.size() > 1)
    throw InputError({}, "--hw is given " + std::to_string(v.hw.size()) + " times; this command takes one",
                     "to compare hardware use ridge sweep, or overlay them with ridge plot roofline");
  std::vector<SelectedHardware> list = to_hardware_list(v, loaders);
  if (list.empty()) return std::nullopt;
  return std::move(list.front());
}

void print_command_help(std::ostream& out, const CommandHelp& help, const po::options_description& visible) {
  out << "usage: " << help.usage << "\n\n" << help.description << "\n\n" << visible << '\n';
  if (!help.examples.empty()) {
    out << "examples:\n";
    for (const std::string& e : help.examples) out << "  " << e << '\n';
  }
}

namespace {
// An option given an empty text (`--dtype ""`, `--output ""`) would read as not given:
// refused instead. Positionals ("" as the model) get their command's own "which ...?".
void reject_empty_values(const po::variables_map& vm, const po::options_description& options,
                         const po::positional_options_description& positional) {
  for (const auto& [name, value] : vm) {
    const po::option_description* option = options.find_nothrow(name, false);
    if (value.defaulted() || !option || option->semantic()->max_tokens() == 0) continue;  // --help takes no value
    bool is_positional = false;
    const unsigned positions = std::min(positional.max_total_count(), 64u);  // unlimited: the last name repeats
    for (unsigned i = 0; i < positions && !is_positional; ++i)
      is_positional = positional.name_for_position(i) == name;
    if (is_positional) continue;
    const auto* text = boost::any_cast<std::string>(&value.value());
    const auto* texts = boost::any_cast<std::vector<std::string>>(&value.value());
    bool empty = text ? text->empty() : false;
    if (texts)
      for (const std::string& t : *texts) empty |= t.empty();
    if (empty) throw InputError({}, "--" + name + " is given an empty value", "give it a value, or leave the option out");
  }
}
}  // namespace

namespace {
// The first "%name%" in `arg` (lower-case letters and '_' between two '%'), the form of
// Boost.Program_options' message placeholders; "" when there is none.
std::string boost_placeholder_in(const std::string& arg) {
  for (size_t open = arg.find('%'); open != std::string::npos; open = arg.find('%', open + 1)) {
    size_t end = open + 1;
    while (end < arg.size() && (std::islower(static_cast<unsigned char>(arg[end])) || arg[end] == '_')) ++end;
    if (end > open + 1 && end < arg.size() && arg[end] == '%') return arg.substr(open, end - open + 1);
  }
  return "";
}
}  // namespace

bool parse_command_line(const std::vector<std::string>& args, const po::options_description& visible,
                        const po::positional_options_description& positional, po::variables_map& vm,
                        const CommandHelp& help) {
  po::options_description all;
  all.add(visible);
  // "ridge analyze" of "ridge analyze MODEL [options]": where --help is.
  std::string command = help.usage.substr(0, help.usage.find(' ', help.usage.find(' ') + 1));
  // Boost.Program_options writes its messages by replacing placeholders (%option%,
  // %original_token%, ...) until none is left, so an argument holding one never ends
  // (found by fuzz_cli: `ridge analyze gpt2 --se%original_token%` hung).
  for (const std::string& a : args)
    if (std::string p = boost_placeholder_in(a); !p.empty())
      throw InputError({}, "argument '" + a + "' holds '" + p + "', which no ridge option takes", "see: " + command + " --help");
  try {
    // No guessing of abbreviated options: `--mode training` would be taken as `--model`.
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(args).options(all).positional(positional).style(style).run(), vm);
    reject_empty_values(vm, all, positional);
    if (vm.count("help")) {
      print_command_help(std::cout, help, visible);
      return false;
    }
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    // "--btach": suggest the command's own long options by edit distance.
    std::vector<std::string> names;
    for (const auto& o : all.options()) names.push_back("--" + o->long_name());
    std::string hint = suggestion_hint(e.get_option_name(), names);
    if (hint.rfind("did you mean", 0) != 0) hint = "see: " + command + " --help";
    throw InputError({}, e.what(), hint);
  } catch (const po::error& e) {
    throw InputError({}, e.what(), "see: " + command + " --help");
  }
  return true;
}

}  // namespace ridge::cli
