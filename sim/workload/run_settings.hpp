// How a model is run: batch, data type, phase and optimizer. Parsed from the command
// line or a sweep point; every analysis is a pure function of a Model and these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/workload/dtype.hpp"

namespace ridge {

// inference: one forward pass over the model file's input. training: forward, backward
// and the optimizer update. prefill: a forward pass over `seq` prompt tokens per
// sequence that writes their keys and values to a KV cache. decode: one new token per
// sequence, attending to `context` cached tokens and appending its own to the cache.
enum class Phase { inference, training, prefill, decode };
enum class Optimizer { sgd, momentum, adam, adamw };
// Where the batch's input starts and its output must end: on the device, or on the
// host, so that both cross the host link (PCIe / NVLink) every step.
enum class DataPlacement { device, host };
// How numbers are stored in training. uniform: everything in --dtype. mixed (with
// --dtype fp16 or bf16): weights, activations and all gradients in the half type,
// fp32 master weights and fp32 optimizer state (the recipe of Micikevicius et al.,
// "Mixed Precision Training", 2018, as ZeRO counts it: 2 + 2 + 4 + 4 x slots B/param).
enum class Precision { uniform, mixed };
// How kernel launches are charged: per_kernel (each kernel pays the descriptor's
// kernel_launch), per_step (the whole step replayed as one CUDA graph: one launch), none
// (a pure roofline).
enum class LaunchOverhead { per_kernel, per_step, none };
// Weight-only quantization (inference, prefill, decode): the weights of linear layers
// stored in a narrower type and widened to --dtype inside the kernel, with one fp16
// scale per group of kWeightGroup weights (GPTQ / AWQ's default group of 128).
enum class WeightFormat { same, int8, int4, fp8 };
inline constexpr int64_t kWeightGroup = 128;

std::string_view phase_name(Phase p);
std::optional<Phase> parse_phase(std::string_view s);
std::string_view optimizer_name(Optimizer o);
std::optional<Optimizer> parse_optimizer(std::string_view s);
std::string_view precision_name(Precision p);
std::string_view launch_overhead_name(LaunchOverhead o);
std::optional<LaunchOverhead> parse_launch_overhead(std::string_view s);  // kernel | graph | none
std::string_view weight_format_name(WeightFormat w);
std::optional<WeightFormat> parse_weight_format(std::string_view s);  // int8 | int4 | fp8
// Bytes of `elems` weights stored as `w` (with their group scales); `same` is elems x dtype.
int64_t quantized_weight_bytes(int64_t elems, WeightFormat w, DType dtype);
std::optional<Precision> parse_precision(std::string_view s);

// Optimizer state kept per parameter: sgd 0, momentum 1 (velocity), adam/adamw 2 (m, v).
int optimizer_state_slots(Optimizer o);
// Arithmetic of one parameter's update, each elementary op counted as 1 (bias
// corrections and lr products are per-step scalars, not counted):
//   sgd       w -= lr*g                                   2
//   momentum  v = mu*v + g; w -= lr*v                     4
//   adam      m = b1*m + (1-b1)*g (3); v = b2*v + (1-b2)*g*g (4);
//             w -= lr*m/(sqrt(v)+eps) (5)                 12
//   adamw     adam + decoupled decay w -= lr*wd*w (2)     14
int optimizer_flops_per_param(Optimizer o);

struct RunSettings {
  int64_t batch = 1;
  DType dtype = DType::fp32;
  Phase phase = Phase::inference;
  Optimizer optimizer = Optimizer::adam;
  DataPlacement data_on = DataPlacement::device;
  Precision precision = Precision::uniform;
  int64_t seq = 0;      // prefill: prompt tokens per sequence (0: the model file's input length)
  int64_t context = 0;  // decode: tokens already in the KV cache per sequence
  std::optional<DType> kv_dtype;  // the KV cache's element type (default: dtype)
  LaunchOverhead overhead = LaunchOverhead::per_kernel;
  WeightFormat weight_format = WeightFormat::same;

  bool uses_kv_cache() const { return phase == Phase::prefill || phase == Phase::decode; }
  DType cache_dtype() const { return kv_dtype.value_or(dtype); }
  // Tokens per sequence the model's layers see in one step, when the phase fixes it:
  // prefill `seq` (when given), decode 1.
  std::optional<int64_t> tokens_per_step() const;
};

// Bytes per element of each kind of tensor a run keeps (docs/guide/size-training.md, "Mixed precision").
struct ByteSizes {
  int activation = 4;  // activations, and the gradients of activations
  int weight = 4;      // the weights forward and backward read
  int gradient = 4;    // weight gradients
  int master = 0;      // fp32 master copy of the weights (mixed precision only)
  int state = 4;       // one optimizer-state slot
  int state_slots = 0;

  // Training bytes per parameter: weights + gradients + master + state.
  int per_param_training() const { return weight + gradient + master + state * state_slots; }
  // Optimizer update traffic per parameter: read the gradient, read and write the
  // weights the update works on (the master copy when there is one), write the
  // half-precision copy back (mixed), read and write every state slot.
  int update_bytes_per_param() const {
    return gradient + 2 * (master > 0 ? master : weight) + (master > 0 ? weight : 0) + 2 * state * state_slots;
  }
};
ByteSizes byte_sizes(const RunSettings& s);
// "fp32", "mixed fp16 (fp16 weights/activations/gradients, fp32 master weights and optimizer state)".
std::string precision_recipe(const RunSettings& s);

}  // namespace ridge
