// The convolution-algorithm rule of a descriptor's [conv_algorithms] table (see conv_algorithms.hpp).
#include "hw/conv_algorithms.hpp"

#include <algorithm>

#include "sim/base/toml_fields.hpp"
#include "sim/base/units.hpp"

namespace ridge {

std::vector<ConvAlgorithm> eligible_conv_algorithms(const LayerWork& work, DType dtype, double peak_flops,
                                                    const ConvAlgorithmRule& rule) {
  const bool conv = work.op_class == OpClass::conv_kxk || work.op_class == OpClass::conv_1x1 ||
                    work.op_class == OpClass::depthwise;
  const ConvShape& c = work.conv;
  if (!conv || c.groups <= 0) return {};
  const auto off_tensor_cores = [&](int64_t channels) {
    return channels > 0 && channels % rule.tensor_core_channels != 0;
  };
  if (dtype == DType::fp16 && rule.tensor_core_channels > 0 &&
      (off_tensor_cores(c.in_channels) || off_tensor_cores(c.out_channels)))
    return {{"cuda_cores", 1.0, rule.cuda_core_fp16_flops}};
  std::vector<ConvAlgorithm> out{{"implicit_gemm", 1.0, peak_flops}};
  const bool winograd_dtype = rule.winograd_dtypes.empty() ||
                              std::find(rule.winograd_dtypes.begin(), rule.winograd_dtypes.end(), dtype) !=
                                  rule.winograd_dtypes.end();
  if (rule.winograd && winograd_dtype && c.spatial_dims == 2 && c.kernel_side == 3 && c.kernel_side_max == 3 && c.stride == 1 &&
      c.groups == 1)
    out.push_back({"winograd", kWinogradF2x2_3x3, peak_flops});
  return out;
}

ConvAlgorithmRule read_conv_algorithms(const toml::table& table, const std::string& file) {
  TomlFields f(table, file, "conv_algorithms");
  for (const char* k : {"library", "source", "winograd", "winograd_dtypes", "tensor_core_channels", "cuda_core_fp16"}) f.accept(k);
  f.reject_unknown_keys();
  ConvAlgorithmRule r;
  r.library = f.string("library");
  r.source = f.string("source");
  r.winograd = f.boolean("winograd", false);
  if (f.has("winograd_dtypes")) {
    if (!r.winograd) f.fail("winograd_dtypes", "is read only with winograd = true", "add winograd = true");
    for (const std::string& name : f.string_list("winograd_dtypes")) {
      const std::optional<DType> d = parse_dtype(name);
      if (!d) f.fail("winograd_dtypes", "names an unknown dtype '" + name + "'", "e.g. winograd_dtypes = [\"fp32\"]");
      r.winograd_dtypes.push_back(*d);
    }
  }
  r.tensor_core_channels = f.positive("tensor_core_channels", 0, true);
  if (r.tensor_core_channels > 0) {
    if (!f.has("cuda_core_fp16"))
      f.fail("tensor_core_channels", "needs cuda_core_fp16, the fp16 peak of a convolution off the tensor cores",
             "e.g. cuda_core_fp16 = \"31.3 TFLOPS\"");
    r.cuda_core_fp16_flops = read_quantity(f, "cuda_core_fp16", Quantity::flops);
  } else if (f.has("cuda_core_fp16")) {
    f.fail("cuda_core_fp16", "is read only with tensor_core_channels", "add tensor_core_channels = 8");
  }
  return r;
}

}  // namespace ridge
