// System descriptor reading (see system_reader.hpp).
#include "sim/parallel/system_reader.hpp"

#include <filesystem>

#include "hw/hardware_catalog.hpp"
#include "hw/descriptor_reader.hpp"
#include "sim/base/close_names.hpp"
#include "sim/base/data_paths.hpp"
#include "sim/base/format_units.hpp"
#include "sim/base/input_file.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/base/units.hpp"

namespace ridge {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kMaxDevices = int64_t{1} << 24;  // 16.7 M devices: more than any machine built

double fraction(TomlFields& f, std::string_view key) {
  double v = f.number(key);
  if (!(v > 0 && v <= 1)) f.fail(key, "must be a fraction in (0, 1] (got " + format_raw(v) + ")", "e.g. 0.8 for 80% of peak");
  return v;
}

template <size_t N>
void known_keys(TomlFields& f, const char* const (&keys)[N]) {
  for (const char* k : keys) f.accept(k);
  f.reject_unknown_keys();
}

const toml::table& required_table(TomlFields& r, std::string_view key, const char* example) {
  const toml::table* t = r.optional_table(key);
  if (!t) throw InputError(r.where(), "system: missing required table [" + std::string(key) + "]", example);
  return *t;
}

// The optional NCCL protocol model of a level: nccl_transport and its call_overhead.
void read_nccl(TomlFields& t, NetworkLevel& level) {
  if (t.has("nccl_transport")) {
    std::string name = t.string("nccl_transport");
    level.nccl = nccl_transport_named(name);
    if (level.nccl == NcclTransport::none)
      t.fail("nccl_transport", "must be nvlink, pcie or network (got \"" + name + "\")",
             "the link NCCL's protocol model takes its step latencies from");
  }
  if (t.has("call_overhead")) {
    if (level.nccl == NcclTransport::none)
      t.fail("call_overhead", "needs nccl_transport", "add nccl_transport = \"nvlink\" (or pcie, network)");
    level.call_overhead_s = read_quantity(t, "call_overhead", Quantity::time);
  }
}

}  // namespace

SystemSpec system_from_text(const std::string& text, const std::string& file, const std::string& id) {
  toml::table root = parse_toml_text(text, file);
  SystemSpec s;
  s.id = id;
  s.file = file;
  TomlFields r(root, file, "system");
  known_keys(r, {"name", "source", "device", "domains", "scale_up", "scale_out", "efficiency"});
  s.name = r.name("name");
  if (s.name.empty()) r.fail("name", "must not be empty");
  s.source = r.string("source");
  if (s.source.empty()) r.fail("source", "must say where the numbers come from");
  s.device_id = r.string("device");
  if (s.device_id.empty() || names_a_file(s.device_id))
    r.fail("device", "must name a shipped hardware descriptor (got \"" + s.device_id + "\")", "ridge list hardware");
  std::vector<std::string> devices = shipped_hardware_names();
  if (std::find(devices.begin(), devices.end(), s.device_id) == devices.end())
    r.fail("device", "unknown hardware '" + s.device_id + "'", suggestion_hint(s.device_id, devices) + " (ridge list hardware)");
  s.domains = r.positive("domains");

  TomlFields u(required_table(r, "scale_up", "[scale_up] devices = 8, bandwidth = \"300 GB/s\", ..."), file, "scale_up");
  known_keys(u, {"name", "devices", "bandwidth", "latency", "efficiency", "in_switch_reduction", "in_switch_efficiency",
                 "nccl_transport", "call_overhead"});
  s.scale_up.name = u.name("name");
  s.devices_per_domain = u.positive("devices");
  s.scale_up.bandwidth_Bps = read_quantity(u, "bandwidth", Quantity::bandwidth);
  s.scale_up.latency_s = read_quantity(u, "latency", Quantity::time);
  s.scale_up.efficiency = fraction(u, "efficiency");
  read_nccl(u, s.scale_up);
  s.in_switch_reduction = u.boolean("in_switch_reduction", false);
  s.in_switch_efficiency = u.has("in_switch_efficiency") ? fraction(u, "in_switch_efficiency") : s.scale_up.efficiency;

  TomlFields o(required_table(r, "scale_out", "[scale_out] nics = 8, bandwidth = \"25 GB/s\", ..."), file, "scale_out");
  known_keys(o, {"name", "nics", "bandwidth", "latency", "efficiency", "oversubscription", "nccl_transport", "call_overhead",
                 "nccl_host", "nccl_gpu"});
  s.scale_out.name = o.name("name");
  s.nics_per_domain = o.positive("nics");
  s.nic_Bps = read_quantity(o, "bandwidth", Quantity::bandwidth);
  s.scale_out.latency_s = read_quantity(o, "latency", Quantity::time);
  s.scale_out.efficiency = fraction(o, "efficiency");
  read_nccl(o, s.scale_out);
  if (o.has("nccl_host") && !nccl_host_named(o.string("nccl_host"), s.nccl_host))
    o.fail("nccl_host", "must be amd or intel (got \"" + o.string("nccl_host") + "\")",
           "the nodes' CPU vendor; NCCL treats every CPU but AMD's as intel");
  if (o.has("nccl_gpu") && !nccl_gpu_named(o.string("nccl_gpu"), s.nccl_gpu))
    o.fail("nccl_gpu", "must be volta, ampere or hopper (got \"" + o.string("nccl_gpu") + "\")",
           "the GPU generation whose per-channel caps NCCL's tuner applies; leave it out for none");
  s.oversubscription = o.optional_number("oversubscription").value_or(1.0);
  if (!(s.oversubscription >= 1 && s.oversubscription <= 1024))
    o.fail("oversubscription", "must be between 1 (a full fat tree) and 1024 (got " + format_raw(s.oversubscription) + ")",
           "e.g. 2 for a 2:1 tapered fabric");
  if (s.devices_per_domain > kMaxDevices / s.domains)
    r.fail("domains", "gives more than " + std::to_string(kMaxDevices) + " devices", "a system this large is not modelled");
  s.scale_out.bandwidth_Bps = static_cast<double>(s.nics_per_domain) * s.nic_Bps /
                              static_cast<double>(s.devices_per_domain) / s.oversubscription;
  s.device = load_hardware(s.device_id);
  s.serving_device = s.device;
  if (const toml::table* eff = r.optional_table("efficiency")) {
    TomlFields e(*eff, file, "efficiency");
    known_keys(e, {"compute", "memory", "source"});
    // It replaces the device's own [efficiency]: a system's factors are fitted as a whole.
    std::optional<Calibration> calibration = s.device.calibration;
    s.device.drop_efficiency();
    s.device.calibration = calibration;
    // compute = 0.73 (every dtype) or { fp16 = 0.35 } (the dtype it was fitted on; the
    // others at their datasheet peaks, as a fit on tensor-core math says nothing of them).
    if ((*eff)["compute"].is_table())
      s.device.compute_efficiency_by_dtype = read_dtype_fractions(*(*eff)["compute"].as_table(), file);
    else if (e.has("compute"))
      s.device.compute_efficiency = fraction(e, "compute");
    s.device.memory_efficiency = e.has("memory") ? fraction(e, "memory") : s.device.memory_efficiency;
    s.device.efficiency_source = e.string("source");
    s.efficiency_source = s.device.efficiency_source;
  }
  return s;
}

std::vector<std::string> shipped_system_names() { return toml_stems(data_root() / "configs" / "systems"); }

SystemSpec load_system(const std::string& arg, bool pure) {
  std::string path = arg;
  if (names_a_file(arg)) {
    if (!path_present(arg))
      throw InputError({}, "no system descriptor file '" + arg + "'", "check the path, or use a shipped name (ridge list systems)");
  } else {
    fs::path shipped = data_root() / "configs" / "systems" / (arg + ".toml");
    if (!shipped_file_exists(shipped))
      throw InputError({}, "unknown system '" + arg + "'", suggestion_hint(arg, shipped_system_names()) + " (ridge list systems)");
    path = shipped.string();
  }
  std::optional<std::string> text = read_input_file(path);
  if (!text) throw InputError({path}, "cannot read system descriptor '" + path + "'", "check that the file is readable");
  SystemSpec s = system_from_text(*text, path, arg);
  if (pure) {
    s.device.drop_to_bound();
    s.serving_device.drop_to_bound();
    s.efficiency_source.clear();
  }
  return s;
}

}  // namespace ridge
