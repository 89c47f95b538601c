// floor_sum: the sum of floor((a i + b) / m) over i in [0, n), without a loop over i.
#include "sim/base/floor_sum.hpp"

#include <limits>
#include <utility>

#include "sim/base/checked_math.hpp"

namespace ridge {

int64_t floor_sum(int64_t n_in, int64_t m_in, int64_t a_in, int64_t b_in) {
  __extension__ typedef unsigned __int128 u128;  // no -Wpedantic: GCC and Clang both have it
  u128 n = static_cast<u128>(n_in), m = static_cast<u128>(m_in), a = static_cast<u128>(a_in),
       b = static_cast<u128>(b_in), sum = 0;
  const u128 limit = static_cast<u128>(std::numeric_limits<int64_t>::max());
  while (n > 0) {
    if (a >= m) {  // floor((a i + b)/m) = (a/m) i + floor(((a%m) i + b)/m)
      u128 pairs = n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);  // n (n - 1) / 2 < 2^126
      if (a / m != 0 && pairs > limit / (a / m)) throw CountOverflow();
      sum += pairs * (a / m);
      a %= m;
    }
    if (b >= m) {
      if (n > limit / (b / m)) throw CountOverflow();
      sum += n * (b / m);
      b %= m;
    }
    if (sum > limit) throw CountOverflow();
    u128 top = a * n + b;  // a, b < m <= 2^63 and n <= 2^63: below 2^127
    if (top < m) break;
    // The same lattice points counted by rows instead of columns: a sum of the same
    // form with top / m terms and the roles of m and a swapped.
    n = top / m;
    b = top % m;
    std::swap(m, a);
  }
  return static_cast<int64_t>(sum);
}

}  // namespace ridge
