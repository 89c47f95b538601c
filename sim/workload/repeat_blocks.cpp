// Repeat folding for imported layer tables (see repeat_blocks.hpp).
#include "sim/workload/repeat_blocks.hpp"

#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace ridge {

namespace {

struct Instance {
  std::string prefix;  // "layer1"
  int64_t index = 0;   // 1
  size_t begin = 0, end = 0;  // its layers [begin, end) in the flat table
};

std::string text(const toml::node* n) { return n && n->is_string() ? n->as_string()->get() : ""; }

// "layer1.1.conv1" -> ("layer1", 1, "conv1"): the innermost numeric component with a name
// after it ("layer1.0.downsample.0" is layer "downsample.0" of layer1.0); "" rest for the
// instance's own name ("layer1.1").
std::optional<std::pair<Instance, std::string>> split(const std::string& name) {
  std::vector<std::string> parts;
  std::stringstream ss(name);
  for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
  auto numeric = [](const std::string& p) {
    return !p.empty() && p.size() <= 9 && p.find_first_not_of("0123456789") == std::string::npos;
  };
  size_t last = parts.size() - 1;
  for (size_t k = last; k-- > 1;)
    if (numeric(parts[k])) {
      last = k;
      break;
    }
  for (size_t k = last + 1; k-- > 1;) {
    const std::string& p = parts[k];
    if (!numeric(p)) continue;
    Instance in;
    for (size_t i = 0; i < k; ++i) in.prefix += (i ? "." : "") + parts[i];
    in.index = std::stoll(p);
    std::string rest;
    for (size_t i = k + 1; i < parts.size(); ++i) rest += (rest.empty() ? "" : ".") + parts[i];
    return std::pair(in, rest);
  }
  return std::nullopt;
}

class Folder {
 public:
  explicit Folder(const toml::array& layers) : layers_(layers) {
    for (const toml::node& n : layers_) names_.push_back(text(n.as_table()->get("name")));
    taken_.insert(names_.begin(), names_.end());
  }

  toml::array fold() {
    std::vector<Instance> units = instances();
    toml::array out;
    size_t at = 0;
    for (size_t u = 0; u < units.size();) {
      // The longest run of consecutive, equal instances from u.
      std::optional<std::string> body = body_of(units[u]);
      size_t v = u + 1;
      while (body && v < units.size() && units[v].prefix == units[u].prefix &&
             units[v].index == units[v - 1].index + 1 && units[v].begin == units[v - 1].end && body_of(units[v]) == body)
        ++v;
      // A block is named after its instances' prefix and that name must be new: a second
      // run under the same parent (squeezenet's features.3-4 and features.6-7 around a
      // pool) or a prefix that is a layer's own name stays flat, its layers keeping the
      // names the analysis shows.
      if (v - u < 2 || !taken_.insert(units[u].prefix).second) {
        ++u;
        continue;
      }
      for (; at < units[u].begin; ++at) out.push_back(renamed(*layers_[at].as_table()));
      toml::table block;
      block.insert("name", units[u].prefix);
      if (units[u].index != 0) block.insert("first", units[u].index);
      block.insert("repeat", static_cast<int64_t>(v - u));
      block.insert("body", body_array(units[u]));
      out.push_back(std::move(block));
      at = units[v - 1].end;
      u = v;
    }
    for (; at < layers_.size(); ++at) out.push_back(renamed(*layers_[at].as_table()));
    return out;
  }

 private:
  // Maximal stretches of layers that share one (prefix, index).
  std::vector<Instance> instances() {
    std::vector<Instance> units;
    for (size_t i = 0; i < names_.size(); ++i) {
      auto s = split(names_[i]);
      if (!s) continue;
      if (!units.empty() && units.back().end == i && units.back().prefix == s->first.prefix &&
          units.back().index == s->first.index) {
        units.back().end = i + 1;
      } else {
        Instance in = s->first;
        in.begin = i;
        in.end = i + 1;
        units.push_back(in);
      }
    }
    for (const Instance& in : units)  // an instance's own name ("layer1.1", a residual add) is renamed
      for (size_t i = in.begin; i < in.end; ++i)
        if (split(names_[i])->second.empty())
          rename_[names_[i]] = names_[i] + "." + text(layers_[i].as_table()->get("op"));
    return units;
  }

  std::string local(size_t i) const {
    std::string rest = split(names_[i])->second;
    return rest.empty() ? text(layers_[i].as_table()->get("op")) : rest;
  }

  // The instance's layers with local names and inputs ("@input" for the layer just before
  // it), or nothing when it reads anything else from outside.
  std::optional<toml::array> body_layers(const Instance& in) const {
    std::map<std::string, std::string> inside;
    for (size_t i = in.begin; i < in.end; ++i) inside[names_[i]] = local(i);
    std::string before = in.begin ? names_[in.begin - 1] : "";
    toml::array body;
    for (size_t i = in.begin; i < in.end; ++i) {
      toml::table t = *layers_[i].as_table();
      t.insert_or_assign("name", local(i));
      if (const toml::array* ins = t.get_as<toml::array>("inputs")) {
        toml::array mapped;
        for (const toml::node& r : *ins) {
          std::string ref = text(&r);
          if (inside.count(ref)) mapped.push_back(inside.at(ref));
          else if (!before.empty() && ref == before) mapped.push_back("@input");
          else return std::nullopt;
        }
        t.insert_or_assign("inputs", std::move(mapped));
      } else if (i == in.begin && !before.empty()) {
        // No inputs: a parameter, or the previous layer implicitly; both read the same in a block.
      }
      body.push_back(std::move(t));
    }
    return body;
  }
  std::optional<std::string> body_of(const Instance& in) const {
    std::optional<toml::array> b = body_layers(in);
    if (!b) return std::nullopt;
    std::ostringstream os;
    os << toml::toml_formatter(toml::table{{"body", *b}});
    return os.str();
  }
  toml::array body_array(const Instance& in) const { return *body_layers(in); }

  toml::table renamed(const toml::table& layer) const {
    toml::table t = layer;
    if (auto it = rename_.find(text(t.get("name"))); it != rename_.end()) t.insert_or_assign("name", it->second);
    // (a layer sharing a renamed one's weights, RAFT's update block in each of its 12
    // unrolled iterations, follows the new name)
    if (auto it = rename_.find(text(t.get("tied_to"))); it != rename_.end()) t.insert_or_assign("tied_to", it->second);
    if (const toml::array* ins = t.get_as<toml::array>("inputs")) {
      toml::array mapped;
      for (const toml::node& r : *ins) {
        auto it = rename_.find(text(&r));
        mapped.push_back(it == rename_.end() ? text(&r) : it->second);
      }
      t.insert_or_assign("inputs", std::move(mapped));
    }
    return t;
  }

  const toml::array& layers_;
  std::vector<std::string> names_;
  std::map<std::string, std::string> rename_;
  std::set<std::string> taken_;  // the layers' names and the blocks' so far
};

}  // namespace

toml::array fold_repeats(const toml::array& layers) { return Folder(layers).fold(); }

}  // namespace ridge
