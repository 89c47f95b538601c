// Integer expressions in model files: `seq + 1`, `hidden * 4`, `hidden / heads`,
// parentheses and unary minus over 64-bit integers and named parameters. Evaluation is
// exact: a division that leaves a remainder, a division by zero, an unknown name,
// 64-bit overflow or nesting deeper than kMaxExpressionDepth is an InputError pointing
// at the offending character.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <optional>
#include <string_view>

#include "sim/base/error.hpp"

namespace ridge {

// Parentheses and unary minus nest at most this deep (the parser recurses per level;
// 20,000 levels overflowed the stack). Model files use 2 or 3.
constexpr int kMaxExpressionDepth = 64;

// A [params] entry may be defined through at most this many others in a chain
// (a1 = "a0", a2 = "a1", ...): each link is one more level of recursion.
constexpr size_t kMaxParamChain = 64;

// Named integers of a model file's [params] table, after overrides.
using IntParams = std::map<std::string, int64_t, std::less<>>;

// The value of a name, or nothing when the name is unknown.
using NameLookup = std::function<std::optional<int64_t>(std::string_view name)>;

// Evaluates `text`; `where` is the location of its first character (errors add the
// offset within the text to the column). `unknown_hint` is called for an unknown name
// to build the error's hint.
int64_t evaluate_int_expression(std::string_view text, const NameLookup& lookup, const SourceLoc& where,
                                const std::function<std::string(std::string_view)>& unknown_hint = {});

}  // namespace ridge
