// libFuzzer target: measured layer times, ridge calibrate's CSV (see measured_input in fuzz_inputs.hpp).
#include "tests/fuzz/fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ridge_fuzz::measured_input(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
