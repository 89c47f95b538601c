// A descriptor's [power] and [price] tables: parsed to SI watts and US dollars, optional,
// strictly validated (a negative price or a power above 3 kW is a located error), and
// present with sources on every shipped GPU descriptor.
#include <gtest/gtest.h>

#include "hw/descriptor_reader.hpp"
#include "hw/hardware_catalog.hpp"

namespace ridge {
namespace {

const std::string kHead = R"(name = "Test GPU"
kind = "gpu"
source = "hand-written for tests"
[compute]
fp32 = "10 TFLOPS"
[[memory]]
name = "DRAM"
capacity = "8 GiB"
bandwidth = "500 GB/s"
)";

HardwareSpec parse(const std::string& tail, const std::string& head = kHead) {
  return HardwareDescriptor::from_text(head + tail, "test.toml", "test").spec({});
}

std::string failure(const std::string& tail, const std::string& head = kHead) {
  try {
    parse(tail, head);
  } catch (const InputError& e) {
    return to_string(e.where()) + ": " + e.what();
  }
  ADD_FAILURE() << "no InputError for " << tail;
  return {};
}

TEST(PowerPrice, AbsentTablesLeaveEveryFigureUnknown) {
  HardwareSpec s = parse("");
  EXPECT_FALSE(s.power.board_w);
  EXPECT_FALSE(s.power.max_w());
  EXPECT_FALSE(s.price.launch_usd);
  EXPECT_FALSE(s.price.cloud_usd_per_hour);
}

TEST(PowerPrice, ParsesWattsAndDollars) {
  HardwareSpec s = parse(R"([power]
board = "0.25 kW"
idle = "12 W"
process_nm = 16
[price]
launch_usd = 699
cloud_usd_per_hour = 0.9
cloud_offer = "a cloud, 2024"
)");
  EXPECT_DOUBLE_EQ(*s.power.board_w, 250);
  EXPECT_DOUBLE_EQ(*s.power.idle_w, 12);
  EXPECT_DOUBLE_EQ(*s.power.max_w(), 250);
  EXPECT_DOUBLE_EQ(*s.power.process_nm, 16);
  EXPECT_DOUBLE_EQ(*s.price.launch_usd, 699);
  EXPECT_DOUBLE_EQ(*s.price.cloud_usd_per_hour, 0.9);
  EXPECT_EQ(s.price.cloud_offer, "a cloud, 2024");
}

TEST(PowerPrice, AHostDrawsItsCpuAndDramPower) {
  std::string host = kHead;
  host.replace(host.find("\"gpu\""), 5, "\"cpu\"");
  HardwareSpec s = parse("[power]\ncpu = \"300 W\"\ndram = \"60 W\"\n", host);
  EXPECT_DOUBLE_EQ(*s.power.max_w(), 360);  // 300 + 60
}

TEST(PowerPrice, BadFiguresAreLocatedErrors) {
  // 7 kW is above the 3 kW bound: a kW-for-W typo.
  EXPECT_EQ(failure("[power]\nboard = \"7 kW\"\n").rfind("test.toml:11:9: power: 'board' is 7000 W, above", 0), 0u);
  EXPECT_NE(failure("[power]\nboard = \"-250 W\"\n").find("test.toml:11:9: power: 'board' must be positive"), std::string::npos);
  EXPECT_NE(failure("[price]\nlaunch_usd = -699\n").find("test.toml:11:14: price: 'launch_usd' must be a price greater than zero"),
            std::string::npos);
  EXPECT_NE(failure("[price]\nlaunch_usd = 0\n").find("must be a price greater than zero"), std::string::npos);
  EXPECT_NE(failure("[power]\nboard = \"100 W\"\nidle = \"150 W\"\n").find("'idle' (150 W) is above"), std::string::npos);
  EXPECT_NE(failure("[power]\ncpu = \"100 W\"\n").find("is a host's figure"), std::string::npos);
  EXPECT_NE(failure("[price]\ncloud_usd_per_hour = 1\n").find("needs a 'cloud_offer'"), std::string::npos);
  EXPECT_NE(failure("[power]\nbord = \"100 W\"\n").find("unknown key 'bord'"), std::string::npos);
  EXPECT_NE(failure("[power]\nboard = \"100 GB/s\"\n").find("is a bandwidth"), std::string::npos);
}

TEST(PowerPrice, OverridesReachTheNewKeys) {
  HardwareSpec s = load_hardware("v100", {"power.board=250 W", "price.launch_usd=100"});
  EXPECT_DOUBLE_EQ(*s.power.board_w, 250);
  EXPECT_DOUBLE_EQ(*s.price.launch_usd, 100);
}

TEST(PowerPrice, EveryShippedDescriptorHasBoardPowerIdlePowerAndALaunchPrice) {
  for (const std::string& name : shipped_hardware_names()) {
    SCOPED_TRACE(name);
    HardwareSpec s = load_hardware(name);
    ASSERT_TRUE(s.power.max_w());
    ASSERT_TRUE(s.power.idle_w);
    EXPECT_LT(*s.power.idle_w, *s.power.max_w());
    EXPECT_TRUE(s.power.process_nm);
    EXPECT_TRUE(s.price.launch_usd);
  }
}

TEST(PowerPrice, ThePurchaseQuestionsDevicesMatchTheirAnnouncements) {
  // GTX 1080 Ti: 250 W, $699 (NVIDIA GDC 2017); Titan X (Pascal): 250 W, $1,200 (NVIDIA,
  // 2016-07-21); K80: 300 W and $5,000 per two-GPU board, halved per GK210.
  HardwareSpec ti = load_hardware("gtx1080ti"), tx = load_hardware("titan-x-pascal"), k80 = load_hardware("k80");
  EXPECT_DOUBLE_EQ(*ti.power.board_w, 250);
  EXPECT_DOUBLE_EQ(*ti.price.launch_usd, 699);
  EXPECT_DOUBLE_EQ(*tx.price.launch_usd, 1200);
  EXPECT_DOUBLE_EQ(*k80.power.board_w, 150);
  EXPECT_DOUBLE_EQ(*k80.price.launch_usd, 2500);
  // 1080 Ti FP32: 3584 cores x 2 FLOPs x 1.582 GHz = 11.34 TFLOP/s; K80 half board 8.73 / 2.
  EXPECT_NEAR(*ti.peak(DType::fp32), 3584 * 2 * 1.582e9, 0.01e12);
  EXPECT_NEAR(*k80.peak(DType::fp32), 8.73e12 / 2, 0.01e12);
  EXPECT_FALSE(k80.peak(DType::fp16));  // Kepler has no FP16 arithmetic
}

}  // namespace
}  // namespace ridge
