// Hardware descriptor reading and overrides (see descriptor_reader.hpp).
#include "hw/descriptor_reader.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/base/units.hpp"
#include "sim/base/close_names.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/base/format_units.hpp"
#include "sim/base/input_file.hpp"

namespace ridge {

namespace {

constexpr size_t kMaxMemoryLevels = 16;  // every level is timed for every layer
constexpr const char* kMemoryKeys[] = {"name", "capacity", "bandwidth", "channels", "transfer_rate", "bus_bytes"};
constexpr const char* kDerivedComputeKeys[] = {"cores", "clock", "flops_per_cycle"};
constexpr const char* kRootKeys[] = {"name", "kind", "model", "source", "sockets", "compute", "memory",
                                     "link", "overhead", "efficiency", "calibration", "library", "conv_algorithms", "power", "price"};

// A misspelt key is reported as such (with a suggestion) before any "missing key"
// error its absence would otherwise cause.
template <size_t N>
void reject_unknown_first(TomlFields& f, const char* const (&keys)[N]) {
  for (const char* k : keys) f.accept(k);
  f.reject_unknown_keys();
}

std::vector<std::string> dtype_list() {
  std::vector<std::string> out;
  for (DType t : kAllDTypes) out.emplace_back(dtype_name(t));
  return out;
}

// A [compute] or flops_per_cycle key that must be a dtype; `extra` are the other keys allowed there.
DType dtype_key(const std::string& key, const toml::node& value, const TomlFields& f,
                const std::vector<std::string>& extra) {
  if (auto t = parse_dtype(key)) return *t;
  std::vector<std::string> known = dtype_list();
  known.insert(known.end(), extra.begin(), extra.end());
  auto close = close_names(key, known);
  std::string hint = close.empty() ? "" : "did you mean '" + close.front() + "'? ";
  hint += "ridge dtypes: " + dtype_names();
  if (!extra.empty()) {
    hint += "; also allowed here:";
    for (const auto& e : extra) hint += " " + e;
  }
  throw InputError(location_of(value, f.file()), f.what() + ": unknown dtype '" + key + "'", hint);
}

// A value's text as written ("2.5 GHz"), for derivation lines.
std::string text_of(const toml::table& t, std::string_view key) {
  const toml::node* n = t.get(key);
  return n && n->is_string() ? n->as_string()->get() : std::string();
}

std::string sockets_part(int64_t sockets) {
  return sockets > 1 ? std::to_string(sockets) + " sockets x " : std::string();
}

void read_compute(const toml::table& t, const std::string& file, int64_t sockets, HardwareSpec& s) {
  TomlFields f(t, file, "compute");
  bool derived = false;
  for (const char* k : kDerivedComputeKeys) derived = derived || f.has(k);
  std::vector<std::string> extra(std::begin(kDerivedComputeKeys), std::end(kDerivedComputeKeys));
  for (const auto& [k, v] : t) {
    std::string key(k.str());
    if (std::find(extra.begin(), extra.end(), key) != extra.end()) continue;
    DType dt = dtype_key(key, v, f, extra);
    s.peak_flops[dt] = read_quantity(f, key, dt == DType::int8 ? Quantity::ops : Quantity::flops);
  }
  if (derived) {
    int64_t cores = f.positive("cores");
    double clock = read_quantity(f, "clock", Quantity::frequency);
    const toml::table* per_cycle = f.optional_table("flops_per_cycle");
    if (!per_cycle)
      throw InputError(f.where(), "compute: missing required key 'flops_per_cycle'",
                       "a peak derived from cores and clock needs FLOPs per cycle per dtype, e.g. "
                       "flops_per_cycle = { fp64 = 32, fp32 = 64 }");
    TomlFields g(*per_cycle, file, "compute.flops_per_cycle");
    if (per_cycle->empty()) f.fail("flops_per_cycle", "names no dtype", "e.g. flops_per_cycle = { fp64 = 32, fp32 = 64 }");
    for (const auto& [k, v] : *per_cycle) {
      std::string key(k.str());
      DType dt = dtype_key(key, v, g, {});
      double per = g.number(key);
      if (!(per > 0)) g.fail(key, "must be greater than zero (got " + format_raw(per) + ")");
      if (s.peak_flops.count(dt))
        g.fail(key, "is given both as a peak (compute." + key + ") and by flops_per_cycle", "keep one of the two");
      double peak = static_cast<double>(sockets) * static_cast<double>(cores) * clock * per;
      if (!std::isfinite(peak)) g.fail(key, "gives a peak too large to compute with (got " + format_raw(per) + ")");
      s.peak_flops[dt] = peak;
      std::string unit = dt == DType::int8 ? "OP" : "FLOP";
      s.derivations.push_back(key + " peak = " + sockets_part(sockets) + std::to_string(cores) + " cores x " +
                              text_of(t, "clock") + " x " + format_raw(per) + " " + unit + "/cycle = " +
                              format_rate(peak, unit + "/s"));
    }
  }
  f.reject_unknown_keys();
  if (s.peak_flops.empty())
    throw InputError(f.where(), "compute: no peak given",
                     "give a peak per dtype (fp32 = \"19.5 TFLOPS\") or cores, clock and flops_per_cycle");
}

MemoryLevel read_memory_level(const toml::table& t, const std::string& file, int64_t sockets,
                              std::set<std::string>& seen, HardwareSpec& s) {
  TomlFields named(t, file, "memory level");
  std::string name = named.name("name");
  if (name.empty()) named.fail("name", "must not be empty");
  if (name.find('.') != std::string::npos)
    named.fail("name", "must not contain '.' (got '" + name + "')", "'.' separates the parts of --set key paths");
  if (!seen.insert(name).second) named.fail("name", "'" + name + "' names two memory levels", "names must be unique");
  TomlFields f(t, file, "memory '" + name + "'");
  reject_unknown_first(f, kMemoryKeys);
  MemoryLevel level{name, read_quantity(f, "capacity", Quantity::size), 0};
  bool derived = f.has("channels") || f.has("transfer_rate") || f.has("bus_bytes");
  if (derived && f.has("bandwidth"))
    f.fail("bandwidth", "is given together with channels / transfer_rate", "give the bandwidth or how to derive it, not both");
  if (derived) {
    int64_t channels = f.positive("channels");
    double rate = read_quantity(f, "transfer_rate", Quantity::transfer_rate);
    int64_t bus = f.positive("bus_bytes", 8);
    level.bandwidth_Bps = static_cast<double>(sockets) * static_cast<double>(channels) * rate * static_cast<double>(bus);
    if (!std::isfinite(level.bandwidth_Bps)) f.fail("channels", "gives a bandwidth too large to compute with");
    s.derivations.push_back(name + " bandwidth = " + sockets_part(sockets) + std::to_string(channels) +
                            " channels x " + text_of(t, "transfer_rate") + " x " + std::to_string(bus) +
                            " B = " + format_rate(level.bandwidth_Bps, "B/s"));
  } else {
    level.bandwidth_Bps = read_quantity(f, "bandwidth", Quantity::bandwidth);
  }
  return level;
}

double read_fraction(TomlFields& f, std::string_view key) {
  std::optional<double> v = f.optional_number(key);
  if (!v) return 1.0;
  if (!(*v > 0 && *v <= 1)) f.fail(key, "must be a fraction in (0, 1] (got " + format_raw(*v) + ")", "e.g. 0.8 for 80% of peak");
  return *v;
}

}  // namespace

// [efficiency] compute = { fp16 = 0.8, ... }: a fraction per dtype.
std::map<DType, double> read_dtype_fractions(const toml::table& table, const std::string& file) {
  TomlFields f(table, file, "efficiency.compute");
  std::map<DType, double> out;
  for (const auto& [key, value] : table) {
    const std::string name(key.str());
    out[dtype_key(name, value, f, {})] = read_fraction(f, name);
  }
  return out;
}

namespace {

// [efficiency] compute_units = 108 and gemm_tile = [128, 128] (rows, columns): GEMM wave
// quantisation (hw/gemm_waves.hpp); both or neither.
void read_gemm_waves(TomlFields& e, const toml::table& table, HardwareSpec& s) {
  const bool units = table.contains("compute_units"), tile = table.contains("gemm_tile");
  if (units != tile)
    e.fail(units ? "compute_units" : "gemm_tile", "compute_units and gemm_tile go together",
           "give both (e.g. compute_units = 108 and gemm_tile = [128, 128]) or neither");
  if (!units) return;
  constexpr int64_t most = 1 << 20;
  const int64_t n = e.positive("compute_units");
  const auto [rows, cols] = e.pair("gemm_tile", 0);
  if (n > most) e.fail("compute_units", "must be at most " + std::to_string(most));
  if (rows > most || cols > most) e.fail("gemm_tile", "each side must be at most " + std::to_string(most));
  s.compute_units = static_cast<int>(n);
  s.gemm_tile_rows = static_cast<int>(rows);
  s.gemm_tile_cols = static_cast<int>(cols);
}

}  // namespace

HardwareSpec build_hardware_spec(const toml::table& root, const std::string& file, const std::string& id) {
  HardwareSpec s;
  s.id = id;
  s.file = file;
  TomlFields r(root, file, "descriptor");
  reject_unknown_first(r, kRootKeys);
  s.name = r.name("name");
  if (s.name.empty()) r.fail("name", "must not be empty");
  s.kind = r.string("kind");
  if (s.kind != "gpu" && s.kind != "cpu") r.fail("kind", "must be \"gpu\" or \"cpu\" (got \"" + s.kind + "\")");
  s.default_model = r.optional_string("model").value_or("roofline");
  s.default_model_where = r.where("model");
  if (s.default_model.empty()) r.fail("model", "must not be empty", "a hardware model name, e.g. \"roofline\"");
  s.source = r.string("source");
  int64_t sockets = r.positive("sockets", 1);

  const toml::table* compute = r.optional_table("compute");
  if (!compute) throw InputError(r.where(), "descriptor: missing required table [compute]", "e.g. [compute] fp32 = \"19.5 TFLOPS\"");
  read_compute(*compute, file, sockets, s);

  const toml::node* memory = r.node("memory");
  if (!memory) throw InputError(r.where(), "descriptor: missing required [[memory]] levels", "at least one, the device DRAM first");
  const toml::array* levels = memory->as_array();
  if (!levels || !(levels->empty() || levels->is_array_of_tables()))  // (an empty array is no array of tables)
    r.fail("memory", "must be an array of tables", "write each level as [[memory]] (two brackets), far to near");
  if (levels->empty()) r.fail("memory", "has no level", "at least one, the device DRAM first");
  if (levels->size() > kMaxMemoryLevels)
    r.fail("memory", "has " + std::to_string(levels->size()) + " levels, more than the limit of " +
                         std::to_string(kMaxMemoryLevels),
           "a memory hierarchy has a handful of levels (DRAM, L2, shared memory / L1, registers)");
  std::set<std::string> seen;
  for (const toml::node& level : *levels) s.memory.push_back(read_memory_level(*level.as_table(), file, sockets, seen, s));

  if (sockets > 1 && s.derivations.empty())
    r.fail("sockets", "only multiplies derived figures (cores, channels), and this descriptor derives none",
           "give whole-machine peaks and bandwidths without 'sockets', or derive them per socket");

  if (const toml::table* link = r.optional_table("link")) {
    TomlFields l(*link, file, "link");
    reject_unknown_first(l, {"name", "bandwidth"});
    s.link = HostLink{l.name("name"), read_quantity(l, "bandwidth", Quantity::bandwidth)};
  }
  if (const toml::table* overhead = r.optional_table("overhead")) {
    TomlFields o(*overhead, file, "overhead");
    reject_unknown_first(o, {"kernel_launch"});
    s.kernel_launch_s = read_optional_quantity(o, "kernel_launch", Quantity::time, true).value_or(0.0);
  }
  if (const toml::table* eff = r.optional_table("efficiency")) {
    TomlFields e(*eff, file, "efficiency");
    reject_unknown_first(e, {"compute", "memory", "dequant_ops", "request_overhead", "compute_units", "gemm_tile", "source"});
    if ((*eff)["compute"].is_table())
      s.compute_efficiency_by_dtype = read_dtype_fractions(*e.optional_table("compute"), file);
    else
      s.compute_efficiency = read_fraction(e, "compute");
    s.dequant_ops_per_weight = e.optional_number("dequant_ops").value_or(0.0);
    if (s.dequant_ops_per_weight < 0) e.fail("dequant_ops", "must be >= 0 (operations per weight)");
    s.request_overhead_s = read_optional_quantity(e, "request_overhead", Quantity::time, true).value_or(0.0);
    read_gemm_waves(e, *eff, s);
    s.memory_efficiency = read_fraction(e, "memory");
    s.efficiency_source = e.string("source");
    if (s.efficiency_source.empty()) e.fail("source", "must say where the factors come from");
  }
  if (const toml::table* power = r.optional_table("power")) s.power = read_power(*power, file, s.kind);
  if (const toml::table* price = r.optional_table("price")) s.price = read_price(*price, file);
  if (const toml::table* library = r.optional_table("library")) s.library = read_kernel_library(*library, file);
  if (const toml::table* algorithms = r.optional_table("conv_algorithms")) {
    ConvAlgorithmRule rule = read_conv_algorithms(*algorithms, file);
    (rule.bound_only_rule ? s.bound_conv_algorithms : s.conv_algorithms) = std::move(rule);
  }
  if (const toml::table* cal = r.optional_table("calibration")) {
    std::vector<std::string> levels;
    for (const MemoryLevel& m : s.memory) levels.push_back(m.name);
    s.calibration = read_calibration(*cal, file, levels);
    for (const auto& [dtype, flops] : s.calibration->peaks)
      if (!s.peak(dtype))
        throw InputError(location_of(*cal, file), "[calibration.peaks] fits a " + std::string(dtype_name(dtype)) +
                                                   " peak, but [compute] has none", "give the dtype a peak in [compute]");
    s.apply_calibrated_roofs();
  }
  return s;
}

// ---------------------------------------------------------------------------------
// Overrides

HardwareOverride parse_override(const std::string& text) {
  SourceLoc where{"--set " + text};
  size_t eq = text.find('=');
  if (eq == std::string::npos)
    throw InputError(where, "an override must be KEY=VALUE (got '" + text + "')", "e.g. --set memory.HBM2.bandwidth=\"2 TB/s\"");
  auto trim = [](std::string s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  HardwareOverride o{trim(text.substr(0, eq)), trim(text.substr(eq + 1)), where};
  if (o.key.empty()) throw InputError(where, "an override has no key before '='", "e.g. --set compute.fp32=\"120 TFLOPS\"");
  return o;
}

namespace {

std::vector<std::string> memory_level_names(const toml::table& root) {
  std::vector<std::string> names;
  if (const toml::array* levels = root["memory"].as_array())
    for (const toml::node& level : *levels)
      if (const toml::table* t = level.as_table())
        if (auto name = (*t)["name"].value<std::string>()) names.push_back(*name);
  return names;
}

std::vector<std::string> key_paths_of(const toml::table& root) {
  std::vector<std::string> paths = {"name", "kind", "model", "source", "sockets"};
  for (const auto& d : dtype_list()) paths.push_back("compute." + d);
  for (const char* k : kDerivedComputeKeys)
    if (std::string(k) != "flops_per_cycle") paths.push_back(std::string("compute.") + k);
  for (const auto& d : dtype_list()) paths.push_back("compute.flops_per_cycle." + d);
  for (const auto& level : memory_level_names(root))
    for (const char* k : kMemoryKeys) paths.push_back("memory." + level + "." + k);
  for (const char* k : {"link.name", "link.bandwidth", "overhead.kernel_launch", "efficiency.compute",
                        "efficiency.memory", "efficiency.dequant_ops", "efficiency.request_overhead", "efficiency.compute_units",
                        "efficiency.gemm_tile", "efficiency.source", "power.board", "power.idle", "power.cpu",
                        "power.dram", "power.process_nm", "price.launch_usd", "price.cloud_usd_per_hour",
                        "price.cloud_offer"})
    paths.emplace_back(k);
  // The fitted roofs the file's [calibration] has: a what-if may set them themselves.
  if (const toml::table* cal = root["calibration"].as_table())
    for (const char* roofs : {"peaks", "bandwidths"})
      if (const toml::table* t = (*cal)[roofs].as_table())
        for (const auto& [key, value] : *t) paths.push_back("calibration." + std::string(roofs) + "." + std::string(key.str()));
  return paths;
}

std::vector<std::string> split_path(const std::string& key) {
  std::vector<std::string> parts;
  std::stringstream in(key);
  for (std::string part; std::getline(in, part, '.');) parts.push_back(part);
  if (!key.empty() && key.back() == '.') parts.emplace_back();
  return parts;
}

// The table an override's leaf key lives in, created where the file has none.
toml::table& table_for(toml::table& root, const std::vector<std::string>& parts, const HardwareOverride& o) {
  auto child = [&](toml::table& parent, const std::string& key) -> toml::table& {
    toml::node* n = parent.get(key);
    if (!n) return *parent.insert(key, toml::table{}).first->second.as_table();
    if (!n->is_table())
      throw InputError(o.where, "cannot apply override '" + o.key + "': '" + key + "' is not a table in the descriptor");
    return *n->as_table();
  };
  if (parts.size() == 1) return root;
  if (parts[0] == "memory") {
    for (toml::node& level : *root["memory"].as_array())
      if (toml::table* t = level.as_table(); t && (*t)["name"].value<std::string>() == parts[1]) return *t;
  }
  toml::table* t = &child(root, parts[0]);
  for (size_t i = 1; i + 1 < parts.size(); ++i) t = &child(*t, parts[i]);
  return *t;
}

// The override's value as a TOML node whose source path is `marker`: TOML syntax
// where it parses (0.8, 16, "2 TB/s"), else the text as a string (2 TB/s).
toml::table value_table(const HardwareOverride& o, const std::string& marker) {
  if (o.value.find_first_of("\r\n") != std::string::npos)
    throw InputError(o.where, "an override value must be one line");
  try {
    toml::table t = toml::parse("v = " + o.value, marker);
    if (t.size() == 1 && t.contains("v")) return t;
  } catch (const toml::parse_error&) {
  }
  std::string quoted = "\"";
  for (char c : o.value) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  try {
    return toml::parse("v = " + quoted + "\"", marker);
  } catch (const toml::parse_error& e) {
    throw InputError(o.where, "override value is not valid text: " + std::string(e.description()));
  }
}

void apply_override(toml::table& root, const HardwareOverride& o, const std::string& marker) {
  std::vector<std::string> paths = key_paths_of(root);
  if (std::find(paths.begin(), paths.end(), o.key) == paths.end()) {
    std::vector<std::string> parts = split_path(o.key);
    if (parts.size() == 3 && parts[0] == "memory") {
      auto levels = memory_level_names(root);
      if (std::find(levels.begin(), levels.end(), parts[1]) == levels.end())
        throw InputError(o.where, "no memory level '" + parts[1] + "' to override (key '" + o.key + "')",
                         suggestion_hint(parts[1], levels) + " (memory levels are addressed by their name)");
    }
    throw InputError(o.where, "unknown hardware key '" + o.key + "'", suggestion_hint(o.key, paths));
  }
  std::vector<std::string> parts = split_path(o.key);
  toml::table value = value_table(o, marker);
  toml::table& target = table_for(root, parts, o);
  value.get("v")->visit([&](auto& n) { target.insert_or_assign(parts.back(), std::move(n)); });
}

// Whether applying `o` makes a table the descriptor does not have ([link] for link.bandwidth).
bool creates_table(const toml::table& root, const HardwareOverride& o) {
  std::vector<std::string> parts = split_path(o.key);
  const toml::table* t = &root;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[0] == "memory") return false;  // levels are never created: an unknown level is an error
    const toml::node* n = t->get(parts[i]);
    if (!n || !n->is_table()) return true;
    t = n->as_table();
  }
  return false;
}

std::string marker_for(size_t i) { return "<override " + std::to_string(i) + ">"; }

// A roof fitted by `ridge calibrate --fit-peaks` is a measured ratio to the descriptor's
// figure (a layer beat the datasheet by that much), so an override of the figure itself
// (`--set compute.fp32=...`, a level's bandwidth, or what derives them) scales the fitted
// roof by the same factor: a what-if of twice the peak gives twice the calibrated rate,
// and an override that changes nothing changes nothing. A fitted roof the override sets
// itself (`--set calibration.peaks.fp32=...`) is taken as written.
template <class Key>
void scale_fitted(double& roof, double fitted, double figure, const std::map<Key, double>& file_fitted,
                  const std::map<Key, double>& file_replaced, const Key& key) {
  auto fit = file_fitted.find(key), replaced = file_replaced.find(key);
  if (fit == file_fitted.end() || fit->second != fitted || replaced == file_replaced.end() || replaced->second == figure) return;
  roof = fitted * figure / replaced->second;
}

void scale_fitted_roofs(HardwareSpec& s, const HardwareSpec& file_spec) {
  if (!s.calibration || !file_spec.calibration) return;
  const Calibration& c = *s.calibration;
  const Calibration& f = *file_spec.calibration;
  for (const auto& [t, fitted] : c.peaks)
    scale_fitted(s.peak_flops[t], fitted, c.replaced_peaks.at(t), f.peaks, f.replaced_peaks, t);
  for (MemoryLevel& m : s.memory) {
    auto it = c.bandwidths.find(m.name);
    if (it != c.bandwidths.end())
      scale_fitted(m.bandwidth_Bps, it->second, c.replaced_bandwidths.at(m.name), f.bandwidths, f.replaced_bandwidths,
                   m.name);
  }
}

}  // namespace

HardwareDescriptor HardwareDescriptor::from_text(std::string text, std::string file, std::string id) {
  toml::table root = parse_toml_text(text, file);
  return HardwareDescriptor(std::move(text), std::move(file), std::move(id), std::move(root));
}

HardwareDescriptor HardwareDescriptor::read_file(const std::string& path, std::string id) {
  std::optional<std::string> text = read_input_file(path);
  if (!text) throw InputError({path}, "cannot read hardware descriptor '" + path + "'");
  return from_text(std::move(*text), path, std::move(id));
}

std::vector<std::string> HardwareDescriptor::key_paths() const { return key_paths_of(root_); }

HardwareSpec HardwareDescriptor::spec(const std::vector<HardwareOverride>& overrides) const {
  if (overrides.empty()) return build_hardware_spec(root_, file_, id_);
  toml::table root = parse_toml_text(text_, file_);  // a fresh tree: copies would drop positions
  for (size_t i = 0; i < overrides.size(); ++i) apply_override(root, overrides[i], marker_for(i));
  try {
    HardwareSpec s = build_hardware_spec(root, file_, id_);
    if (s.calibration && (!s.calibration->peaks.empty() || !s.calibration->bandwidths.empty()))
      scale_fitted_roofs(s, build_hardware_spec(root_, file_, id_));
    for (size_t i = 0; i < overrides.size(); ++i)
      if (s.default_model_where.file == marker_for(i)) s.default_model_where = overrides[i].where;
    return s;
  } catch (const InputError& e) {
    // An error in an overridden value is reported where the override was written.
    for (size_t i = 0; i < overrides.size(); ++i)
      if (e.where().file == marker_for(i))
        throw InputError(overrides[i].where, e.what(), e.hint());
    // A table the file does not have (no line) was made by an override: blame that override.
    if (e.where().file == file_ && e.where().line == 0)
      for (const HardwareOverride& o : overrides)
        if (creates_table(root_, o)) throw InputError(o.where, e.what(), e.hint());
    throw;
  }
}

}  // namespace ridge
