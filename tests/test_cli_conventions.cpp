// The command line's conventions (docs/reference/conventions.md): CSV is a plain header
// plus rows that csv.DictReader and pandas.read_csv read as is (# lines only with
// --comments, the totals row only with --totals), a misspelt option gets "did you mean",
// and `ridge plot --help` shows examples.
#include <gtest/gtest.h>

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

TEST(OptionNames, MisspeltOptionGetsDidYouMean) {
  RidgeRun r = run_ridge("analyze alexnet --btach 4");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unrecognised option '--btach'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean '--batch'"), std::string::npos) << r.err;
  RidgeRun far = run_ridge("analyze alexnet --zzzzzzzz");
  EXPECT_EQ(far.status, 2);
  EXPECT_NE(far.err.find("see: ridge analyze --help"), std::string::npos) << far.err;
}

TEST(PlotHelp, ShowsExamples) {
  RidgeRun r = run_ridge("plot --help");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("examples:\n  ridge plot roofline alexnet --hw v100 --output roofline.png"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace ridge
