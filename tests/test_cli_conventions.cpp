// The command line's conventions (docs/reference/conventions.md): CSV is a plain header
// plus rows that csv.DictReader and pandas.read_csv read as is (# lines only with
// --comments, the totals row only with --totals), `list`, `query` and `generate` write
// CSV too (query and generate: the JSON's keys as one record), a misspelt option gets
// "did you mean", and `ridge plot --help` shows examples.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <sstream>

#include "tests/run_ridge.hpp"

namespace ridge {
namespace {

using ridge_test::RidgeRun;
using ridge_test::run_ridge;

// The fields of each CSV record (RFC 4180: quoted fields may hold commas and quotes).
std::vector<std::vector<std::string>> csv_records(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(field), field.clear();
    } else if (c == '\n') {
      row.push_back(field), field.clear();
      records.push_back(row), row.clear();
    } else {
      field += c;
    }
  }
  return records;
}

void expect_plain_csv(const std::string& args) {
  SCOPED_TRACE(args);
  RidgeRun r = run_ridge(args);
  ASSERT_EQ(r.status, 0) << r.err;
  auto records = csv_records(r.out);
  ASSERT_GE(records.size(), 2u);
  const auto& header = records[0];
  EXPECT_NE(header[0].substr(0, 1), "#");
  for (size_t k = 1; k < records.size(); ++k) {
    EXPECT_EQ(records[k].size(), header.size()) << "record " << k;
    EXPECT_NE(records[k][0].substr(0, 1), "#") << "record " << k;
    EXPECT_NE(records[k][0], "total") << "record " << k;
  }
}

TEST(CsvConvention, PlainHeaderAndRowsByDefault) {
  expect_plain_csv("analyze alexnet --format csv");
  expect_plain_csv("analyze alexnet --hw v100 --format csv");
  expect_plain_csv("analyze gpt2 --hw a100 --phase decode --context 128 --format csv");
  expect_plain_csv("memory mlp --batch 256 --format csv");
  expect_plain_csv("memory mlp --batch 256 --timeline --format csv");
  expect_plain_csv("sweep tests/data/sweep-small.toml --format csv");
}

TEST(CsvConvention, CommentsAndTotalsOnRequest) {
  RidgeRun plain = run_ridge("analyze alexnet --hw v100 --format csv");
  RidgeRun both = run_ridge("analyze alexnet --hw v100 --format csv --comments --totals");
  ASSERT_EQ(both.status, 0) << both.err;
  EXPECT_EQ(both.out.substr(0, 2), "# ");
  auto records = csv_records(plain.out);
  auto with = csv_records(both.out);
  // AlexNet has 8 weighted layers plus ReLU, pooling, LRN, dropout and flatten layers;
  // the totals row is the one record --totals adds, named "total".
  std::vector<std::vector<std::string>> data;
  for (const auto& rec : with)
    if (rec[0].substr(0, 1) != "#") data.push_back(rec);
  ASSERT_EQ(data.size(), records.size() + 1);
  EXPECT_EQ(data.back()[0], "total");
  EXPECT_EQ(data.front(), records.front());  // the same header
}

TEST(CsvConvention, CommentsAndTotalsOnlyWhereCsvIsOffered) {
  RidgeRun r = run_ridge("query alexnet --hw v100 --totals");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--totals"), std::string::npos) << r.err;
}

// The CSV column of each key: the record of `csv` as key -> value.
std::map<std::string, std::string> one_record(const std::string& csv) {
  auto records = csv_records(csv);
  std::map<std::string, std::string> out;
  if (records.size() != 2 || records[0].size() != records[1].size()) {
    ADD_FAILURE() << "not a header and one record:\n" << csv;
    return out;
  }
  for (size_t c = 0; c < records[0].size(); ++c) out[records[0][c]] = records[1][c];
  return out;
}

// Every leaf of the JSON report, by its dotted path, is a CSV column with the same value:
// numbers equal as doubles, a shape as "1x96x55x55", null as an empty field.
void expect_csv_matches_json(const std::string& args) {
  SCOPED_TRACE(args);
  RidgeRun json = run_ridge(args + " --format json");
  RidgeRun csv = run_ridge(args + " --format csv");
  ASSERT_EQ(json.status, 0) << json.err;
  ASSERT_EQ(csv.status, 0) << csv.err;
  std::map<std::string, std::string> record = one_record(csv.out);
  size_t leaves = 0;
  std::function<void(const std::string&, const nlohmann::json&)> check = [&](const std::string& key, const nlohmann::json& j) {
    if (j.is_object() || (j.is_array() && !j.empty() && !j[0].is_number_integer())) {
      size_t i = 0;
      for (auto it = j.begin(); it != j.end(); ++it, ++i)
        check((key.empty() ? "" : key + ".") + (j.is_object() ? it.key() : std::to_string(i)), *it);
      return;
    }
    ++leaves;
    ASSERT_TRUE(record.count(key)) << "no CSV column " << key;
    const std::string& v = record[key];
    if (j.is_null()) EXPECT_EQ(v, "") << key;
    else if (j.is_boolean()) EXPECT_EQ(v, j.get<bool>() ? "true" : "false") << key;
    else if (j.is_number()) EXPECT_EQ(std::stod(v), j.get<double>()) << key;
    else if (j.is_string()) EXPECT_EQ(v, j.get<std::string>()) << key;
    else {
      std::string shape;
      for (const auto& e : j) shape += (shape.empty() ? "" : "x") + std::to_string(e.get<int64_t>());
      EXPECT_EQ(v, shape) << key;
    }
  };
  check("", nlohmann::json::parse(json.out));
  EXPECT_EQ(leaves, record.size());
}

TEST(CsvConvention, QueryAndGenerateWriteTheJsonKeysAsOneRecord) {
  expect_csv_matches_json("query alexnet --hw v100 --layer conv1");
  expect_csv_matches_json("query gpt2 --hw a100 --phase decode --context 128");
  expect_csv_matches_json("generate gpt2 --hw h100 --prompt 128 --gen 16");
  // conv1's output is 96x55x55 (DESIGN.md's worked example) and its MACs 105,415,200.
  std::map<std::string, std::string> conv1 = one_record(run_ridge("query alexnet --hw v100 --layer conv1 --format csv").out);
  EXPECT_EQ(conv1["output_shape"], "1x96x55x55");
  EXPECT_EQ(conv1["macs"], "105415200");
}

// `ridge list X --format csv`: the rows of `list X`, a column per table column.
std::vector<std::map<std::string, std::string>> list_csv(const std::string& what) {
  RidgeRun r = run_ridge("list " + what + " --format csv");
  EXPECT_EQ(r.status, 0) << r.err;
  auto records = csv_records(r.out);
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t k = 1; k < records.size(); ++k) {
    EXPECT_EQ(records[k].size(), records[0].size()) << what << " record " << k;
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < records[0].size() && c < records[k].size(); ++c) row[records[0][c]] = records[k][c];
    rows.push_back(row);
  }
  return rows;
}

std::map<std::string, std::string> row_named(const std::vector<std::map<std::string, std::string>>& rows,
                                             const std::string& key, const std::string& value) {
  for (const auto& row : rows)
    if (row.count(key) && row.at(key) == value) return row;
  ADD_FAILURE() << "no row with " << key << " = " << value;
  return {};
}

// One row per shipped file: the zoo, the descriptors, the systems.
size_t toml_files(const std::string& folder) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(RIDGE_SOURCE_DIR) + "/" + folder))
    n += e.path().extension() == ".toml";
  return n;
}

TEST(CsvConvention, ListWritesCsv) {
  auto models = list_csv("models");
  EXPECT_EQ(models.size(), toml_files("models"));
  // Caffe's bvlc_alexnet (the original two-group network): 60,965,224 parameters.
  EXPECT_EQ(row_named(models, "model", "alexnet")["params"], "60965224");
  auto hardware = list_csv("hardware");
  EXPECT_EQ(hardware.size(), toml_files("configs/hw"));
  // NVIDIA H100 SXM5 datasheet: 3.35 TB/s of HBM3; V100 SXM2: 16 GB (GiB) of HBM2.
  EXPECT_EQ(std::stod(row_named(hardware, "id", "h100")["dram_bandwidth_Bps"]), 3.35e12);
  EXPECT_EQ(row_named(hardware, "id", "v100")["dram_capacity_bytes"], "17179869184");
  EXPECT_EQ(row_named(hardware, "id", "ddr4-desktop")["fp16_tflops"], "");  // no fp16 peak
  auto systems = list_csv("systems");
  EXPECT_EQ(systems.size(), toml_files("configs/systems"));
  // NVIDIA DGX A100 (datasheet): 8 A100 GPUs joined by NVSwitch, one scale-up domain.
  EXPECT_EQ(row_named(systems, "id", "dgx-a100")["devices_per_domain"], "8");
  EXPECT_EQ(list_csv("hw-models").size(), 2u);  // roofline, hierarchical
}

// An option the run would ignore is refused like any other option error: exit status
// 2, one "error:" line naming the option, a "hint:" line with the fix, no output.
TEST(NotApplicable, OptionsThatDoNotApplyAreRefusedWithAHint) {
  const struct {
    const char* args;
    const char* says;
  } cases[] = {
      {"analyze alexnet --optimizer sgd", "--optimizer applies to training only (this run is inference)"},
      {"analyze gpt2 --phase decode --context 8 --optimizer adam", "--optimizer applies to training only"},
      {"memory alexnet --phase inference --optimizer sgd", "--optimizer applies to training only"},
      {"query alexnet --hw v100 --optimizer adam", "--optimizer applies to training only"},
      {"compare alexnet --hw v100 --hw a100 --optimizer adam", "--optimizer applies to training only"},
      {"analyze gpt2 --context 128", "--context applies to --phase decode"},
      {"analyze gpt2 --phase training --context 128", "--context applies to --phase decode"},
      {"analyze gpt2 --seq 128", "--seq applies to --phase prefill"},
      {"analyze alexnet --kv-dtype fp8", "--kv-dtype applies to --phase prefill or decode"},
      {"analyze gpt2 --all-logits", "--all-logits applies to --phase prefill"},
      {"analyze gpt2 --phase training --weight-dtype int4", "--weight-dtype quantizes weights for inference"},
      {"analyze gpt2 --weight-group 64", "--weight-group applies with --weight-dtype"},
      {"memory gpt2 --phase inference --checkpoint sqrt", "--checkpoint sqrt applies to training only"},
      {"analyze gpt2 --recompute full", "--recompute applies to a parallel training plan"},
      {"analyze gpt2 --phase training --zero 1", "--zero applies to a parallel training plan"},
      {"memory gpt2 --microbatch 4", "--microbatch applies to a parallel training plan"},
      {"analyze gpt3 --parallel tp=1,pp=1,dp=8 --optimizer sgd", "--optimizer does not apply to a parallel plan"},
      {"analyze alexnet --hw v100 --hw a100", "--hw is given 2 times; this command takes one"},
      {"analyze alexnet --gen 5", "unrecognised option '--gen'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    RidgeRun r = run_ridge(c.args);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("\nhint: "), std::string::npos) << r.err;
  }
}

// Only the commands that take several --hw say what repeating it does.
TEST(NotApplicable, RepeatToOverlayOnlyInPlotRooflineHelp) {
  for (const char* cmd : {"analyze", "query", "generate", "memory", "compare", "plot layers"}) {
    RidgeRun r = run_ridge(std::string(cmd) + " --help");
    ASSERT_EQ(r.status, 0) << cmd << r.err;
    EXPECT_EQ(r.out.find("overlay"), std::string::npos) << cmd;
  }
  RidgeRun plot = run_ridge("plot roofline --help");
  std::string words;  // the help as one line: the option column wraps its text
  std::istringstream in(plot.out);
  for (std::string w; in >> w;) words += w + " ";
  EXPECT_NE(words.find("or descriptor file; repeat to overlay"), std::string::npos) << plot.out;
}

TEST(OptionNames, MisspeltOptionGetsDidYouMean) {
  RidgeRun r = run_ridge("analyze alexnet --btach 4");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unrecognised option '--btach'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean '--batch'"), std::string::npos) << r.err;
  RidgeRun far = run_ridge("analyze alexnet --zzzzzzzz");
  EXPECT_EQ(far.status, 2);
  EXPECT_NE(far.err.find("see: ridge analyze --help"), std::string::npos) << far.err;
}

// An option ridge does not have is never taken as the prefix of one it has: `--mode
// training` was read as a second `--model` ("cannot be specified more than once").
TEST(OptionNames, APrefixOfAnOptionIsNotGuessed) {
  RidgeRun r = run_ridge("analyze resnet50 --hw a100 --mode training");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unrecognised option '--mode'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean '--model'"), std::string::npos) << r.err;
}

TEST(PlotHelp, ShowsExamples) {
  RidgeRun r = run_ridge("plot --help");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("examples:\n  ridge plot roofline alexnet --hw v100 --output roofline.png"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace ridge
