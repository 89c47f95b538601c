// 64-bit counting arithmetic that refuses to wrap. Element and MAC counts of large
// models reach 1e15; a user's shape can push them past 2^63, which is an error, not
// a wrap. Callers that know the location turn CountOverflow into an InputError.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <stdexcept>

namespace ridge {

class CountOverflow : public std::overflow_error {
 public:
  CountOverflow() : std::overflow_error("a count overflows 64 bits") {}
};

inline int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw CountOverflow();
  return r;
}

inline int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw CountOverflow();
  return r;
}

inline int64_t checked_product(std::initializer_list<int64_t> xs) {
  int64_t r = 1;
  for (int64_t x : xs) r = checked_mul(r, x);
  return r;
}

}  // namespace ridge
