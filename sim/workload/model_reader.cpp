// Model file reading (see model_reader.hpp). First the [params] table is resolved
// (overrides applied, expressions over other params evaluated, cycles refused); every
// TomlFields below carries those values so any integer field may be an expression.
// Then three passes:
//  1. expand: walk `layer` arrays, instantiating blocks (`body` + `repeat`) into a flat
//     list of declarations with scoped names ("stage1.0.conv1");
//  2. resolve: turn input names into indices (innermost scope first, then outer ones,
//     `@input` = the input of the enclosing block instance or of the model) and order
//     the graph topologically, rejecting dangling inputs and cycles;
//  3. evaluate: each op checks its input shapes, infers its output and counts its costs.
#include "sim/workload/model_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/base/checked_math.hpp"
#include "sim/base/control_chars.hpp"
#include "sim/base/close_names.hpp"
#include "sim/workload/op_registry.hpp"
#include "sim/workload/stacked_layer.hpp"
#include "sim/base/toml_fields.hpp"
#include "sim/base/input_file.hpp"

namespace ridge {

namespace {

constexpr int kMaxNesting = 16;
// Reading takes about 2.4 KB and 55 us per layer (a 10^6-layer model took 2.4 GB and
// 55 s), so 100,000 layers, far beyond any real network, stay within 0.25 GB and 6 s.
constexpr size_t kMaxLayers = 100'000;

struct Decl {
  std::string name;                 // full, scoped name
  const toml::table* table;
  std::vector<std::string> scopes;  // enclosing prefixes, innermost first ("" last)
  int previous;                     // the default input
  int block_input;                  // what `@input` means here
  SourceLoc loc;
};

class Expander {
 public:
  Expander(std::string file, const IntParams* params) : file_(std::move(file)), params_(params) {}

  void expand(const toml::array& layers, const std::vector<std::string>& scopes, int block_input, int depth) {
    for (const toml::node& node : layers) {
      const toml::table* t = node.as_table();
      if (!t) throw InputError(location_of(node, file_), "each entry of 'layer' / 'body' must be a table");
      TomlFields f(*t, file_, "layer", params_);
      std::string local = f.name("name");
      check_name(f, local);
      const std::string& scope = scopes.front();
      if (f.has("body")) {
        expand_block(f, scope + local, scopes, depth);
      } else {
        f.accept("op");
        f.accept("inputs");
        decls_.push_back({scope + local, t, scopes, previous(), block_input, f.where()});
        if (decls_.size() > kMaxLayers)
          throw InputError(f.where(), "the model expands to more than " + std::to_string(kMaxLayers) + " layers",
                           "check the repeat counts");
        register_name(scope + local, static_cast<int>(decls_.size()) - 1, f.where("name"));
      }
    }
  }

  std::vector<Decl>& decls() { return decls_; }
  const std::map<std::string, int>& names() const { return names_; }

 private:
  int previous() const { return decls_.empty() ? kModelInput : static_cast<int>(decls_.size()) - 1; }

  void check_name(TomlFields& f, const std::string& name) {
    if (name.empty()) f.fail("name", "must not be empty");
    if (name.find('@') != std::string::npos)
      f.fail("name", "must not contain '@' (got '" + name + "')", "'@input' names a block's input");
  }

  void register_name(const std::string& name, int index, const SourceLoc& loc) {
    if (!names_.emplace(name, index).second)
      throw InputError(loc, "two layers are called '" + name + "'", "layer names must be unique in their block");
  }

  void expand_block(TomlFields& f, const std::string& full, const std::vector<std::string>& scopes, int depth) {
    if (depth >= kMaxNesting) throw InputError(f.where(), "blocks are nested more than 16 deep");
    int64_t repeat = f.positive("repeat", 1);
    if (static_cast<size_t>(repeat) > kMaxLayers)
      throw InputError(f.where("repeat"), "repeat = " + std::to_string(repeat) + " is more than the limit of " +
                                              std::to_string(kMaxLayers) + " layers");
    // `first`: the number of the first instance (an imported stage whose instance 0
    // differs, resnet's layer1.1 and layer1.2 after layer1.0).
    int64_t first = f.positive("first", 0, true);
    const toml::array* body = f.optional_array("body");
    if (body->empty()) f.fail("body", "must hold at least one layer");
    f.reject_unknown_keys();
    for (int64_t i = 0; i < repeat; ++i) {
      std::string instance = repeat > 1 || first > 0 ? full + "." + std::to_string(first + i) : full;
      std::vector<std::string> inner = scopes;
      inner.insert(inner.begin(), instance + ".");
      expand(*body, inner, previous(), depth + 1);
      if (instance != full) register_name(instance, previous(), f.where("name"));
    }
    register_name(full, previous(), f.where("name"));  // the block's output: its last layer
  }

  std::string file_;
  const IntParams* params_;
  std::vector<Decl> decls_;
  std::map<std::string, int> names_;
};

// The declaration `ref` names as seen from `scopes` (innermost first), or -1 (no
// name maps to kModelInput: `@input` is resolved by the caller).
int lookup(const std::map<std::string, int>& names, const std::vector<std::string>& scopes, const std::string& ref) {
  for (const std::string& scope : scopes) {
    auto it = names.find(scope + ref);
    if (it != names.end()) return it->second;
  }
  return -1;
}

// `tied_to` (linear, conv) names the layer whose weight it reuses; that name must resolve like
// an input does, so a typo is an error rather than a silently untied count. The op
// itself reads the key (and counts the shared weight as read, not owned).
// Returns the target's declaration index (its weight shape is checked once evaluated), or -1.
int check_tied_to(TomlFields& f, const Decl& d, const std::map<std::string, int>& names,
                  const std::vector<std::string>& all_names) {
  if (!f.has("tied_to")) return -1;
  const toml::node* n = f.node("tied_to");
  if (!n->is_string()) return -1;  // the op reports the wrong type
  std::string ref = n->as_string()->get();
  int found = lookup(names, d.scopes, ref);
  if (found < 0)
    throw InputError(f.where("tied_to"), "layer '" + d.name + "': tied_to '" + ref + "' names no layer",
                     suggestion_hint(ref, all_names));
  if (names.at(d.name) == found)
    throw InputError(f.where("tied_to"), "layer '" + d.name + "' cannot be tied to itself");
  return found;
}

// A tied weight is its target's weight, so the two matrices must have the same shape;
// otherwise the tied layer's weights would silently vanish from the parameter count.
void check_tied_shape(const Layer& tied, const Layer& target, const SourceLoc& where) {
  const LayerCounts& a = tied.counts;
  const LayerCounts& b = target.counts;
  auto shape = [](const LayerCounts& c) { return "[" + std::to_string(c.weight_rows) + ", " + std::to_string(c.weight_cols) + "]"; };
  if (b.weight_rows == 0)
    throw InputError(where, "layer '" + tied.name + "': tied_to '" + target.name + "' (" + target.op +
                                ") has no weight matrix to share",
                     "tie a linear layer to an embedding or linear layer whose weight is " + shape(a));
  // A conv shares its whole module (weight and bias) with a conv of its own op.
  const bool conv = tied.op.starts_with("conv") || target.op.starts_with("conv");
  if (conv && (tied.op != target.op || a.weight_elems != b.weight_elems))
    throw InputError(where, "layer '" + tied.name + "' (" + tied.op + "): tied_to '" + target.name + "' (" + target.op +
                                "), which is not a conv of the same op, weight and bias",
                     "tie a conv to the conv whose weight and bias it reads again");
  if (a.weight_rows != b.weight_rows || a.weight_cols != b.weight_cols)
    throw InputError(where, "layer '" + tied.name + "': its weight " + shape(a) + " cannot be tied to '" + target.name +
                                "', whose weight is " + shape(b),
                     "a tied weight must have its target's shape (out_features x in_features = num_embeddings x embedding_dim)");
}

// A tied layer must name the layer that owns the weight: a target that is itself tied
// would let two layers tied to each other own nothing (issue #22: their 512 weights
// vanished from the count), and a chain says the same thing less plainly.
void check_tied_owners(const std::vector<Decl>& decls, const std::vector<std::pair<int, SourceLoc>>& tied) {
  for (size_t i = 0; i < decls.size(); ++i) {
    int target = tied[i].first;
    if (target < 0 || tied[static_cast<size_t>(target)].first < 0) continue;
    const Decl& owner = decls[static_cast<size_t>(tied[static_cast<size_t>(target)].first)];
    throw InputError(tied[i].second, "layer '" + decls[i].name + "': tied_to '" + decls[static_cast<size_t>(target)].name +
                                         "', which is itself tied to '" + owner.name + "'",
                     "tie every layer to the layer that owns the weight (one without tied_to)");
  }
}

// Input indices of each declaration (into the flat list).
std::vector<std::vector<int>> resolve_inputs(std::vector<Decl>& decls, const std::map<std::string, int>& names,
                                             const std::string& file, std::vector<std::pair<int, SourceLoc>>& tied) {
  std::vector<std::string> all_names;
  for (const auto& [n, i] : names) all_names.push_back(n);
  std::vector<std::vector<int>> inputs(decls.size());
  for (size_t i = 0; i < decls.size(); ++i) {
    Decl& d = decls[i];
    TomlFields f(*d.table, file, "layer '" + d.name + "'");
    tied.push_back({check_tied_to(f, d, names, all_names), f.where("tied_to")});
    if (!f.has("inputs")) {
      // An op that takes no inputs (parameter) does not take the previous layer either.
      const toml::node* op = d.table->get("op");
      const OpInfo* info = op && op->is_string() ? find_op(op->as_string()->get()) : nullptr;
      if (!info || info->max_inputs != 0) inputs[i] = {d.previous};
      continue;
    }
    std::vector<std::string> refs = f.string_list("inputs");
    if (refs.empty()) f.fail("inputs", "must name at least one layer");
    for (const std::string& ref : refs) {
      if (ref == "@input") {
        inputs[i].push_back(d.block_input);
        continue;
      }
      int found = lookup(names, d.scopes, ref);
      if (found < 0)
        throw InputError(f.where("inputs"), "layer '" + d.name + "': input '" + ref + "' names no layer",
                         suggestion_hint(ref, all_names));
      inputs[i].push_back(found);
    }
  }
  return inputs;
}

// Kahn's algorithm, taking ready layers in file order so the report follows the file.
std::vector<int> topological_order(const std::vector<Decl>& decls, const std::vector<std::vector<int>>& inputs) {
  size_t n = decls.size();
  std::vector<int> pending(n, 0);
  std::vector<std::vector<int>> users(n);
  for (size_t i = 0; i < n; ++i)
    for (int in : inputs[i])
      if (in != kModelInput) {
        ++pending[i];
        users[in].push_back(static_cast<int>(i));
      }
  std::vector<int> order;
  std::vector<bool> done(n, false);
  // A min-ordered frontier keeps file order among ready layers.
  std::map<int, bool> ready;
  for (size_t i = 0; i < n; ++i)
    if (pending[i] == 0) ready[static_cast<int>(i)] = true;
  while (!ready.empty()) {
    int i = ready.begin()->first;
    ready.erase(ready.begin());
    order.push_back(i);
    done[i] = true;
    for (int u : users[i])
      if (--pending[u] == 0) ready[u] = true;
  }
  if (order.size() != n) {
    // Every layer left has an input that is left too; walking back along such inputs
    // from the first one must come round to a layer already met: that loop is a cycle
    // (layers merely downstream of it are not named).
    int v = 0;
    while (done[v]) ++v;
    std::vector<int> met_at(n, -1), path;
    while (met_at[v] < 0) {
      met_at[v] = static_cast<int>(path.size());
      path.push_back(v);
      for (int in : inputs[v])
        if (in != kModelInput && !done[in]) {
          v = in;
          break;
        }
    }
    std::vector<int> cycle(path.begin() + met_at[v], path.end());
    if (cycle.size() == 1)
      throw InputError(decls[v].loc, "layer '" + decls[v].name + "' takes its own output as input",
                       "a layer's inputs must come from other layers or '@input'");
    std::sort(cycle.begin(), cycle.end());  // file order
    std::string members;
    for (int i : cycle)
      if (members.size() < 200) members += (members.empty() ? "'" : ", '") + decls[i].name + "'";
    throw InputError(decls[cycle.front()].loc, "the layers " + members + " form a cycle through their inputs",
                     "a layer's inputs must come from earlier layers or '@input'");
  }
  return order;
}

// Resolves the [params] table: each entry an integer or an expression over other
// entries; an override replaces an entry's value (and must name one).
class ParamResolver {
 public:
  ParamResolver(const toml::table* table, const std::string& file, const std::vector<ParamOverride>& overrides)
      : table_(table), file_(file) {
    if (table_)
      for (const auto& [k, v] : *table_) names_.emplace_back(k.str());
    for (const ParamOverride& o : overrides) {
      if (std::find(names_.begin(), names_.end(), o.name) == names_.end())
        throw InputError(o.where, "the model has no parameter '" + o.name + "' to set",
                         names_.empty() ? std::string("its model file has no [params] table")
                                        : suggestion_hint(o.name, names_) + " (the model's [params])");
      overrides_[o.name] = &o;
    }
  }

  IntParams resolve() {
    for (const std::string& n : names_) value(n);
    return done_;
  }

 private:
  int64_t value(const std::string& name) {
    if (auto it = done_.find(name); it != done_.end()) return it->second;
    if (!busy_.insert(name).second)
      throw InputError(where(name), "[params]: '" + name + "' is defined in terms of itself",
                       "a parameter may use only parameters that do not use it");
    if (busy_.size() > kMaxParamChain)
      throw InputError(where(name), "[params]: '" + name + "' is defined through more than " +
                                        std::to_string(kMaxParamChain) + " parameters deep",
                       "define long chains of parameters directly, not each through the one before");
    int64_t v = 0;
    auto lookup = [this](std::string_view n) -> std::optional<int64_t> {
      std::string s(n);
      if (std::find(names_.begin(), names_.end(), s) == names_.end()) return std::nullopt;
      return value(s);
    };
    auto hint = [this](std::string_view n) { return suggestion_hint(std::string(n), names_); };
    if (auto o = overrides_.find(name); o != overrides_.end()) {
      v = evaluate_int_expression(o->second->value, lookup, o->second->where, hint);
    } else {
      const toml::node& n = *table_->get(name);
      if (n.is_integer()) {
        v = n.as_integer()->get();
      } else if (n.is_string()) {
        SourceLoc at = location_of(n, file_);
        at.column += 1;
        v = evaluate_int_expression(n.as_string()->get(), lookup, at, hint);
      } else {
        throw InputError(location_of(n, file_), "[params]: '" + name + "' must be an integer or an expression string",
                         "e.g. seq = 1024, or head_dim = \"hidden / heads\"");
      }
    }
    busy_.erase(name);
    done_[name] = v;
    return v;
  }

  SourceLoc where(const std::string& name) const {
    if (auto o = overrides_.find(name); o != overrides_.end()) return o->second->where;
    return location_of(*table_->get(name), file_);
  }

  const toml::table* table_;
  const std::string& file_;
  std::vector<std::string> names_;
  std::map<std::string, const ParamOverride*> overrides_;
  std::set<std::string> busy_;
  IntParams done_;
};

Model build(const toml::table& root, const std::string& file, const std::vector<ParamOverride>& overrides,
            std::optional<int64_t> tokens) {
  TomlFields top(root, file, "model");
  Model m;
  m.file = file;
  m.name = top.name("name");
  m.source = top.optional_string("source").value_or("");
  if (top.has("notes")) m.notes = top.string_list("notes");
  for (const std::string& note : m.notes)
    if (auto code = first_control_char(note))
      top.fail("notes", "must not contain control characters (got character " + *code + ")",
               "notes are printed in the report's header; use printable characters");
  m.params = ParamResolver(top.optional_table("params"), file, overrides).resolve();
  const IntParams* params = &m.params;
  const toml::table* input = top.optional_table("input");
  if (!input) throw InputError(top.where(), "model: missing required table [input]", "add [input] shape = [3, 224, 224]");
  TomlFields in(*input, file, "[input]", params);
  m.input = in.integer_list("shape");
  if (m.input.empty()) in.fail("shape", "must have at least one dimension");
  if (auto max_pos = top.optional_integer("max_positions")) {
    if (*max_pos <= 0) top.fail("max_positions", "must be a positive integer (got " + std::to_string(*max_pos) + ")");
    m.max_positions = *max_pos;
    m.max_positions_loc = top.where("max_positions");
  }
  if (auto dt = top.optional_string("dtype")) {
    m.dtype = parse_dtype(*dt);
    if (!m.dtype) top.fail("dtype", "unknown data type '" + *dt + "'", "use one of " + dtype_names());
  }
  if (tokens) m.input[0] = *tokens;  // a run that fixes the tokens per sequence (prefill --seq, decode)
  try {
    element_count(m.input);
  } catch (const CountOverflow&) {
    in.fail("shape", "has more elements than a 64-bit count holds (got " + shape_to_string(m.input) + ")");
  }
  in.reject_unknown_keys();
  const toml::array* layers = top.optional_array("layer");
  if (!layers || layers->empty()) throw InputError(top.where(), "model: no [[layer]] entries");
  top.reject_unknown_keys();

  Expander ex(file, params);
  ex.expand(*layers, {""}, kModelInput, 0);
  std::vector<Decl>& decls = ex.decls();
  std::vector<std::pair<int, SourceLoc>> tied;  // per declaration: its tied_to target (or -1) and where
  auto flat_inputs = resolve_inputs(decls, ex.names(), file, tied);
  check_tied_owners(decls, tied);
  std::vector<int> order = topological_order(decls, flat_inputs);
  std::vector<int> position(decls.size());
  for (size_t k = 0; k < order.size(); ++k) position[order[k]] = static_cast<int>(k);

  for (int i : order) {
    const Decl& d = decls[i];
    TomlFields f(*d.table, file, "layer '" + d.name + "'");
    f.accept("name");
    f.accept("inputs");
    std::string op_name = f.string("op");
    const OpInfo* op = find_op(op_name);
    if (!op)
      throw InputError(f.where("op"), "layer '" + d.name + "': unknown op '" + op_name + "'",
                       suggestion_hint(op_name, op_names()));
    Layer layer;
    layer.name = d.name;
    layer.op = op_name;
    layer.loc = d.loc;
    std::vector<Shape> shapes;
    for (int in : flat_inputs[i]) {
      layer.inputs.push_back(in == kModelInput ? kModelInput : position[in]);
      shapes.push_back(in == kModelInput ? m.input : m.layers[position[in]].output);
    }
    int count = static_cast<int>(shapes.size());
    if (count < op->min_inputs || (op->max_inputs >= 0 && count > op->max_inputs))
      throw InputError(f.where("inputs"), "layer '" + d.name + "' (" + op_name + ") takes " +
                                              (op->max_inputs < 0 ? "at least " + std::to_string(op->min_inputs)
                                                                  : std::to_string(op->min_inputs)) +
                                              " input(s), got " + std::to_string(count));
    TomlFields attrs(*d.table, file, "layer '" + d.name + "' (" + op_name + ")", params);
    attrs.accept("name");
    attrs.accept("op");
    attrs.accept("inputs");
    if (std::optional<std::string> wd = attrs.optional_string("weight_dtype")) {
      layer.weight_dtype = parse_dtype(*wd);
      if (!layer.weight_dtype)
        attrs.fail("weight_dtype", "names no data type ('" + *wd + "')", "use one of " + dtype_names());
    }
    try {
      OpResult r = evaluate_layer(*op, attrs, shapes);  // (with images = N: over N stacked items)
      layer.output = std::move(r.output);
      layer.counts = r.counts;
      layer.op_class = r.op_class.value_or(op->op_class);
      element_count(layer.output);
    } catch (const ShapeMismatch& e) {
      std::string got;
      for (const Shape& s : shapes) got += (got.empty() ? "" : ", ") + shape_to_string(s);
      throw InputError(d.loc, "layer '" + d.name + "' (" + op_name + "): " + e.what() + " (input shapes: " + got + ")");
    } catch (const CountOverflow&) {
      throw InputError(d.loc, "layer '" + d.name + "' (" + op_name + "): its counts overflow 64 bits",
                       "check the shapes: some dimension is far too large");
    }
    attrs.reject_unknown_keys();
    m.layers.push_back(std::move(layer));
  }
  for (size_t i = 0; i < decls.size(); ++i)
    if (tied[i].first >= 0) check_tied_shape(m.layers[position[i]], m.layers[position[tied[i].first]], tied[i].second);
  return m;
}

}  // namespace

Model read_model_table(const toml::table& root, const std::string& file_label,
                       const std::vector<ParamOverride>& overrides, std::optional<int64_t> tokens) {
  // (build turns every 64-bit overflow into a located error: the input's shape and each
  // layer's evaluation, the only counts it computes, catch CountOverflow themselves.)
  return build(root, file_label, overrides, tokens);
}

Model read_model_string(const std::string& text, const std::string& file_label,
                        const std::vector<ParamOverride>& overrides, std::optional<int64_t> tokens) {
  return read_model_table(parse_toml_text(text, file_label), file_label, overrides, tokens);
}

Model read_model_file(const std::string& path, const std::vector<ParamOverride>& overrides,
                      std::optional<int64_t> tokens) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError({path}, "is a folder, not a model file", "give a .toml model file or a zoo name (ridge list models)");
  std::optional<std::string> text = read_input_file(path);
  if (!text) throw InputError({path}, "cannot read the model file", "check the path");
  return read_model_table(parse_toml_text(*text, path), path, overrides, tokens);
}

std::vector<ParamOverride> with_param(std::vector<ParamOverride> overrides, const char* name, int64_t value) {
  overrides.push_back({name, std::to_string(value), {}});
  return overrides;
}

}  // namespace ridge
