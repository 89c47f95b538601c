// GEMM wave quantisation (hw/gemm_waves.hpp): tiles spread over the compute units in waves.
// Expected fractions are counted by hand: tiles = ceil(M / 128) x ceil(N / 128) on the
// descriptor's units, busy share = tiles / (waves x units).
#include <gtest/gtest.h>

#include "hw/descriptor_reader.hpp"
#include "hw/gemm_waves.hpp"
#include "hw/hardware_catalog.hpp"
#include "hw/model_registry.hpp"

using namespace ridge;

namespace {

HardwareSpec a100_like() {
  HardwareSpec hw;
  hw.peak_flops[DType::fp16] = 312e12;
  hw.compute_units = 108;
  hw.gemm_tile_rows = hw.gemm_tile_cols = 128;
  return hw;
}

double flops(double m, double n, double k) { return 2 * m * n * k; }

}  // namespace

TEST(GemmWaves, AFewTilesLeaveMostUnitsIdle) {
  HardwareSpec hw = a100_like();
  // Llama-2-7B's output projection over a 128-token prompt: 1 x 32 tiles on 108 SMs.
  EXPECT_DOUBLE_EQ(gemm_wave_efficiency(flops(128, 4096, 4096), 128, 4096, hw, DType::fp16), 32.0 / 108);
  // Its fused gate and up projections (N = 22016): 1 x 172 tiles, two waves of 108.
  EXPECT_DOUBLE_EQ(gemm_wave_efficiency(flops(128, 22016, 4096), 128, 4096, hw, DType::fp16), 172.0 / 216);
  // 4096 rows: 32 x 32 = 1024 tiles, 10 waves (1080 slots).
  EXPECT_DOUBLE_EQ(gemm_wave_efficiency(flops(4096, 4096, 4096), 4096, 4096, hw, DType::fp16), 1024.0 / 1080);
  // A part tile counts as a tile: 129 rows are 2 x 32 tiles.
  EXPECT_DOUBLE_EQ(gemm_wave_efficiency(flops(129, 4096, 4096), 129, 4096, hw, DType::fp16), 64.0 / 108);
}

TEST(GemmWaves, OnlyGemmsOnDescriptorsThatGiveTheUnits) {
  HardwareSpec hw = a100_like();
  EXPECT_EQ(gemm_wave_efficiency(1e9, 0, 4096, hw, DType::fp16), 1.0);  // no GEMM (an elementwise layer)
  // fp32 GEMMs run on the CUDA cores with other tiles: left alone.
  EXPECT_EQ(gemm_wave_efficiency(flops(128, 4096, 4096), 128, 4096, hw, DType::fp32), 1.0);
  HardwareSpec plain;
  EXPECT_EQ(gemm_wave_efficiency(flops(128, 4096, 4096), 128, 4096, plain, DType::fp16), 1.0);
}

TEST(GemmWaves, ComputeTimeIsDividedByTheBusyShare) {
  HardwareSpec hw = a100_like();
  LayerWork w;
  w.op_class = OpClass::linear;
  w.flops = flops(128, 4096, 4096);
  w.gemm_positions = 128;
  w.gemm_reduction = 4096;
  // 4.295 GFLOP at 312 TFLOP/s x 32 / 108.
  LayerTiming t = find_hardware_model("roofline").time_layer(w, hw, DType::fp16);
  EXPECT_DOUBLE_EQ(t.compute_s, w.flops / (312e12 * 32.0 / 108));
  // --efficiency none drops it with the rest of [efficiency].
  hw.drop_efficiency();
  EXPECT_DOUBLE_EQ(find_hardware_model("roofline").time_layer(w, hw, DType::fp16).compute_s, w.flops / 312e12);
}

TEST(GemmWaves, ShippedDescriptorsGiveTheirDatasheetUnitCounts) {
  // A100 whitepaper 108 SMs, H100 SXM5 whitepaper 132, MI300X white paper 304 CUs.
  EXPECT_EQ(load_hardware("a100").compute_units, 108);
  EXPECT_EQ(load_hardware("h100").compute_units, 132);
  EXPECT_EQ(load_hardware("mi300x").compute_units, 304);
  EXPECT_EQ(load_hardware("a100").gemm_tile_rows, 128);
}
