// Integer expression evaluation (see int_expression.hpp): a recursive-descent parser
//   expr   = term { ('+' | '-') term }
//   term   = unary { ('*' | '/') unary }
//   unary  = '-' unary | atom
//   atom   = integer | name | '(' expr ')'
// names are [A-Za-z_][A-Za-z0-9_]*. Nesting is bounded by kMaxExpressionDepth.
#include "sim/base/int_expression.hpp"

#include <cctype>
#include <limits>
#include <string>

#include "sim/base/checked_math.hpp"

namespace ridge {

namespace {

class Parser {
 public:
  Parser(std::string_view text, const NameLookup& lookup, const SourceLoc& where,
         const std::function<std::string(std::string_view)>& unknown_hint)
      : text_(text), lookup_(lookup), where_(where), unknown_hint_(unknown_hint) {}

  int64_t parse() {
    skip_space();
    if (pos_ == text_.size()) fail(0, "empty expression");
    int64_t v = expr();
    if (pos_ != text_.size()) fail(pos_, "unexpected '" + std::string(1, text_[pos_]) + "' in expression");
    return v;
  }

 private:
  [[noreturn]] void fail(size_t at, const std::string& what, std::string hint = {}) const {
    SourceLoc loc = where_;
    if (loc.line > 0) loc.column += static_cast<int64_t>(at);
    // A long expression is shown by its start (a 40 KB one filled the terminal).
    const std::string shown = text_.size() <= 80 ? std::string(text_) : std::string(text_.substr(0, 60)) + "...";
    throw InputError(loc, what + " (got \"" + shown + "\")", std::move(hint));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool take(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      skip_space();
      return true;
    }
    return false;
  }

  // Counts one level of parentheses or unary minus while it is parsed; the parser
  // recurses once per level, so the bound keeps a hostile file off the stack's end.
  class Nesting {
   public:
    Nesting(Parser& p, size_t at) : p_(p) {
      if (++p_.depth_ > kMaxExpressionDepth)
        p_.fail(at, "the expression is nested more than " + std::to_string(kMaxExpressionDepth) +
                        " deep (parentheses and unary minus)");
    }
    ~Nesting() { --p_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& p_;
  };

  int64_t guarded(size_t at, int64_t (*op)(int64_t, int64_t), int64_t a, int64_t b) const {
    try {
      return op(a, b);
    } catch (const CountOverflow&) {
      fail(at, "the expression overflows 64 bits");
    }
  }

  int64_t expr() {
    int64_t v = term();
    for (;;) {
      size_t at = pos_;
      if (take('+')) v = guarded(at, checked_add, v, term());
      else if (take('-')) v = guarded(at, [](int64_t a, int64_t b) { return checked_add(a, checked_mul(b, -1)); }, v, term());
      else return v;
    }
  }

  int64_t term() {
    int64_t v = unary();
    for (;;) {
      size_t at = pos_;
      if (take('*')) {
        v = guarded(at, checked_mul, v, unary());
      } else if (take('/')) {
        int64_t d = unary();
        if (d == 0) fail(at, "division by zero");
        if (d == -1 && v == std::numeric_limits<int64_t>::min()) fail(at, "the expression overflows 64 bits");
        if (v % d != 0)
          fail(at, std::to_string(v) + " / " + std::to_string(d) + " is not a whole number",
               "sizes must divide exactly; check the parameters");
        v /= d;
      } else {
        return v;
      }
    }
  }

  int64_t unary() {
    size_t at = pos_;
    if (take('-')) {
      Nesting n(*this, at);
      return guarded(at, checked_mul, unary(), -1);
    }
    return atom();
  }

  int64_t atom() {
    skip_space();
    if (pos_ == text_.size()) fail(pos_, "expression ends too early");
    size_t start = pos_;
    char c = text_[pos_];
    if (c == '(') {
      Nesting n(*this, pos_);
      ++pos_;
      skip_space();
      int64_t v = expr();
      if (!take(')')) fail(pos_, "missing ')'");
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        int64_t digit = text_[pos_] - '0';
        try {
          v = checked_add(checked_mul(v, 10), digit);
        } catch (const CountOverflow&) {
          fail(start, "the number overflows 64 bits");
        }
        ++pos_;
      }
      skip_space();
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
      std::string_view name = text_.substr(start, pos_ - start);
      std::optional<int64_t> v = lookup_ ? lookup_(name) : std::nullopt;
      if (!v) fail(start, "unknown name '" + std::string(name) + "'", unknown_hint_ ? unknown_hint_(name) : std::string());
      skip_space();
      return *v;
    }
    fail(pos_, "unexpected '" + std::string(1, c) + "' in expression");
  }

  std::string_view text_;
  const NameLookup& lookup_;
  const SourceLoc& where_;
  const std::function<std::string(std::string_view)>& unknown_hint_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

int64_t evaluate_int_expression(std::string_view text, const NameLookup& lookup, const SourceLoc& where,
                                const std::function<std::string(std::string_view)>& unknown_hint) {
  return Parser(text, lookup, where, unknown_hint).parse();
}

}  // namespace ridge
