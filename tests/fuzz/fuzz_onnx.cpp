// libFuzzer target: ONNX models (see onnx_input in fuzz_inputs.hpp).
#include "tests/fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ridge_fuzz::onnx_input(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
