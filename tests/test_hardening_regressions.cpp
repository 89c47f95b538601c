// Regression tests for the defects of issue #22, found by an independent campaign of
// mutated inputs, hand-written hostile cases and signal runs after the readers were
// fuzzed: crashes on shipped paths (generate on a calibrated descriptor, INT64_MIN / -1,
// unbounded recursion), strings written unescaped into files, names and numbers that
// got past the readers, and outputs that were wrongly accepted. Each case is the input
// that broke ridge and the answer it must now give.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "sim/base/format_units.hpp"
#include "tests/run_ridge.hpp"
#include "tests/test_folder.hpp"

namespace {

using ridge_test::run_ridge;
using ridge_test::RidgeRun;
using nlohmann::json;

class Hardening : public ridge_test::FolderTest {
 protected:
  // `ridge ARGS` must exit 2 with one `error:` line (and at most a `hint:` line)
  // containing `what`. Returns the error line.
  std::string expect_error(const std::string& args, const std::string& what) {
    RidgeRun r = run_ridge(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.err;
    std::istringstream lines(r.err);
    std::string first, second, third;
    std::getline(lines, first);
    EXPECT_EQ(first.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(first.find(what), std::string::npos) << "expected '" << what << "' in: " << first;
    if (std::getline(lines, second)) {
      EXPECT_EQ(second.rfind("hint: ", 0), 0u) << r.err;
    }
    EXPECT_FALSE(std::getline(lines, third)) << "more than an error and a hint line:\n" << r.err;
    return first;
  }

  // A copy of the MLP (1000-100-...-10) with `params` as its [params] table.
  std::string mlp_with_params(const std::string& params) {
    return write("m.toml", "name = \"m\"\n[params]\n" + params +
                               "\n[input]\nshape = [1000]\n[[layer]]\nname = \"fc\"\nop = \"linear\"\nout_features = 10\n");
  }
};

json run_json(const std::string& args) {
  RidgeRun r = run_ridge(args + " --format json");
  EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
  return r.status == 0 ? json::parse(r.out) : json();
}

// --- crashes ---

TEST_F(Hardening, GenerateOnACalibratedDescriptorTimesItsOneDecodeStep) {
  // Segfaulted (exit 139): the decode steps' work arrays lacked the op classes that a
  // calibrated descriptor's per-class efficiencies read. One decode step at context 32
  // must take what `analyze --phase decode --context 32` says the step takes.
  json g = run_json("generate gpt2 --hw v100-calibrated --prompt 32 --gen 2");
  json a = run_json("analyze gpt2 --hw v100-calibrated --phase decode --context 32");
  ASSERT_TRUE(g.is_object() && a.is_object());
  EXPECT_EQ(g["decode_steps"], 1);
  // Equal up to rounding: generate sums its steps' layers in another order than analyze.
  const double step = a["totals"]["time_s"].get<double>();
  EXPECT_NEAR(g["decode_time_s"].get<double>(), step, 1e-12 * step);
  // And over many steps the calibrated decode sum lies between the first and last step's time.
  const std::string dev = "--hw '" RIDGE_SOURCE_DIR "/configs/calibration/dev-host-1core-calibrated.toml' --dtype fp32";
  json g8 = run_json("generate gpt2 " + dev + " --prompt 32 --gen 9");
  json first = run_json("analyze gpt2 " + dev + " --phase decode --context 32");
  json last = run_json("analyze gpt2 " + dev + " --phase decode --context 39");
  ASSERT_TRUE(g8.is_object() && first.is_object() && last.is_object());
  EXPECT_GE(g8["decode_time_s"].get<double>(), 8 * first["totals"]["time_s"].get<double>() * (1 - 1e-12));
  EXPECT_LE(g8["decode_time_s"].get<double>(), 8 * last["totals"]["time_s"].get<double>() * (1 + 1e-12));
}

TEST_F(Hardening, MinInt64DividedByMinusOneIsAnOverflowNotSigfpe) {
  // -2^63 / -1 = 2^63 does not fit in 64 bits; the division trapped (SIGFPE).
  const std::string expr = "(0 - 9223372036854775807 - 1) / -1";
  std::string m = mlp_with_params("x = \"" + expr + "\"");
  expect_error("analyze '" + m + "' --hw v100", "overflows 64 bits");
  expect_error("analyze gpt2 --hw v100 --set 'model.seq=" + expr + "'", "overflows 64 bits");
  std::string sweep = write("s.toml", "models = [\"gpt2\"]\nhardware = [\"v100\"]\n[[vary]]\nkey = \"model.seq\"\nvalues = [\"" +
                                          expr + "\"]\n");
  expect_error("sweep '" + sweep + "' --output '" + at("out.csv") + "'", "overflows 64 bits");
}

TEST_F(Hardening, AnExpressionNested20000DeepIsRefusedWithItsBound) {
  // Overflowed the stack (SIGSEGV) through the recursive-descent parser.
  std::string deep = std::string(20000, '(') + "1" + std::string(20000, ')');
  std::string m = mlp_with_params("x = \"" + deep + "\"");
  std::string e = expect_error("analyze '" + m + "' --hw v100", "nested more than 64 deep");
  EXPECT_NE(e.find(m + ":3:"), std::string::npos) << e;  // located in the file
  std::string minus = std::string(20000, '-') + "1";
  expect_error("analyze '" + mlp_with_params("x = \"" + minus + "\"") + "' --hw v100", "nested more than 64 deep");
  // 64 deep is still read.
  std::string ok = std::string(63, '(') + "7" + std::string(63, ')');
  RidgeRun r = run_ridge("analyze '" + mlp_with_params("x = \"" + ok + "\"") + "' --hw v100");
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(Hardening, AChainOf20000ParametersIsRefusedWithItsBound) {
  // a1 = "a0", a2 = "a1", ...: each name evaluated the one before it, recursively.
  std::string params = "a0 = 1\n";
  for (int i = 1; i < 20000; ++i) params += "a" + std::to_string(i) + " = \"a" + std::to_string(i - 1) + "\"\n";
  expect_error("analyze '" + mlp_with_params(params) + "' --hw v100", "more than 64 parameters deep");
  // A chain of 64 is still read.
  std::string short_chain = "a0 = 1\n";
  for (int i = 1; i < 64; ++i) short_chain += "a" + std::to_string(i) + " = \"a" + std::to_string(i - 1) + "\"\n";
  RidgeRun r = run_ridge("analyze '" + mlp_with_params(short_chain) + "' --hw v100");
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(Hardening, SetModelParameterWorksBesideHw) {
  // Found by fuzz_cli's first seed: with --hw, `--set model.seq=512` was also handed to the
  // descriptor reader ("unknown hardware key 'model.seq'"), so no command could combine them.
  json alone = run_json("analyze gpt2 --set model.seq=512");
  json with_hw = run_json("analyze gpt2 --hw v100 --set model.seq=512 --set 'memory.HBM2.bandwidth=1 TB/s'");
  json full = run_json("analyze gpt2");
  ASSERT_TRUE(alone.is_object() && with_hw.is_object() && full.is_object());
  EXPECT_EQ(with_hw["totals"]["macs"], alone["totals"]["macs"]);
  EXPECT_NE(alone["totals"]["macs"], full["totals"]["macs"]);
}

// --- names ---

TEST_F(Hardening, AC1ControlCharacterInAModelOrLayerNameIsRefused) {
  // U+009B (UTF-8 C2 9B) is an 8-bit CSI: terminals obey it like ESC [.
  std::string model = write("m.toml", "name = \"a\\u009B2Jb\"\n[input]\nshape = [4]\n[[layer]]\nname = \"fc\"\nop = \"linear\"\nout_features = 2\n");
  expect_error("analyze '" + model + "' --hw v100", "(got character U+009B)");
  std::string layer = write("l.toml", "name = \"m\"\n[input]\nshape = [4]\n[[layer]]\nname = \"f\\u0085c\"\nop = \"linear\"\nout_features = 2\n");
  std::string e = expect_error("analyze '" + layer + "' --hw v100", "(got character U+0085)");
  EXPECT_NE(e.find(":5:"), std::string::npos) << e;
  // Other characters from the same UTF-8 block are names like any other (U+00E9, e acute).
  std::string fine = write("f.toml", "name = \"caf\\u00E9\"\n[input]\nshape = [4]\n[[layer]]\nname = \"fc\"\nop = \"linear\"\nout_features = 2\n");
  EXPECT_EQ(run_ridge("analyze '" + fine + "' --hw v100").status, 0);
}

TEST_F(Hardening, ANameLongerThan256BytesIsALocatedError) {
  std::string name(2400, 'x');
  std::string m = write("m.toml", "name = \"m\"\n[input]\nshape = [4]\n[[layer]]\nname = \"" + name +
                                      "\"\nop = \"linear\"\nout_features = 2\n");
  std::string e = expect_error("analyze '" + m + "' --hw v100", "is 2400 bytes long, longer than the 256 a name may be");
  EXPECT_NE(e.find(m + ":5:"), std::string::npos) << e;
}

const std::string kCsvHeader = "model,layer,op_class,dtype,flops,bytes,seconds\n";

TEST_F(Hardening, NamesInTheCalibrationCsvAreChecked) {
  // ESC [ 2 J (clear the screen) reached the terminal raw through the report.
  std::string csv = write("m.csv", kCsvHeader + "net\x1b[2J,fc,linear,fp32,1000000,4000,0.001\n");
  std::string e = expect_error("calibrate '" + csv + "' --hw v100", "column 'model' must not contain control characters (got character 0x1b)");
  EXPECT_NE(e.find(csv + ":2:1:"), std::string::npos) << e;
  std::string c1 = write("c1.csv", kCsvHeader + "net,f\xc2\x9b" "c,linear,fp32,1000000,4000,0.001\n");
  expect_error("calibrate '" + c1 + "' --hw v100", "column 'layer' must not contain control characters (got character U+009B)");
}

TEST_F(Hardening, ANulInAnErrorMessageIsShownNotACut) {
  // The text after a NUL was lost from the message (and from a terminal's view of it).
  std::string csv = write("m.csv", kCsvHeader + std::string("net,fc,linear,fp32,1000000,4000,0.0") + '\0' + "01\n");
  RidgeRun r = run_ridge("calibrate '" + csv + "' --hw v100");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.find('\0'), std::string::npos) << "a raw NUL on stderr";
  EXPECT_NE(r.err.find("\\x00"), std::string::npos) << r.err;
}

// --- numbers ---

TEST_F(Hardening, ASubnormalInTheCalibrationCsvIsALocatedError) {
  // 4.9e-324 (the smallest subnormal) was accepted; its reciprocal is infinite.
  std::string csv = write("m.csv", kCsvHeader + "net,fc,linear,fp32,1000000,4000,4.9e-324\n");
  std::string e = expect_error("calibrate '" + csv + "' --hw v100", "column 'seconds' is too close to zero to compute with");
  EXPECT_NE(e.find(csv + ":2:"), std::string::npos) << e;
}

TEST_F(Hardening, ASubnormalInTheSweepCsvIsALocatedError) {
  // It made gnuplot fail, and the message asked the user to report a ridge bug.
  RidgeRun sweep = run_ridge("sweep '" RIDGE_SOURCE_DIR "/tests/data/sweep-small.toml' --output '" + at("s.csv") + "'");
  ASSERT_EQ(sweep.status, 0) << sweep.err;
  std::string text = ridge_test::slurp(at("s.csv"));
  // The first row's samples_per_s (drawn by default) becomes 4.9e-324.
  std::istringstream lines(text);
  std::string header, row, line;
  int row_line = 0;
  for (int n = 1; std::getline(lines, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    if (header.empty()) {
      header = line;
    } else {
      row = line;
      row_line = n;
      break;
    }
  }
  std::vector<std::string> names, cells;
  for (std::istringstream h(header); std::getline(h, names.emplace_back(), ',');) {}
  for (std::istringstream c(row); std::getline(c, cells.emplace_back(), ',');) {}
  names.pop_back();
  cells.pop_back();
  size_t col = std::find(names.begin(), names.end(), "samples_per_s") - names.begin();
  ASSERT_LT(col, cells.size()) << header;
  cells[col] = "4.9e-324";
  std::string changed;
  for (size_t i = 0; i < cells.size(); ++i) changed += (i ? "," : "") + cells[i];
  text.replace(text.find(row), row.size(), changed);
  std::string csv = write("bad.csv", text);
  std::string e = expect_error("plot sweep '" + csv + "' --output '" + at("p.svg") + "'", "too close to zero to compute with");
  EXPECT_NE(e.find(csv + ":" + std::to_string(row_line) + ":"), std::string::npos) << e;
}

TEST_F(Hardening, ExtremeValuesPrintInScientificNotation) {
  // 1e300-scale figures printed as 63 truncated digits.
  EXPECT_EQ(ridge::format_bytes(1e300), "1e+300 B");
  EXPECT_EQ(ridge::format_count(-2.5e40), "-2.5e+40");
  EXPECT_EQ(ridge::format_seconds(3e20), "3e+20 s");
  EXPECT_EQ(ridge::format_rate(1e300, "FLOP/s"), "1e+300 FLOP/s");
  EXPECT_EQ(ridge::format_fixed(1e300, 2), "1e+300");
  // Up to 15 digits before the point (after the largest prefix) they stay as they were.
  EXPECT_EQ(ridge::format_bytes(999e18), "999.0 EB");
  EXPECT_EQ(ridge::format_fixed(123456.789, 2), "123456.79");
  EXPECT_EQ(ridge::format_seconds(2.5), "2.500 s");
}

// --- wrongly accepted ---

TEST_F(Hardening, LayersTiedToEachOtherAreRefused) {
  // a and b (16 -> 16, 256 weights each) tied to each other owned nothing: 512 weights vanished.
  std::string m = write("m.toml", "name = \"t\"\n[input]\nshape = [16]\n"
                                  "[[layer]]\nname = \"a\"\nop = \"linear\"\nout_features = 16\nbias = false\ntied_to = \"b\"\n"
                                  "[[layer]]\nname = \"b\"\nop = \"linear\"\nout_features = 16\nbias = false\ntied_to = \"a\"\n");
  std::string e = expect_error("analyze '" + m + "' --hw v100", "layer 'a': tied_to 'b', which is itself tied to 'a'");
  EXPECT_NE(e.find(m + ":9:"), std::string::npos) << e;
}

TEST_F(Hardening, SeqZeroIsAnErrorNotTheDefault) {
  expect_error("analyze gpt2 --hw v100 --phase prefill --seq 0", "--seq must be a positive integer (got 0)");
}

TEST_F(Hardening, MemoryRefusesAContextPastMaxPositionsAsAnalyzeDoes) {
  // Llama-2-7B takes 4096 positions; `memory` said a 100,000-token context fits.
  std::string a = expect_error("analyze llama-2-7b --hw a100 --phase decode --context 100000", "max_positions = 4096");
  std::string m = expect_error("memory llama-2-7b --hw a100 --phase decode --context 100000", "max_positions = 4096");
  EXPECT_EQ(a, m);
  // The last context that fits is 4095 (plus the new token).
  EXPECT_EQ(run_ridge("memory llama-2-7b --hw a100 --phase decode --context 4095").status, 0);
}

TEST_F(Hardening, AContextOf2To63Minus1IsALocatedInputError) {
  // "internal: a count overflows 64 bits", exit 1, from context + 1.
  std::string e = expect_error("analyze llama-2-7b --hw a100 --phase decode --context 9223372036854775807",
                               "--context 9223372036854775807 + the new token is longer than llama-2-7b's max_positions");
  EXPECT_NE(e.find("llama-2-7b.toml:"), std::string::npos) << e;
  // gpt2 too (1024 positions), through every command that takes --context.
  expect_error("memory gpt2 --hw v100 --phase decode --context 9223372036854775807", "max_positions = 1024");
  expect_error("query gpt2 --hw v100 --phase decode --context 9223372036854775807", "max_positions = 1024");
}

TEST_F(Hardening, ASweepRangeFinerThanTwelveDigitsIsRefused) {
  // from 1 to 1 + 1e-11 in 50,000 values gave 49,999 identical points.
  std::string sweep = write("s.toml", "models = [\"mlp\"]\nhardware = [\"v100\"]\n[[vary]]\nkey = \"memory.HBM2.bandwidth\"\n"
                                      "unit = \"TB/s\"\nfrom = 1\nto = 1.00000000001\ncount = 50000\n");
  std::string e = expect_error("sweep '" + sweep + "' --output '" + at("o.csv") + "'", "values 1 and 2 are both 1 at the 12 significant digits");
  EXPECT_NE(e.find(sweep + ":8:"), std::string::npos) << e;  // at its count
  EXPECT_FALSE(std::filesystem::exists(at("o.csv")));
  // A step finer than the digits, too.
  std::string stepped = write("t.toml", "models = [\"mlp\"]\nhardware = [\"v100\"]\n[[vary]]\nkey = \"memory.HBM2.bandwidth\"\n"
                                        "unit = \"TB/s\"\nfrom = 1\nto = 2\nstep = 1e-13\n");
  expect_error("sweep '" + stepped + "' --output '" + at("o.csv") + "'", "are both 1 at the 12 significant digits");
}

TEST_F(Hardening, ProbeThreadsAreBoundedByTheMachine) {
  // --threads 64 (up to 1,024 were accepted) ended in std::bad_alloc: 256 MiB per thread.
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  std::string e = expect_error("probe --threads " + std::to_string(hardware + 1), "--threads must be between 0 and ");
  EXPECT_NE(e.find("(got " + std::to_string(hardware + 1) + ")"), std::string::npos) << e;
  expect_error("probe --threads 100000", "--threads must be between 0 and ");
}

}  // namespace
