// The input's symbolic dimensions kept in an imported model file (symbolic_params.hpp). The translator works on concrete sizes, so the sizes that follow
// the dimensions are found by translating the graph again at other sizes: with k
// dimensions d_i of the given sizes g_i, at every point d_i = t_i * g_i with t_i in
// {1, 2} (2^k translations). Every integer of the model table is taken to be a
// multilinear function of the dimensions, f = sum over subsets S of b_S * prod_{i in S}
// t_i (a constant, seq * 64, height * width / 256, ...); the 2^k points give the b_S
// exactly (integers: the inverse of [[1, 1], [1, 2]] is [[2, -1], [-1, 1]] per axis), and
// a translation at t_i = 3 for all i checks them. A value that varies is written as the
// expression b_S / prod g_i * prod d_i summed over S, over the [params] the dimensions
// become. Anything else that differs between the translations (a layer more, a string,
// a real number), a check that fails or a translation refused makes the sizes given
// stay fixed, said in a note. Four dimensions at most are kept (16 translations).
#include "sim/workload/onnx/symbolic_params.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <type_traits>

#include "sim/base/checked_math.hpp"
#include "sim/base/error.hpp"

namespace ridge::onnx_import {

namespace {

constexpr size_t kMaxKeptDims = 4;

struct Dim {
  std::string name;
  int64_t size = 0;  // as given
};

// sum over S of b_S * prod_{i in S} d_i / g_i as an expression over the dimension names.
std::string expression(const std::vector<Dim>& dims, const std::vector<int64_t>& b) {
  std::string text;
  for (size_t s = b.size(); s-- > 0;) {
    if (b[s] == 0) continue;
    int64_t p = b[s], q = 1;
    std::string names;
    for (size_t i = 0; i < dims.size(); ++i)
      if (s >> i & 1) {
        q = checked_mul(q, dims[i].size);
        names += (names.empty() ? "" : " * ") + dims[i].name;
      }
    const int64_t g = std::gcd(p, q);
    p /= g;
    q /= g;
    const bool negative = p < 0;
    const int64_t magnitude = negative ? -p : p;
    std::string term = names.empty() ? std::to_string(magnitude) : names;
    if (!names.empty() && magnitude != 1) term += " * " + std::to_string(magnitude);
    if (q != 1) term += " / " + std::to_string(q);
    text += text.empty() ? (negative ? "-" + term : term) : (negative ? " - " : " + ") + term;
  }
  return text.empty() ? "0" : text;
}

// The outcome of fitting one value over the probes.
struct Fit {
  bool ok = true;
  std::optional<std::string> expression = std::nullopt;  // an integer that varies: its expression
};

// Two leaves (a string, a real number, a boolean) with the same type and value.
bool same_leaf(const toml::node& a, const toml::node& b) {
  if (a.type() != b.type()) return false;
  if (a.is_string()) return a.as_string()->get() == b.as_string()->get();
  if (a.is_floating_point()) return a.as_floating_point()->get() == b.as_floating_point()->get();
  if (a.is_boolean()) return a.as_boolean()->get() == b.as_boolean()->get();
  return false;  // a date or time: never in a model table
}

Fit fit(const std::vector<Dim>& dims, toml::node& out, const std::vector<const toml::node*>& grid,
        const toml::node& check);

// An integer leaf: b_S by the per-axis inverse [[2, -1], [-1, 1]] over the grid, checked
// at t = 3 (sum_S b_S * 3^|S|).
Fit fit_integer(const std::vector<Dim>& dims, const std::vector<const toml::node*>& grid, const toml::node& check) {
  std::vector<int64_t> f;
  for (const toml::node* n : grid) {
    if (!n->is_integer()) return {false};
    f.push_back(n->as_integer()->get());
  }
  if (!check.is_integer()) return {false};
  if (std::all_of(f.begin(), f.end(), [&](int64_t v) { return v == f[0]; })) return {check.as_integer()->get() == f[0]};
  std::vector<int64_t> b(f.size(), 0);
  int64_t at_check = 0;
  for (size_t s = 0; s < b.size(); ++s) {
    int64_t power = 1;
    for (size_t point = 0; point < f.size(); ++point) {
      int64_t weight = 1;
      for (size_t i = 0; i < dims.size(); ++i) {
        const bool in_s = s >> i & 1, doubled = point >> i & 1;
        weight *= in_s ? (doubled ? 1 : -1) : (doubled ? -1 : 2);
      }
      b[s] = checked_add(b[s], checked_mul(weight, f[point]));
    }
    for (size_t i = 0; i < dims.size(); ++i)
      if (s >> i & 1) power *= 3;
    at_check = checked_add(at_check, checked_mul(b[s], power));
  }
  if (at_check != check.as_integer()->get()) return {false};
  return {true, expression(dims, b)};
}

// The values of `key` (a table's) or of index `key` (an array's) at every probe.
template <typename Key>
std::optional<std::vector<const toml::node*>> children(const std::vector<const toml::node*>& grid, const Key& key,
                                                        size_t size) {
  std::vector<const toml::node*> at;
  for (const toml::node* n : grid) {
    const toml::node* v = nullptr;
    if constexpr (std::is_same_v<Key, size_t>) {
      if (n->is_array() && n->as_array()->size() == size) v = n->as_array()->get(key);
    } else if (n->is_table() && n->as_table()->size() == size) {
      v = n->as_table()->get(key);
    }
    if (!v) return std::nullopt;
    at.push_back(v);
  }
  return at;
}

// Fits the values of `out` (a copy of the base translation) over the probes, replacing
// each integer that varies by its expression.
Fit fit(const std::vector<Dim>& dims, toml::node& out, const std::vector<const toml::node*>& grid,
        const toml::node& check) {
  if (out.is_integer()) return fit_integer(dims, grid, check);
  if (toml::table* t = out.as_table()) {
    std::vector<const toml::node*> with_check = grid;
    with_check.push_back(&check);
    std::vector<std::pair<std::string, std::string>> replaced;
    for (auto&& [key, value] : *t) {
      auto at = children(with_check, std::string_view(key.str()), t->size());
      if (!at) return {false};
      const toml::node* c = at->back();
      at->pop_back();
      Fit f = fit(dims, value, *at, *c);
      if (!f.ok) return f;
      if (f.expression) replaced.emplace_back(key.str(), *f.expression);
    }
    for (auto& [key, text] : replaced) t->insert_or_assign(key, std::move(text));
    return {};
  }
  if (toml::array* a = out.as_array()) {
    std::vector<const toml::node*> with_check = grid;
    with_check.push_back(&check);
    for (size_t i = 0; i < a->size(); ++i) {
      auto at = children(with_check, i, a->size());
      if (!at) return {false};
      const toml::node* c = at->back();
      at->pop_back();
      Fit f = fit(dims, *a->get(i), *at, *c);
      if (!f.ok) return f;
      if (f.expression) a->replace(a->cbegin() + static_cast<std::ptrdiff_t>(i), *f.expression);
    }
    return {};
  }
  // A string, real number or boolean: the same at every probe.
  for (const toml::node* n : grid)
    if (!same_leaf(*n, out)) return {false};
  return {same_leaf(check, out)};
}

toml::table kept_symbolic_dims(const OnnxFile& model, const std::string& file, const OnnxOptions& options) {
  toml::table base = translate_model(model, file, options);
  if (options.dims.empty() || !options.inputs.empty()) return base;
  std::vector<Dim> dims;
  for (const auto& [name, value] : options.dims) dims.push_back({name, std::stoll(value)});  // checked by the translation
  std::string named;
  for (const Dim& d : dims) named += (named.empty() ? "" : ", ") + d.name + " = " + std::to_string(d.size);
  // The note the translation wrote about the sizes given is replaced by what the file does with them.
  toml::array notes;
  if (const toml::array* n = base.get_as<toml::array>("notes"))
    for (const toml::node& note : *n)
      if (!note.value_or(std::string()).starts_with(kSymbolicSizesNote)) notes.push_back(note);
  toml::table out = base;
  out.erase("notes");
  Fit fitted{false};
  try {
    auto at = [&](auto times) {
      OnnxOptions o = options;
      for (size_t i = 0; i < dims.size(); ++i) o.dims[i].second = std::to_string(checked_mul(dims[i].size, times(i)));
      toml::table t = translate_model(model, file, o);
      t.erase("notes");
      return t;
    };
    if (dims.size() <= kMaxKeptDims) {
      std::vector<toml::table> grid;
      for (size_t point = 0; point < (size_t{1} << dims.size()); ++point)
        grid.push_back(at([&](size_t i) -> int64_t { return (point >> i & 1) ? 2 : 1; }));
      const toml::table check = at([](size_t) -> int64_t { return 3; });
      std::vector<const toml::node*> nodes;
      for (const toml::table& t : grid) nodes.push_back(&t);
      fitted = fit(dims, out, nodes, check);
    }
  } catch (const InputError&) {  // refused at another size: the sizes given stay
  } catch (const CountOverflow&) {
  }
  if (!fitted.ok) {
    notes.push_back("the input's symbolic dimensions stay fixed in this file (" + named +
                    "): the graph's sizes do not follow them as a product of the dimensions (checked at 1, 2 and 3 "
                    "times these); import again with other --set model.NAME=N to change them");
    base.insert_or_assign("notes", std::move(notes));
    return base;
  }
  toml::table params;
  for (const Dim& d : dims) params.insert(d.name, d.size);
  out.insert("params", std::move(params));
  notes.push_back("the input's symbolic dimensions are the file's [params] (" + named +
                  " as imported): --set model.NAME=N sizes them");
  out.insert("notes", std::move(notes));
  return out;
}

}  // namespace

}  // namespace ridge::onnx_import

namespace ridge {

toml::table onnx_import_table(const std::string& path, const OnnxOptions& options) {
  return onnx_import::kept_symbolic_dims(onnx_import::read_onnx_in_place(path), path, options);
}

}  // namespace ridge
