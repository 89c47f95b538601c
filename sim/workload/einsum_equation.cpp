// Reading an Einsum equation and sizing its product (einsum_equation.hpp).
#include "sim/workload/einsum_equation.hpp"

#include <map>

#include "sim/base/checked_math.hpp"

namespace ridge {

namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

void check_term(const std::string& term, const std::string& what) {
  for (size_t i = 0; i < term.size(); ++i) {
    if (!is_letter(term[i]))
      throw EinsumError("has '" + std::string(1, term[i]) + "' in " + what + " (axes are letters a-z, A-Z)");
    if (term.find(term[i], i + 1) != std::string::npos)
      throw EinsumError("takes a diagonal ('" + std::string(1, term[i]) + "' twice in " + what + ")");
  }
}

bool has(const std::string& term, char c) { return term.find(c) != std::string::npos; }

}  // namespace

std::string EinsumEquation::text() const { return a + "," + b + "->" + out; }

EinsumEquation EinsumEquation::without(char letter) const {
  EinsumEquation e = *this;
  for (std::string* t : {&e.a, &e.b, &e.out}) std::erase(*t, letter);
  return e;
}

EinsumEquation parse_einsum(std::string_view text) {
  std::string e(text);
  std::erase(e, ' ');
  if (e.find("...") != std::string::npos) throw EinsumError("has '...' (broadcast axes), which ridge does not model");
  const size_t arrow = e.find("->");
  if (arrow == std::string::npos) throw EinsumError("has no '->' (ridge reads an explicit output)");
  const std::string ins = e.substr(0, arrow);
  const size_t comma = ins.find(',');
  if (comma == std::string::npos || ins.find(',', comma + 1) != std::string::npos)
    throw EinsumError("does not have two operands");
  EinsumEquation q{ins.substr(0, comma), ins.substr(comma + 1), e.substr(arrow + 2)};
  check_term(q.a, "operand 1");
  check_term(q.b, "operand 2");
  check_term(q.out, "the output");
  for (char c : q.out)
    if (!has(q.a, c) && !has(q.b, c))
      throw EinsumError("has output axis '" + std::string(1, c) + "' in neither operand");
  for (const auto& [term, other, what] : {std::tuple{&q.a, &q.b, "operand 1"}, std::tuple{&q.b, &q.a, "operand 2"}})
    for (char c : *term)
      if (!has(*other, c) && !has(q.out, c))
        throw EinsumError("sums axis '" + std::string(1, c) + "' of " + what +
                          " alone (in neither the other operand nor the output), which is not a product");
  return q;
}

EinsumProduct einsum_product(const EinsumEquation& e, const Shape& a, const Shape& b) {
  std::map<char, int64_t> extent;
  for (const auto& [term, shape, what] : {std::tuple{&e.a, &a, "operand 1"}, std::tuple{&e.b, &b, "operand 2"}}) {
    if (term->size() != shape->size())
      throw EinsumError(std::string(what) + " has shape " + shape_to_string(*shape) + " but '" + *term + "' names " +
                        std::to_string(term->size()) + " axes");
    for (size_t i = 0; i < term->size(); ++i) {
      auto [it, fresh] = extent.emplace((*term)[i], (*shape)[i]);
      if (!fresh && it->second != (*shape)[i])
        throw EinsumError("axis '" + std::string(1, (*term)[i]) + "' is " + std::to_string(it->second) +
                          " in operand 1 but " + std::to_string((*shape)[i]) + " in operand 2");
    }
  }
  EinsumProduct p;
  for (char c : e.out) p.output.push_back(extent.at(c));
  p.macs = 1;
  for (const auto& [letter, n] : extent) p.macs = checked_mul(p.macs, n);
  return p;
}

}  // namespace ridge
