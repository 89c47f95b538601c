// The kernel-library rule of a descriptor's [library] table (see kernel_library.hpp).
#include "hw/kernel_library.hpp"

#include "sim/base/toml_fields.hpp"

namespace ridge {

std::string library_of(const LayerWork& work, const KernelLibrary& rule) {
  if (work.op_class == OpClass::linear) return rule.linear;
  const bool conv = work.op_class == OpClass::conv_kxk || work.op_class == OpClass::conv_1x1 ||
                    work.op_class == OpClass::depthwise;
  if (!conv) return "";
  const ConvShape& c = work.conv;
  if (c.groups <= 0) return rule.convolution;  // geometry unknown (a transposed convolution)
  const bool pointwise = c.kernel_side == 1 && work.op_class == OpClass::conv_1x1;
  if (pointwise && c.stride == 1 && work.batch < static_cast<double>(rule.fallback_pointwise_below_batch))
    return rule.fallback;
  if (work.batch == 1 && c.groups == 1 && c.kernel_side <= rule.fallback_small_kernel_side &&
      work.input_elements <= static_cast<double>(rule.fallback_small_input_elements))
    return rule.fallback;
  return rule.convolution;
}

KernelLibrary read_kernel_library(const toml::table& table, const std::string& file) {
  TomlFields f(table, file, "library");
  for (const char* k : {"framework", "source", "convolution", "fallback", "linear", "fallback_pointwise_below_batch",
                        "fallback_small_input_elements", "fallback_small_kernel_side"})
    f.accept(k);
  f.reject_unknown_keys();
  KernelLibrary r;
  r.framework = f.string("framework");
  r.source = f.string("source");
  r.convolution = f.string("convolution");
  r.fallback = f.optional_string("fallback").value_or(r.convolution);
  r.linear = f.optional_string("linear").value_or("");
  for (const char* k : {"convolution", "fallback"})
    if (f.has(k) && f.string(k).empty()) f.fail(k, "must name a library", "e.g. \"onednn\" or \"blas\"");
  r.fallback_pointwise_below_batch = f.positive("fallback_pointwise_below_batch", 0, true);
  r.fallback_small_input_elements = f.positive("fallback_small_input_elements", 0, true);
  r.fallback_small_kernel_side = f.positive("fallback_small_kernel_side", 3);
  return r;
}

}  // namespace ridge
