// Helpers for the plot tests: temporary folders, reading .dat blocks back, checking
// image headers and running the CLI with a chosen PATH.
#pragma once

#include "tests/run_ridge.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "plots/plot_style.hpp"
#include "tests/test_folder.hpp"

namespace ridge::test {

using TempDir = ridge_test::TempDir;

inline std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline bool gnuplot_available() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

// A .dat file's blocks (split at its `# [index N]` comments), each a list of rows of
// fields; double-quoted fields are returned without their quotes.
inline std::vector<std::vector<std::vector<std::string>>> data_blocks(const std::string& text) {
  std::vector<std::vector<std::vector<std::string>>> blocks;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# [index ", 0) == 0) {
      blocks.emplace_back();
      continue;
    }
    if (line.empty() || line[0] == '#' || blocks.empty()) continue;
    std::vector<std::string> fields;
    for (size_t i = 0; i < line.size();) {
      if (line[i] == ' ') {
        ++i;
      } else if (line[i] == '"') {
        size_t end = line.find('"', i + 1);
        fields.push_back(line.substr(i + 1, end - i - 1));
        i = end + 1;
      } else {
        size_t end = line.find(' ', i);
        if (end == std::string::npos) end = line.size();
        fields.push_back(line.substr(i, end - i));
        i = end;
      }
    }
    blocks.back().push_back(fields);
  }
  return blocks;
}

// The image(s) of `stem` in `format` exist, are not empty and start as their format does.
inline void expect_image(const std::filesystem::path& dir, const std::string& stem, plots::ImageFormat format) {
  using plots::ImageFormat;
  auto expect_start = [&](const std::string& name, const std::string& magic) {
    std::string s = read_all(dir / name);
    ASSERT_GT(s.size(), 200u) << name;
    EXPECT_EQ(s.substr(0, magic.size()), magic) << name;
  };
  switch (format) {
    case ImageFormat::png: expect_start(stem + ".png", "\x89PNG\r\n\x1a\n"); break;
    case ImageFormat::pdf: expect_start(stem + ".pdf", "%PDF-"); break;
    case ImageFormat::svg: {
      std::string s = read_all(dir / (stem + ".svg"));
      EXPECT_NE(s.find("<svg"), std::string::npos);
      EXPECT_NE(s.find("</svg>"), std::string::npos);
      break;
    }
    case ImageFormat::tex: {
      std::string s = read_all(dir / (stem + ".tex"));
      EXPECT_NE(s.find("\\begin{picture}"), std::string::npos);
      EXPECT_NE(s.find("\\includegraphics"), std::string::npos);
      expect_start(stem + "-graphics.pdf", "%PDF-");
      break;
    }
  }
}

// A sweep CSV as `ridge sweep --format csv` writes it: two hardware, two batches, a
// varied bandwidth; numbers invented for the test.
inline std::string sample_sweep_csv() {
  return "model,hardware,batch,dtype,phase,memory.HBM2.bandwidth,time_s,samples_per_s\n"
         "alexnet,v100,1,fp32,inference,900 GB/s,0.01,100\n"
         "alexnet,v100,64,fp32,inference,900 GB/s,0.1,640\n"
         "alexnet,v100,1,fp32,inference,1.5 TB/s,0.008,125\n"
         "alexnet,v100,64,fp32,inference,1.5 TB/s,0.08,800\n"
         "alexnet,a100,1,fp32,inference,900 GB/s,0.005,200\n"
         "alexnet,a100,64,fp32,inference,900 GB/s,0.05,1280\n"
         "alexnet,a100,1,fp32,inference,1.5 TB/s,0.004,250\n"
         "alexnet,a100,64,fp32,inference,1.5 TB/s,0.04,1600\n";
}

struct CliResult {
  int status = -1;
  std::string err;
};

// Runs `ridge ARGS` (ARGS shell-quoted by the caller) in a fresh folder, with PATH set
// to `path` when given; returns the exit status and stderr.
inline CliResult run_cli(const std::string& args, const std::string& path = "") {
  TempDir dir;
  ridge_test::RidgeRun run = ridge_test::run_ridge(args, {dir.str(), path});
  return {run.status, run.err};
}

}  // namespace ridge::test
