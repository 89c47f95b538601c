// Sweep file parsing and validation (see sweep_file.hpp).
#include "sim/engine/sweep_file.hpp"

#include <algorithm>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"
#include "sim/workload/model_catalog.hpp"
#include "sim/base/data_paths.hpp"
#include "sim/base/format_units.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/base/input_file.hpp"

namespace ridge {

namespace {

constexpr int64_t kMaxRangeValues = 100000;  // a typo'd step should not exhaust memory

// A required-or-defaulted list: present means non-empty; every element passes `read`.
template <typename Read>
void read_list(TomlFields& f, const std::string& key, bool required, Read read) {
  const toml::node* n = f.node(key);
  if (!n) {
    if (required) throw InputError(f.where(), "sweep: missing required list '" + key + "'",
                                   "e.g. " + key + " = [\"...\"]");
    return;
  }
  const toml::array* a = n->as_array();
  if (!a) f.fail(key, "must be a list", "e.g. " + key + " = [ ... ] (a single value is written [x])");
  if (a->empty()) f.fail(key, "is an empty list, so the sweep would have no point", "give at least one value, or leave the key out for its default");
  for (const toml::node& e : *a) read(e, location_of(e, f.file()));
}

std::string string_element(const toml::node& e, const SourceLoc& where, const std::string& key) {
  if (!e.is_string()) throw InputError(where, "sweep: every element of '" + key + "' must be a string");
  return e.as_string()->get();
}

// An integer element's value, nothing for any other type. Not toml++'s value<int64_t>(),
// which also converts a float and so cast 1e308 to int64 (undefined behaviour; found by
// fuzz_sweep, tests/fuzz/regressions/sweep/).
std::optional<int64_t> integer_element(const toml::node& e) {
  if (!e.is_integer()) return std::nullopt;
  return e.as_integer()->get();
}

// An optional list of names parsed by `parse` (dtype, phase, optimizer), `fallback` when absent.
template <typename T>
void named_list(TomlFields& f, const std::string& key, std::optional<T> (*parse)(std::string_view),
                const std::string& hint, T fallback, std::vector<T>& into) {
  read_list(f, key, false, [&](const toml::node& e, const SourceLoc& w) {
    std::string name = string_element(e, w, key);
    std::optional<T> v = parse(name);
    if (!v) throw InputError(w, "sweep: unknown " + key + " '" + name + "'", hint);
    into.push_back(*v);
  });
  if (into.empty()) into.push_back(fallback);
}

std::string number_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return buf;
}

// strtod, not stod: a result below the normal range is a value here, not an exception.
double round12(double v) { return std::strtod(number_text(v).c_str(), nullptr); }

std::vector<SweepItem> vary_values(const toml::table& t, const std::string& file, size_t index) {
  TomlFields f(t, file, "[[vary]] #" + std::to_string(index + 1));
  std::optional<std::string> unit = f.optional_string("unit");
  if (unit && unit->empty()) f.fail("unit", "must not be empty", "leave it out for plain numbers");
  auto with_unit = [&](double v) { return number_text(v) + (unit ? " " + *unit : std::string()); };
  std::vector<SweepItem> out;
  bool listed = f.has("values");
  bool ranged = f.has("from") || f.has("to") || f.has("step") || f.has("count") || f.has("scale");
  if (listed && ranged)
    throw InputError(f.where("values"), f.what() + ": give either 'values' or a range (from, to, step | count), not both");
  if (listed) {
    read_list(f, "values", true, [&](const toml::node& e, const SourceLoc& where) {
      if (e.is_string()) {
        out.push_back({e.as_string()->get(), where});
      } else if (e.is_number()) {
        double v = e.value<double>().value_or(0);
        if (std::string why = finite_number_problem(v); !why.empty()) throw InputError(where, f.what() + ": a value " + why);
        out.push_back({with_unit(v), where});
      } else {
        throw InputError(where, f.what() + ": a value must be a string (\"900 GB/s\") or a number");
      }
    });
  } else if (ranged) {
    VaryRange r;
    r.from = f.number("from");
    r.to = f.number("to");
    if (auto step = f.optional_number("step")) r.step = *step;
    if (f.has("count")) r.count = f.integer("count");
    if (f.has("step") && f.has("count")) f.fail("count", "and 'step' are both given", "keep one of the two");
    if (!f.has("step") && !f.has("count")) throw InputError(f.where("to"), f.what() + ": a range needs 'step' or 'count'");
    std::string scale = f.optional_string("scale").value_or("linear");
    if (scale != "linear" && scale != "log") f.fail("scale", "must be \"linear\" or \"log\" (got \"" + scale + "\")");
    r.log = scale == "log";
    SourceLoc where = f.where(f.has("step") ? "step" : "count");
    for (double v : range_values(r, where)) out.push_back({with_unit(v), f.where("from")});
  } else {
    throw InputError(f.where(), f.what() + ": no values", "give values = [...] or a range: from, to, step or count");
  }
  return out;
}

// A range finer than the 12 significant digits its values are written with gives the
// same point many times (from = 1, to = 1 + 1e-11, count = 50000: 49,999 repeats).
void check_distinct(const std::vector<double>& values, const SourceLoc& where) {
  size_t n = values.size();
  if (n < 2 || values[n - 1] != values[n - 2]) return;
  throw InputError(where, "[[vary]] range: values " + std::to_string(n - 1) + " and " + std::to_string(n) + " are both " +
                              number_text(values[n - 1]) + " at the 12 significant digits a sweep writes",
                   "use a larger step or fewer values");
}

}  // namespace

std::vector<double> range_values(const VaryRange& r, const SourceLoc& where) {
  if (!std::isfinite(r.from) || !std::isfinite(r.to) || !(r.to > r.from))
    throw InputError(where, "[[vary]] range: 'to' must be greater than 'from' (got from = " + number_text(r.from) +
                                ", to = " + number_text(r.to) + ")");
  if (r.log && !(r.from > 0)) throw InputError(where, "[[vary]] range: a log scale needs from > 0 (got " + number_text(r.from) + ")");
  std::vector<double> out;
  if (r.count != 0) {
    if (r.count < 2 || r.count > kMaxRangeValues)
      throw InputError(where, "[[vary]] range: 'count' must be 2 to " + std::to_string(kMaxRangeValues) +
                                  " (got " + std::to_string(r.count) + ")", "a single value is written values = [x]");
    for (int64_t i = 0; i < r.count; ++i) {
      double t = static_cast<double>(i) / static_cast<double>(r.count - 1);
      double v = r.log ? r.from * std::pow(r.to / r.from, t) : r.from + t * (r.to - r.from);
      out.push_back(i + 1 == r.count ? r.to : round12(v));
      check_distinct(out, where);
    }
    return out;
  }
  if (r.log ? !(r.step > 1) : !(r.step > 0))
    throw InputError(where, std::string("[[vary]] range: 'step' must be ") + (r.log ? "a factor greater than 1" : "greater than 0") +
                                " (got " + number_text(r.step) + ")");
  // Each value computed from `from` directly (no running sum), kept while <= to up to rounding.
  for (int64_t i = 0;; ++i) {
    double v = round12(r.log ? r.from * std::pow(r.step, static_cast<double>(i)) : r.from + static_cast<double>(i) * r.step);
    if (v > r.to * (1 + 1e-12)) break;
    if (static_cast<int64_t>(out.size()) >= kMaxRangeValues)
      throw InputError(where, "[[vary]] range: more than " + std::to_string(kMaxRangeValues) + " values", "use a larger step");
    out.push_back(v);
    check_distinct(out, where);
  }
  return out;
}

namespace {
// The product of the list lengths, or nothing when it passes 2^64.
std::optional<size_t> checked_point_count(const SweepFile& s) {
  size_t n = 1;
  if (s.parallel_sweep()) {
    std::vector<size_t> sizes = {s.models.size(), s.systems.size(), std::max<size_t>(1, s.gpus.size())};
    for (const SweepParallelKey& k : s.parallel) sizes.push_back(k.values.size());
    for (size_t k : sizes)
      if (__builtin_mul_overflow(n, k, &n)) return std::nullopt;
    return n;
  }
  std::vector<size_t> sizes = {s.models.size(), s.hardware.size(), s.hw_models.size(), s.batches.size(),
                               s.dtypes.size(),  s.phases.size(),   s.optimizers.size(), s.contexts.size(),
                               s.seqs.size(),    s.kv_dtypes.size(), s.weight_formats.size(), s.overheads.size()};
  for (const SweepVary& v : s.vary) sizes.push_back(v.values.size());
  for (size_t k : sizes)
    if (__builtin_mul_overflow(n, k, &n)) return std::nullopt;
  return n;
}

void check_point_count(const SweepFile& s) {
  std::optional<size_t> n = checked_point_count(s);
  if (n && *n <= kMaxSweepPoints) return;
  std::string count = n ? std::to_string(*n) : "at least 2^64";
  std::string lists = std::to_string(s.models.size()) + " models x " +
                      (s.parallel_sweep() ? std::to_string(s.systems.size()) + " systems"
                                          : std::to_string(s.hardware.size()) + " hardware");
  for (const SweepParallelKey& k : s.parallel) lists += " x " + std::to_string(k.values.size()) + " " + k.key;
  for (const SweepVary& v : s.vary) lists += " x " + std::to_string(v.values.size()) + " " + v.key;
  lists += " x " + std::to_string(s.batches.size()) + " batches x ...";
  throw InputError({s.path}, "the sweep has " + count + " points (" + lists + "), more than the limit of " +
                                 std::to_string(kMaxSweepPoints),
                   "split it into several sweep files, or use fewer values (ridge keeps every point in memory)");
}
// kv_dtype, weight_dtype and overhead, each checked against the phases it applies to.
void read_serving_lists(TomlFields& f, SweepFile& s) {
  read_list(f, "kv_dtype", false, [&](const toml::node& e, const SourceLoc& w) {
    std::string name = string_element(e, w, "kv_dtype");
    std::optional<DType> t = parse_dtype(name);
    if (!t || *t == DType::tf32 || *t == DType::fp64)
      throw InputError(w, "sweep: unknown kv_dtype '" + name + "'", "use fp8, int8, fp16, bf16 or fp32");
    s.kv_dtypes.push_back(t);
  });
  const bool all_cached = std::all_of(s.phases.begin(), s.phases.end(), [](Phase p) { return p == Phase::prefill || p == Phase::decode; });
  if (!s.kv_dtypes.empty() && !all_cached) f.fail("kv_dtype", "applies to phases prefill and decode only");
  if (s.kv_dtypes.empty()) s.kv_dtypes.push_back(std::nullopt);
  read_list(f, "weight_dtype", false, [&](const toml::node& e, const SourceLoc& w) {
    std::string name = string_element(e, w, "weight_dtype");
    std::optional<WeightFormat> wf = name == "none" ? std::optional(WeightFormat::same) : parse_weight_format(name);
    if (!wf) throw InputError(w, "sweep: unknown weight_dtype '" + name + "'", "use none, int8, int4 or fp8");
    s.weight_formats.push_back(*wf);
  });
  const bool trains = std::find(s.phases.begin(), s.phases.end(), Phase::training) != s.phases.end();
  if (!s.weight_formats.empty() && trains)
    f.fail("weight_dtype", "quantizes weights for inference; training keeps them in the dtype",
           "sweep training in a file of its own");
  if (s.weight_formats.empty()) s.weight_formats.push_back(WeightFormat::same);
  named_list(f, "overhead", parse_launch_overhead, "use kernel, graph or none", LaunchOverhead::per_kernel, s.overheads);
}

// [cost]: basis, years, usd_per_kwh, checked as the options of the same names.
CostBasis read_cost_basis(TomlFields& f, const std::string& path) {
  CostBasis b;
  const toml::table* t = f.optional_table("cost");
  if (!t) return b;
  TomlFields c(*t, path, "[cost]");
  if (std::optional<std::string> name = c.optional_string("basis")) {
    std::optional<CostBasis::Kind> kind = parse_cost_basis_kind(*name);
    if (!kind) c.fail("basis", "must be purchase or cloud (got '" + *name + "')", "purchase: launch price + electricity; cloud: on-demand $/h");
    b.kind = *kind;
  }
  if (std::optional<double> years = c.optional_number("years")) {
    if (!valid_years(*years)) c.fail("years", "must be in (0, 100]");
    b.years = *years;
  }
  if (std::optional<double> price = c.optional_number("usd_per_kwh")) {
    if (!valid_usd_per_kwh(*price)) c.fail("usd_per_kwh", "must be in [0, 100] US dollars per kWh", "e.g. 0.13");
    b.usd_per_kwh = *price;
  }
  c.reject_unknown_keys();
  return b;
}

// A plan value as written: an integer, a boolean or a string, kept as text.
SweepItem parallel_value(const toml::node& e, const SourceLoc& where, const std::string& key) {
  if (e.is_integer()) return {std::to_string(e.as_integer()->get()), where};
  if (e.is_boolean()) return {e.as_boolean()->get() ? "true" : "false", where};
  if (e.is_floating_point()) {  // kept a float as written ("2.0", not "2"): an integer key refuses it
    std::string t = format_raw(e.as_floating_point()->get());
    if (t.find_first_of(".eni") == std::string::npos) t += ".0";
    return {t, where};
  }
  if (e.is_string()) return {e.as_string()->get(), where};
  throw InputError(where, "sweep: parallel." + key + ": a value must be a number, true / false or a string",
                   "e.g. tp = [1, 2, 4, 8], sequence_parallel = true, recompute = \"selective\"");
}

// A parallel sweep's system, gpus and [parallel] lists; the single-device keys do not apply.
void read_parallel_lists(TomlFields& f, SweepFile& s) {
  for (const char* k : {"hardware", "hw_model", "batch", "dtype", "phase", "optimizer", "context", "seq", "kv_dtype",
                        "weight_dtype", "overhead", "cost"})
    if (f.has(k))
      f.fail(k, "does not apply to a parallel sweep (one with 'system')",
             "a plan trains in bf16 mixed precision with Adam; its batch is parallel.global_batch and parallel.microbatch");
  read_list(f, "system", true, [&](const toml::node& e, const SourceLoc& w) { s.systems.push_back({string_element(e, w, "system"), w}); });
  read_list(f, "gpus", false, [&](const toml::node& e, const SourceLoc& w) {
    auto g = integer_element(e);
    if (!g || *g <= 0) throw InputError(w, "sweep: a gpus value must be a positive integer");
    s.gpus.push_back({std::to_string(*g), w});
  });
  const toml::table* t = f.optional_table("parallel");
  if (!t) return;
  TomlFields p(*t, f.file(), "[parallel]");
  for (const std::string& key : sweep_parallel_key_names()) {
    const toml::node* n = p.node(key);
    if (!n) continue;
    SweepParallelKey k{key, p.where(key), {}};
    if (const toml::array* a = n->as_array()) {
      if (a->empty()) p.fail(key, "is an empty list, so the sweep would have no point", "give at least one value, or leave the key out");
      for (const toml::node& e : *a) k.values.push_back(parallel_value(e, location_of(e, f.file()), key));
    } else {
      k.values.push_back(parallel_value(*n, k.where, key));
    }
    s.parallel.push_back(std::move(k));
  }
  p.reject_unknown_keys();
}

// A [[vary]] "parallel.KEY": its values join the plan keys (as a [parallel] list would).
void read_parallel_vary(TomlFields& v, const std::string& name, SweepFile& s) {
  if (!s.parallel_sweep()) v.fail("key", "'" + name + "' needs a parallel sweep", "add system = [\"dgx-a100\"] (ridge list systems)");
  std::string key = name.substr(std::string("parallel.").size());
  const auto& known = sweep_parallel_key_names();
  if (std::find(known.begin(), known.end(), key) == known.end()) {
    std::string keys;
    for (const std::string& k : known) keys += (keys.empty() ? "" : ", ") + k;
    v.fail("key", "unknown plan key '" + name + "'", "use parallel. followed by one of " + keys);
  }
  for (const SweepParallelKey& k : s.parallel)
    if (k.key == key) v.fail("key", "'" + name + "' is also given in [parallel]", "give its values in one place");
  SweepParallelKey k{key, v.where("key"), {}};
  read_list(v, "values", true, [&](const toml::node& e, const SourceLoc& w) { k.values.push_back(parallel_value(e, w, key)); });
  v.reject_unknown_keys();
  s.parallel.push_back(std::move(k));
  std::stable_sort(s.parallel.begin(), s.parallel.end(), [&](const SweepParallelKey& a, const SweepParallelKey& b) {
    return std::find(known.begin(), known.end(), a.key) < std::find(known.begin(), known.end(), b.key);
  });
}

}  // namespace

const std::vector<std::string>& sweep_parallel_key_names() {
  static const std::vector<std::string> names = {"tp",           "pp",   "dp",        "cp",         "ep",
                                                 "sequence_parallel", "microbatch", "global_batch", "zero", "recompute",
                                                 "interleave",   "overlap", "expert_imbalance"};
  return names;
}

std::string SweepFile::resolve(const std::string& name) const {
  std::filesystem::path file(name);
  if (!names_a_file(name) || file.is_absolute()) return name;
  return (std::filesystem::path(path).parent_path() / file).lexically_normal().string();
}

size_t SweepFile::point_count() const { return checked_point_count(*this).value_or(0); }

SweepFile parse_sweep(const std::string& text, const std::string& path) {
  toml::table root = parse_toml_text(text, path);
  SweepFile s;
  s.path = path;
  TomlFields f(root, path, "sweep");
  // "*" stands for every zoo model / every shipped descriptor, in name order.
  auto names = [&](const std::string& key, std::vector<SweepItem>& into, std::vector<std::string> (*all)()) {
    read_list(f, key, true, [&](const toml::node& e, const SourceLoc& w) {
      std::string name = string_element(e, w, key);
      if (name != "*") return into.push_back({name, w});
      for (std::string& n : all()) into.push_back({std::move(n), w});
    });
  };
  const bool parallel = f.has("system");
  if (parallel) read_parallel_lists(f, s);
  for (const char* k : {"gpus", "parallel"})
    if (!parallel && f.has(k)) f.fail(k, "needs a parallel sweep", "add system = [\"dgx-a100\"] (ridge list systems)");
  names("models", s.models, zoo_names);
  if (!parallel) names("hardware", s.hardware, shipped_hardware_names);
  read_list(f, "hw_model", false, [&](const toml::node& e, const SourceLoc& w) {
    std::string name = string_element(e, w, "hw_model");
    try {
      find_hardware_model(name);
    } catch (const InputError& err) {
      throw InputError(w, err.what(), err.hint());
    }
    s.hw_models.push_back({name, w});
  });
  if (s.hw_models.empty()) s.hw_models.push_back({"", f.where()});
  read_list(f, "batch", false, [&](const toml::node& e, const SourceLoc& w) {
    auto b = integer_element(e);
    if (!b || *b <= 0) throw InputError(w, "sweep: a batch must be a positive integer");
    s.batches.push_back(*b);
  });
  if (s.batches.empty()) s.batches.push_back(1);
  named_list(f, "dtype", parse_dtype, "use one of " + dtype_names(), DType::fp32, s.dtypes);
  named_list(f, "phase", parse_phase, "use inference, training, prefill or decode", Phase::inference, s.phases);
  read_list(f, "context", false, [&](const toml::node& e, const SourceLoc& w) {
    auto c = integer_element(e);
    if (!c || *c < 0) throw InputError(w, "sweep: a context must be a non-negative integer");
    s.contexts.push_back(*c);
  });
  bool decode = std::find(s.phases.begin(), s.phases.end(), Phase::decode) != s.phases.end();
  if (decode && (s.contexts.empty() || s.phases.size() > 1))
    f.fail("phase", s.contexts.empty() ? "phase \"decode\" needs context = [...] (tokens in the KV cache)"
                                       : "phase \"decode\" varies the context, so it must be the only phase",
           "e.g. phase = [\"decode\"] and context = [128, 1024, 8192]; sweep other phases in a file of their own");
  if (!decode && !s.contexts.empty()) f.fail("context", "applies to phase = [\"decode\"] only");
  if (s.contexts.empty()) s.contexts.push_back(0);
  read_list(f, "seq", false, [&](const toml::node& e, const SourceLoc& w) {
    auto n = integer_element(e);
    if (!n || *n <= 0) throw InputError(w, "sweep: a seq must be a positive integer");
    s.seqs.push_back(*n);
  });
  bool prefill_only = s.phases.size() == 1 && s.phases[0] == Phase::prefill;
  if (!s.seqs.empty() && !prefill_only)
    f.fail("seq", "applies to phase = [\"prefill\"] only, as its only phase",
           "e.g. phase = [\"prefill\"] and seq = [128, 1024, 8192]; sweep other phases in a file of their own");
  if (s.seqs.empty()) s.seqs.push_back(0);
  named_list(f, "optimizer", parse_optimizer, "use sgd, momentum, adam or adamw", Optimizer::adam, s.optimizers);
  read_serving_lists(f, s);

  if (const toml::node* vary = f.node("vary")) {
    const toml::array* a = vary->as_array();
    if (!a || !a->is_array_of_tables()) f.fail("vary", "must be an array of tables", "write each as [[vary]] (two brackets)");
    std::set<std::string> keys;
    for (size_t i = 0; i < a->size(); ++i) {
      const toml::table& t = *a->get(i)->as_table();
      TomlFields v(t, path, "[[vary]] #" + std::to_string(i + 1));
      SweepVary sv;
      sv.key = v.string("key");
      sv.key_where = v.where("key");
      if (sv.key.rfind("parallel.", 0) == 0) {
        read_parallel_vary(v, sv.key, s);
        continue;
      }
      if (parallel) v.fail("key", "'" + sv.key + "' does not apply to a parallel sweep", "vary parallel.KEY (tp, pp, dp, microbatch, ...)");
      if (!keys.insert(sv.key).second) v.fail("key", "is varied twice ('" + sv.key + "')", "give all its values in one [[vary]]");
      for (const char* k : {"values", "unit", "from", "to", "step", "count", "scale"}) v.accept(k);
      v.reject_unknown_keys();
      sv.values = vary_values(t, path, i);
      s.vary.push_back(std::move(sv));
    }
  }
  s.cost = read_cost_basis(f, path);
  f.reject_unknown_keys();
  check_point_count(s);
  return s;
}

SweepFile read_sweep_file(const std::string& path) {
  std::optional<std::string> text = read_input_file(path);
  if (!text) throw InputError({}, "cannot read sweep file '" + path + "'", "check the path");
  return parse_sweep(*text, path);
}

}  // namespace ridge
