// Datasheet-style quantities against values worked out by hand.
#include <gtest/gtest.h>

#include "sim/base/units.hpp"

namespace ridge {
namespace {

double si(std::string_view text, Quantity kind) {
  QuantityResult r = parse_quantity(text, kind);
  EXPECT_TRUE(r.value) << text << ": " << r.error;
  return r.value.value_or(-1);
}

std::string error_of(std::string_view text, Quantity kind) {
  QuantityResult r = parse_quantity(text, kind);
  EXPECT_FALSE(r.value) << text << " parsed as " << r.value.value_or(0);
  return r.error;
}

TEST(Units, Bandwidths) {
  EXPECT_DOUBLE_EQ(si("900 GB/s", Quantity::bandwidth), 900e9);
  EXPECT_DOUBLE_EQ(si("1.5 TB/s", Quantity::bandwidth), 1.5e12);
  EXPECT_DOUBLE_EQ(si("15.75 GB/s", Quantity::bandwidth), 15.75e9);
  EXPECT_DOUBLE_EQ(si("19.2 GB/s", Quantity::bandwidth), 19.2e9);
  EXPECT_DOUBLE_EQ(si("1 GiB/s", Quantity::bandwidth), 1073741824.0);
  EXPECT_DOUBLE_EQ(si("  2TB/s ", Quantity::bandwidth), 2e12);  // spaces around and none between
}

TEST(Units, ComputeRates) {
  EXPECT_DOUBLE_EQ(si("125 TFLOPS", Quantity::flops), 125e12);
  EXPECT_DOUBLE_EQ(si("312 TFLOP/s", Quantity::flops), 312e12);
  EXPECT_DOUBLE_EQ(si("989.4 TFLOPS", Quantity::flops), 989.4e12);
  EXPECT_DOUBLE_EQ(si("1.2 PFLOPS", Quantity::flops), 1.2e15);
  EXPECT_DOUBLE_EQ(si("500 GFLOPS", Quantity::flops), 500e9);
  EXPECT_DOUBLE_EQ(si("624 TOPS", Quantity::ops), 624e12);
  EXPECT_DOUBLE_EQ(si("624 TOP/s", Quantity::ops), 624e12);
  EXPECT_DOUBLE_EQ(si("624 TFLOPS", Quantity::ops), 624e12);  // int8 peaks are sometimes written so
  EXPECT_NE(error_of("624 TOPS", Quantity::flops), "");        // but a float peak is never in OPS
}

TEST(Units, SizesDecimalAndBinary) {
  EXPECT_DOUBLE_EQ(si("16 GiB", Quantity::size), 16.0 * 1024 * 1024 * 1024);  // 17,179,869,184
  EXPECT_DOUBLE_EQ(si("6 MiB", Quantity::size), 6.0 * 1024 * 1024);           // 6,291,456
  EXPECT_DOUBLE_EQ(si("40 MB", Quantity::size), 40e6);
  EXPECT_DOUBLE_EQ(si("256 KiB", Quantity::size), 262144.0);
  EXPECT_DOUBLE_EQ(si("64 KB", Quantity::size), 64e3);  // K = k = 1000, as SI
}

TEST(Units, TransferRatesFrequenciesTimes) {
  EXPECT_DOUBLE_EQ(si("2933 MT/s", Quantity::transfer_rate), 2933e6);
  EXPECT_DOUBLE_EQ(si("4.8 GT/s", Quantity::transfer_rate), 4.8e9);
  EXPECT_DOUBLE_EQ(si("2.5 GHz", Quantity::frequency), 2.5e9);
  EXPECT_DOUBLE_EQ(si("1530 MHz", Quantity::frequency), 1.53e9);
  EXPECT_DOUBLE_EQ(si("5 us", Quantity::time), 5e-6);
  EXPECT_DOUBLE_EQ(si("4.5 \u00b5s", Quantity::time), 4.5e-6);  // micro sign
  EXPECT_DOUBLE_EQ(si("4.5 \u03bcs", Quantity::time), 4.5e-6);  // Greek mu
  EXPECT_DOUBLE_EQ(si("10 ns", Quantity::time), 10e-9);
  EXPECT_DOUBLE_EQ(si("1 ms", Quantity::time), 1e-3);
  EXPECT_DOUBLE_EQ(si("1e-6 s", Quantity::time), 1e-6);
}

TEST(Units, ZeroOnlyWhereAllowed) {
  EXPECT_NE(error_of("0 GB/s", Quantity::bandwidth).find("greater than zero"), std::string::npos);
  QuantityResult r = parse_quantity("0 us", Quantity::time, /*allow_zero=*/true);
  ASSERT_TRUE(r.value);
  EXPECT_EQ(*r.value, 0.0);
}

TEST(Units, BadValuesSayWhatIsWrong) {
  EXPECT_NE(error_of("-5 GB/s", Quantity::bandwidth).find("positive"), std::string::npos);
  EXPECT_NE(error_of("900", Quantity::bandwidth).find("no unit"), std::string::npos);
  EXPECT_NE(error_of("900 Gb/s", Quantity::bandwidth).find("unknown unit 'Gb/s'"), std::string::npos);
  EXPECT_NE(error_of("GB/s", Quantity::bandwidth).find("number"), std::string::npos);
  EXPECT_NE(error_of("9.0.0 GB/s", Quantity::bandwidth), "");
  EXPECT_NE(error_of("", Quantity::bandwidth).find("empty"), std::string::npos);
  EXPECT_NE(error_of("nan GB/s", Quantity::bandwidth), "");
  EXPECT_NE(error_of("1e999 GB/s", Quantity::bandwidth), "");
  // A unit of another kind is named as such.
  EXPECT_NE(error_of("16 GiB", Quantity::bandwidth).find("is a size"), std::string::npos);
  EXPECT_NE(error_of("2.5 GHz", Quantity::time).find("is a frequency"), std::string::npos);
  EXPECT_NE(error_of("5 Us", Quantity::time).find("unknown unit"), std::string::npos);  // case matters
}

// Issue #9: a datasheet value is the double its decimal text names, rounded once, so the
// exact views print "5e-06", not "4.9999999999999996e-06" (5 x 1e-6 rounds twice).
TEST(Units, DecimalPrefixesRoundOnce) {
  EXPECT_EQ(parse_quantity("5 us", Quantity::time).value, 5e-6);
  EXPECT_EQ(parse_quantity("2.039 TB/s", Quantity::bandwidth).value, 2.039e12);
  EXPECT_EQ(parse_quantity("15.75 GB/s", Quantity::bandwidth).value, 15.75e9);
  EXPECT_EQ(parse_quantity("1.5e3 GB/s", Quantity::bandwidth).value, 1.5e12);
  EXPECT_EQ(parse_quantity("16 GiB", Quantity::size).value, 16.0 * 1024 * 1024 * 1024);  // binary: exact anyway
}

}  // namespace
}  // namespace ridge
