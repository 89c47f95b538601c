// Integer expressions in model files: `seq + 1`, `hidden * 4`, `hidden / heads`,
// parentheses and unary minus over 64-bit integers and named parameters. Evaluation is
// exact: a division that leaves a remainder, a division by zero, an unknown name or
// 64-bit overflow is an InputError pointing at the offending character.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <optional>
#include <string_view>

#include "sim/base/error.hpp"

namespace ridge {

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
