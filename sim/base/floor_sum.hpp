// floor_sum(n, m, a, b) = sum over i in [0, n) of floor((a i + b) / m), in O(log m) steps
// instead of n: the count of lattice points under a line, reduced Euclid-style (a or b
// at least m splits off a closed-form part; otherwise the roles of a and m swap). Pooling
// uses it to count the window taps that fall inside the input when a kernel or an
// input axis is too long to walk.
#pragma once

#include <cstdint>

namespace ridge {

// n, a, b >= 0 and m >= 1. Every term is >= 0, so no partial sum exceeds the result;
// the products are taken in 128 bits, and a result past 2^63 throws CountOverflow.
int64_t floor_sum(int64_t n, int64_t m, int64_t a, int64_t b);

}  // namespace ridge
