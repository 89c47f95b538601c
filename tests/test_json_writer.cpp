// ridge's JSON writer over nlohmann's ordered_json: keys in insertion order, dotted keys
// nested, doubles in their shortest round-trip text (as CSV writes them), non-finite
// numbers as null, arrays of scalars on one line. Expected texts written by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "sim/views/json.hpp"

namespace ridge {
namespace {

TEST(JsonWriter, ShortestRoundTripDoublesAndExactIntegers) {
  Json j = Json::object();
  j["whole"] = 100.0;  // nlohmann's own dump writes "100.0"
  j["tenth"] = 0.1;
  j["micro"] = 5e-06;
  j["third"] = 1.0 / 3;
  j["big"] = int64_t{1} << 62;
  j["nan"] = std::nan("");
  j["inf"] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(dump_json(j, 0),
            "{\"whole\":100,\"tenth\":0.1,\"micro\":5e-06,\"third\":0.3333333333333333,"
            "\"big\":4611686018427387904,\"nan\":null,\"inf\":null}\n");
}

TEST(JsonWriter, KeysKeepOrderAndDottedKeysNest) {
  Json j = Json::object();
  j["z"] = 1;
  set_path(j, "bw.input", 2);
  j["a"] = 3;
  set_path(j, "bw.output", 4);
  j["z"] = 5;  // replaced in place, not moved to the end
  EXPECT_EQ(dump_json(j, 0), "{\"z\":5,\"bw\":{\"input\":2,\"output\":4},\"a\":3}\n");
}

TEST(JsonWriter, ScalarArraysOnOneLineObjectsIndented) {
  Json j = Json::object();
  j["shape"] = Json::array({1, 96, 55, 55});
  Json layer = Json::object();
  layer["name"] = "conv1";
  j["layers"] = Json::array({layer});
  j["empty"] = Json::array();
  EXPECT_EQ(dump_json(j),
            "{\n"
            "  \"shape\": [1, 96, 55, 55],\n"
            "  \"layers\": [\n"
            "    {\n"
            "      \"name\": \"conv1\"\n"
            "    }\n"
            "  ],\n"
            "  \"empty\": []\n"
            "}\n");
}

TEST(JsonWriter, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(json_escape("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
}

}  // namespace
}  // namespace ridge
