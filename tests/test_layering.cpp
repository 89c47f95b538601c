// The layering rule of docs/dev/architecture.md: sim/base < sim/workload < hw <
// sim/engine < sim/parallel < sim/views < plots < sim/cli < sim/python. A source file may include headers of its own
// layer or of a lower one, never of a higher one. The check reads every #include of the
// source tree; a second test plants a back-edge in a scratch tree and expects it caught.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Layers from bottom to top, by folder (a folder's subfolders belong to it).
const std::vector<std::string>& layers() {
  static const std::vector<std::string> l = {"sim/base", "sim/workload", "hw", "sim/engine", "sim/parallel",
                                             "sim/views", "plots",        "sim/cli",   "sim/python"};
  return l;
}

// The layer of a path relative to the source root, or -1 for files outside the layers.
int layer_of(const std::string& rel) {
  for (size_t i = 0; i < layers().size(); ++i)
    if (rel.rfind(layers()[i] + "/", 0) == 0) return static_cast<int>(i);
  return -1;
}

// "FILE includes HEADER (layer A above layer B)" for every include that runs upward.
std::vector<std::string> back_edges(const fs::path& root) {
  std::vector<std::string> found;
  const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  for (const std::string& top : {std::string("sim"), std::string("hw"), std::string("plots")}) {
    if (!fs::exists(root / top)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
      if (!entry.is_regular_file()) continue;
      std::string ext = entry.path().extension().string();
      if (ext != ".cpp" && ext != ".hpp") continue;
      std::string rel = fs::relative(entry.path(), root).generic_string();
      int from = layer_of(rel);
      std::ifstream in(entry.path());
      std::string line;
      std::smatch m;
      while (std::getline(in, line)) {
        if (!std::regex_search(line, m, include)) continue;
        int to = layer_of(m[1].str());
        if (from >= 0 && to > from)
          found.push_back(rel + " includes " + m[1].str() + " (" + layers()[static_cast<size_t>(from)] +
                          " may not depend on " + layers()[static_cast<size_t>(to)] + ")");
      }
    }
  }
  return found;
}

TEST(Layering, NoIncludeRunsFromALowerLayerToAHigherOne) {
  std::vector<std::string> edges = back_edges(RIDGE_SOURCE_DIR);
  std::string all;
  for (const std::string& e : edges) all += e + "\n";
  EXPECT_TRUE(edges.empty()) << all;
}

TEST(Layering, EveryLibrarySourceBelongsToALayer) {
  // A new folder under sim/ must be placed in the order above, or the check would skip it.
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(RIDGE_SOURCE_DIR) / "sim")) {
    if (!entry.is_regular_file()) continue;
    std::string rel = fs::relative(entry.path(), RIDGE_SOURCE_DIR).generic_string();
    EXPECT_GE(layer_of(rel), 0) << rel << " is in no layer";
  }
}

TEST(Layering, APlantedBackEdgeIsCaught) {
  fs::path root = fs::temp_directory_path() / ("ridge-layering-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "sim/base");
  fs::create_directories(root / "sim/views");
  std::ofstream(root / "sim/views/report.hpp") << "#pragma once\n";
  std::ofstream(root / "sim/base/units.cpp") << "#include \"sim/base/units.hpp\"\n#include \"sim/views/report.hpp\"\n";
  std::vector<std::string> edges = back_edges(root);
  fs::remove_all(root);
  ASSERT_EQ(edges.size(), 1u);
  EXPECT_NE(edges[0].find("sim/base/units.cpp includes sim/views/report.hpp"), std::string::npos) << edges[0];
}

}  // namespace
