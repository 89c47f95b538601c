// A Megatron-LM style execution plan for training a transformer on many devices:
// tensor (tp), pipeline (pp), data (dp), context (cp) and expert (ep) parallel degrees,
// sequence parallelism,
// microbatching, ZeRO stage, activation recomputation, pipeline interleaving and
// whether data-parallel communication overlaps the backward pass. Ranks are ordered
// tp fastest, then cp, then dp, then pp (Megatron-LM's default order "tp-cp-ep-dp-pp"),
// so a tp group is adjacent devices and lands inside a scale-up domain first. Expert
// parallelism takes no devices of its own: as in Megatron-LM, the dp x cp ranks that
// hold one copy of the dense weights spread the experts ep ways (ep divides dp x cp),
// and an ep group's ranks are tp apart (Megatron-core's expert order "tp-ep-dp-pp").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ridge {

enum class Recompute { none, selective, full };
std::string_view recompute_name(Recompute r);
std::optional<Recompute> parse_recompute(std::string_view s);

struct ParallelPlan {
  int64_t tp = 1;
  int64_t pp = 1;
  int64_t dp = 1;
  int64_t ep = 1;
  int64_t cp = 1;            // context parallel: the sequence split across cp ranks
  bool sequence_parallel = false;
  int64_t global_batch = 0;  // sequences per iteration; 0: microbatch x dp
  int64_t microbatch = 1;    // sequences per microbatch
  int zero = 0;              // 0 none, 1 optimizer state, 2 + gradients, 3 + weights (FSDP)
  Recompute recompute = Recompute::none;
  int64_t interleave = 1;    // virtual stages per device (interleaved 1F1B)
  bool overlap = true;       // data-parallel communication overlaps the backward pass
  // The busiest expert-parallel rank's routed tokens over the mean (--expert-imbalance):
  // 1 is uniform routing; real routers load some experts more, and the busiest rank
  // sets the pace of its all-to-alls and expert GEMMs.
  double expert_imbalance = 1.0;

  int64_t devices() const { return tp * pp * dp * cp; }
  int64_t batch() const { return global_batch > 0 ? global_batch : microbatch * dp; }
  int64_t microbatches() const { return batch() / (microbatch * dp); }
};

// "tp=8,pp=8,dp=1" (keys tp, pp, dp, ep, cp in any order, each at most once, each >= 1);
// a bad text is an InputError naming --parallel.
void parse_parallel_degrees(const std::string& text, ParallelPlan& plan);
// "tp8 pp8 dp1 [cp2 ep4] sp mb1 ZeRO-1 selective recompute v3": one plan in one short
// line; the defaults (ZeRO-0, no recomputation, no interleaving, uniform routing) are left out.
std::string plan_label(const ParallelPlan& plan);

}  // namespace ridge
