// libFuzzer target: model files (see model_input in fuzz_inputs.hpp).
#include "tests/fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ridge_fuzz::model_input(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
