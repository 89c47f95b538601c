// The one quotient every derived figure uses: num / den, or 0 when the denominator is
// not positive (a layer that takes no time attains no FLOP/s; a step of no time has
// no samples/s). Infinite needed bandwidth is the exception and says so where it arises.
#pragma once

namespace ridge {

inline double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

}  // namespace ridge
