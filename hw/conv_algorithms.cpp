// The convolution-algorithm rule of a descriptor's [conv_algorithms] table (see conv_algorithms.hpp).
#include "hw/conv_algorithms.hpp"

#include <algorithm>

#include "sim/base/toml_fields.hpp"

namespace ridge {

namespace {

int64_t round_up(int64_t count, int64_t multiple) {
  return multiple > 0 ? (count + multiple - 1) / multiple * multiple : count;
}

bool names(const std::vector<DType>& dtypes, DType dtype) {
  return std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end();
}

}  // namespace

double padded_share(int64_t count, int64_t multiple) {
  if (count <= 0 || multiple <= 0) return 1.0;
  return static_cast<double>(round_up(count, multiple)) / static_cast<double>(count);
}

double winograd_multiplies(int64_t tile, int64_t kernel) {
  const double m = static_cast<double>(tile), r = static_cast<double>(kernel);
  return (m + r - 1) * (m + r - 1) / (m * m * r * r);
}

std::vector<ConvAlgorithm> eligible_conv_algorithms(const LayerWork& work, DType dtype, double peak_flops,
                                                    const ConvAlgorithmRule& rule) {
  const bool conv = work.op_class == OpClass::conv_kxk || work.op_class == OpClass::conv_1x1 ||
                    work.op_class == OpClass::depthwise;
  const ConvShape& c = work.conv;
  if (!conv || c.groups <= 0) return {};
  if (c.groups != 1) return {{"implicit_gemm", 1.0, peak_flops}};
  if (c.kernel_side_max == 1 && c.stride == 1 && names(rule.gemm_1x1_dtypes, dtype))
    return {{"gemm", 1.0, peak_flops, true}};
  // fp16 runs on the tensor cores: K in whole output tiles, C and K padded where needed.
  const bool tensor_cores = dtype == DType::fp16;
  const int64_t channels = tensor_cores ? rule.tensor_core_channels : 0;
  const int64_t k_padded = round_up(c.out_channels, channels);
  const double k_tiles = tensor_cores && c.out_channels > 0
                             ? static_cast<double>(round_up(k_padded, rule.tensor_core_output_tile)) /
                                   static_cast<double>(c.out_channels)
                             : 1.0;
  if (channels > 0 && (c.in_channels % channels != 0 || c.out_channels % channels != 0))
    return {{"padded_channels", padded_share(c.in_channels, channels) * k_tiles, peak_flops}};
  std::vector<ConvAlgorithm> out{{"implicit_gemm", k_tiles, peak_flops}};
  const bool winograd_dtype = rule.winograd_dtypes.empty() || names(rule.winograd_dtypes, dtype);
  const bool winograd_kernel = c.kernel_side == c.kernel_side_max &&
                               std::find(rule.winograd_kernels.begin(), rule.winograd_kernels.end(), c.kernel_side) !=
                                   rule.winograd_kernels.end();
  if (rule.winograd && winograd_dtype && winograd_kernel && c.spatial_dims == 2 && c.stride == 1)
    out.push_back({"winograd", winograd_multiplies(rule.winograd_tile, c.kernel_side), peak_flops});
  return out;
}

ConvAlgorithmRule read_conv_algorithms(const toml::table& table, const std::string& file) {
  TomlFields f(table, file, "conv_algorithms");
  for (const char* k : {"library", "source", "winograd", "winograd_dtypes", "winograd_tile", "winograd_kernels",
                        "tensor_core_channels", "tensor_core_output_tile", "gemm_1x1_dtypes", "bound_only"})
    f.accept(k);
  f.reject_unknown_keys();
  ConvAlgorithmRule r;
  r.library = f.string("library");
  r.source = f.string("source");
  r.winograd = f.boolean("winograd", false);
  const auto dtypes = [&](const char* key) {
    std::vector<DType> out;
    for (const std::string& name : f.string_list(key)) {
      const std::optional<DType> d = parse_dtype(name);
      if (!d) f.fail(key, "names an unknown dtype '" + name + "'", std::string("e.g. ") + key + " = [\"fp32\"]");
      out.push_back(*d);
    }
    return out;
  };
  if (f.has("winograd_dtypes")) {
    if (!r.winograd) f.fail("winograd_dtypes", "is read only with winograd = true", "add winograd = true");
    r.winograd_dtypes = dtypes("winograd_dtypes");
  }
  for (const char* key : {"winograd_tile", "winograd_kernels"})
    if (f.has(key) && !r.winograd) f.fail(key, "is read only with winograd = true", "add winograd = true");
  r.winograd_tile = f.positive("winograd_tile", 2);
  if (f.has("winograd_kernels")) r.winograd_kernels = f.integer_list("winograd_kernels");
  if (f.has("gemm_1x1_dtypes")) r.gemm_1x1_dtypes = dtypes("gemm_1x1_dtypes");
  r.tensor_core_channels = f.positive("tensor_core_channels", 0, true);
  r.tensor_core_output_tile = f.positive("tensor_core_output_tile", 0, true);
  r.bound_only_rule = f.boolean("bound_only", false);
  if (r.bound_only_rule)
    for (const char* key : {"tensor_core_channels", "tensor_core_output_tile", "gemm_1x1_dtypes"})
      if (f.has(key))
        f.fail(key, "is a library's efficiency, which a bound_only rule does not time",
               "a bound_only rule keeps what does fewer multiplies than the direct count: winograd");
  return r;
}

}  // namespace ridge
