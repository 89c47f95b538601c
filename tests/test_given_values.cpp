// No value a user can type stands for "not given": an option that was given is checked
// like any other value. These options used to hold a sentinel (-1, 0, INT64_MIN or "")
// for "not given", so typing that value was silently taken as leaving the option out
// (`--context -1` ran with no context, `--dpi 0` drew at the default 150 dpi, `--epochs 0`
// dropped the training run, `--dtype ""` ran in fp32). Each must now be an input error
// (exit 2, one `error:` line naming the option).
#include <gtest/gtest.h>

#include "tests/run_ridge.hpp"

namespace {

struct GivenValue {
  const char* args;     // ridge's arguments
  const char* message;  // must appear on the error line
};

const GivenValue kGivenValues[] = {
    {"analyze mlp --context -1", "--context must not be negative (got -1)"},
    {"analyze gpt2 --phase decode --context -1", "--context must not be negative (got -1)"},
    {"memory llama-2-7b --phase decode --context -1", "--context must not be negative (got -1)"},
    {"analyze gpt2 --phase prefill --seq=-9223372036854775808", "--seq must be a positive integer (got -9223372036854775808)"},
    {"analyze mlp --weight-group 128", "--weight-group applies with --weight-dtype"},
    {"analyze mlp --dtype ''", "--dtype is given an empty value"},
    {"analyze mlp --output ''", "--output is given an empty value"},
    {"analyze mlp --hw v100 --hw-model ''", "--hw-model is given an empty value"},
    {"analyze mlp --hw v100 --set ''", "--set is given an empty value"},
    {"plot roofline mlp --hw v100 --output no-such-folder/o.png --dpi 0", "--dpi must be between 50 and 1200 (got 0)"},
    {"plot roofline mlp --hw v100 --output no-such-folder/o.png --font-size 0", "--font-size must be between 4 and 72 points (got 0)"},
    {"plan gpt3 --system dgx-a100 --gpus 8 --global-batch 8 --seq 0", "plan: --seq must be positive (got 0)"},
    {"analyze gpt3 --system dgx-a100 --parallel tp=8 --gpus 0", "--gpus 0 is not tp x pp x dp x cp = 8"},
    {"generate llama-2-70b --prompt 8 --gen 2 --system dgx-h100 --parallel tp=4 --gpus 0", "--gpus 0 is not tp x pp x dp x cp = 4"},
    {"analyze gpt3 --system dgx-a100 --parallel tp=8 --gpus 16", "--gpus 16 is not tp x pp x dp x cp = 8"},
    {"analyze gpt3 --system dgx-a100 --parallel tp=8 --global-batch 0", "--global-batch must be a positive number of sequences (got 0)"},
    {"compare mlp --hw v100 --phase training --epochs 0", "a training run needs --epochs > 0"},
    {"compare mlp --hw v100 --phase training --dataset-size 0", "a training run needs --epochs > 0"},
    {"compare gpt2 --hw v100 --phase training --train-tokens 0", "a training run needs --epochs > 0"},
};

class GivenValues : public testing::TestWithParam<GivenValue> {};

TEST_P(GivenValues, AreCheckedNotTakenAsLeftOut) {
  const GivenValue& c = GetParam();
  ridge_test::RidgeRun r = ridge_test::run_ridge(c.args);
  EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
  EXPECT_EQ(r.out, "") << c.args;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
}

INSTANTIATE_TEST_SUITE_P(Options, GivenValues, testing::ValuesIn(kGivenValues));

// Leaving the options out still means their defaults (the other side of the change).
TEST(GivenValues, LeftOutStillMeansTheDefault) {
  EXPECT_EQ(ridge_test::run_ridge("memory llama-2-7b --phase decode").status, 0);  // the longest context
  EXPECT_EQ(ridge_test::run_ridge("analyze gpt3 --system dgx-a100 --parallel tp=8").status, 0);
  EXPECT_EQ(ridge_test::run_ridge("compare mlp --hw v100").status, 0);  // no training run
  EXPECT_EQ(ridge_test::run_ridge("analyze --help").status, 0);          // a switch has no value to be empty
}

}  // namespace
