// An Einsum equation of two operands ("bhqd,bhkd->bhqk"), read as the product it is:
// each letter names an axis; a letter in both operands and the output is a batch axis,
// one in both operands only is summed over (contracted), one in an operand and the
// output is free. Its MACs are the product of every distinct letter's extent.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/workload/shape.hpp"

namespace ridge {

// Why an equation is not one ridge models; what() reads after the equation
// ("equation 'ii,i->i' takes a diagonal ('i' twice in operand 1)").
class EinsumError : public std::runtime_error {
 public:
  explicit EinsumError(const std::string& what) : std::runtime_error(what) {}
};

struct EinsumEquation {
  std::string a, b, out;  // the axis letters of each operand and of the output

  // "a,b->out".
  std::string text() const;
  // The equation with the axis `letter` taken out of every term that has it.
  EinsumEquation without(char letter) const;
};

// Reads `text` (spaces ignored): two operands, an explicit output, letters a-z and A-Z
// only, none twice in one term, every output letter in an operand and every operand
// letter in the other operand or the output (an axis summed in one operand alone is not
// a product). Throws EinsumError.
EinsumEquation parse_einsum(std::string_view text);

// The output's shape for operands of shapes `a` and `b`, and the MACs of the product
// (every distinct letter's extent multiplied). Throws EinsumError where a rank differs
// from its term's letters or a letter's two extents differ.
struct EinsumProduct {
  Shape output;
  int64_t macs = 0;
};
EinsumProduct einsum_product(const EinsumEquation& e, const Shape& a, const Shape& b);

}  // namespace ridge
