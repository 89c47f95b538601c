// Which kernel library a framework runs a layer in: a descriptor's optional [library]
// table, the framework's own dispatch rule written as data. On a CPU, PyTorch runs a
// convolution in oneDNN or in its im2col + BLAS path, and a linear layer in BLAS; where
// the BLAS is slow (on the development VM Debian's reference BLAS ran 7-25x below oneDNN) layers of one op
// class run at rates that far apart, so a calibration fits each (op class, library)
// apart and predicts a new layer's library by this rule (docs/guide/calibrate.md,
// "Kernel libraries"). PyTorch 1.13's rule (aten/src/ATen/native/Convolution.cpp,
// ConvParams::use_mkldnn, fp32 on CPU) sends a convolution to its fallback when
//   it is 1 x 1, unstrided and undilated, its batch below 16 and one thread runs it, or
//   its batch is 1, it has one group, a kernel side of at most 3 and at most 20,480
//   input elements;
// both thresholds are keys of the table, so another framework version writes its own.
#pragma once

#include <optional>
#include <string>

#include <toml++/toml.h>

#include "sim/workload/layer_work.hpp"

namespace ridge {

struct KernelLibrary {
  std::string framework;    // what the rule describes ("PyTorch 1.13.1, CPU, 1 thread")
  std::string source;       // where the rule comes from
  std::string convolution;  // the library of a convolution no rule below sends elsewhere
  std::string fallback;     // the library the rules send a convolution to
  std::string linear;       // the library of linear layers ("": the op class's own)
  // A 1 x 1, unstrided, undilated convolution whose batch is below this goes to the
  // fallback (0: never; PyTorch applies it with one thread only).
  int64_t fallback_pointwise_below_batch = 0;
  // A convolution of batch 1, one group and a kernel side at most `fallback_small_kernel_side`
  // with at most this many input elements goes to the fallback (0: never).
  int64_t fallback_small_input_elements = 0;
  int64_t fallback_small_kernel_side = 3;
};

// The library `rule` runs the layer in; "" for a layer it does not place (not a
// convolution or a linear layer): its op class's own kernels.
std::string library_of(const LayerWork& work, const KernelLibrary& rule);

// Reads a [library] table; errors are located InputErrors.
KernelLibrary read_kernel_library(const toml::table& table, const std::string& file);

}  // namespace ridge
